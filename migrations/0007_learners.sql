-- Schema 7: a league of several learners. Every network and value table
-- says which method of learning made it: ttt-rl's policy net (policy),
-- the TD(λ) value net (tdlambda), or a table of position values, the
-- CodeProject article's (table) or Sutton and Barto's (selfplay-table).
-- A table agent keeps its table file in weights (it starts "ttt-vtab";
-- no weight file does) and has no hidden size. NULL for the built-in
-- players.
ALTER TABLE agents ADD COLUMN method TEXT
    CHECK (method IN ('policy', 'tdlambda', 'table', 'selfplay-table'));

-- A league before this schema had one learner, its setting `learner`
-- (policy when unset): its checkpoints are that learner's, pruned ones
-- too. A baseline or an imported net is a value net (tdlambda) when its
-- weights hold one output: hidden × (inputs + 2) + 1 numbers, with 19
-- inputs in tic-tac-toe and 85 in Connect Four.
UPDATE agents SET method = coalesce((SELECT value FROM settings WHERE name = 'learner'), 'policy')
    WHERE kind = 'checkpoint';
UPDATE agents SET method = CASE
        WHEN length(weights) / 4 = hidden * ((SELECT CASE game WHEN 'connect4' THEN 85 ELSE 19 END FROM league) + 2) + 1
        THEN 'tdlambda' ELSE 'policy' END
    WHERE kind IN ('baseline', 'imported');

-- The league's learners, a list: `learners`, where one learner was
-- `learner`.
UPDATE settings SET name = 'learners' WHERE name = 'learner';
