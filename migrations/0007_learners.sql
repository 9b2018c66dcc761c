-- Schema 7: a league of several learners. Every network and value table
-- says which method of learning made it: ttt-rl's policy net (policy),
-- the TD(λ) value net (tdlambda), or a table of position values, the
-- CodeProject article's (table) or Sutton and Barto's (selfplay-table).
-- A table agent keeps its table file in weights (it starts "ttt-vtab";
-- no weight file does) and has no hidden size.
--
-- The table is rebuilt, not altered, so that `method` comes before the
-- blobs: SQLite reads a row's columns in order, and a column after the
-- weights would cost every listing of 100,000 agents a walk through the
-- pages each agent's weights fill.
CREATE TABLE agents_7 (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('random', 'perfect', 'tactician', 'mcts', 'solver', 'checkpoint', 'baseline', 'imported')),
    name        TEXT NOT NULL UNIQUE,
    parent_id   INTEGER REFERENCES agents (id),
    generation  INTEGER NOT NULL DEFAULT 0,
    train_games INTEGER NOT NULL DEFAULT 0,
    hidden      INTEGER CHECK (hidden BETWEEN 1 AND 4096),
    -- How it learned; NULL for the built-in players.
    method      TEXT CHECK (method IN ('policy', 'tdlambda', 'table', 'selfplay-table')),
    created_at  TEXT NOT NULL,
    -- The facts of its checks, as in schema 3.
    class       INTEGER CHECK (class BETWEEN 0 AND 2),
    x_worst     INTEGER CHECK (x_worst BETWEEN -1 AND 1),
    x_lost      INTEGER,
    x_lines     INTEGER,
    x_optimal   INTEGER,
    x_positions INTEGER,
    o_worst     INTEGER CHECK (o_worst BETWEEN -1 AND 1),
    o_lost      INTEGER,
    o_lines     INTEGER,
    o_optimal   INTEGER,
    o_positions INTEGER,
    x_win       REAL CHECK (x_win BETWEEN 0 AND 1),
    x_draw      REAL CHECK (x_draw BETWEEN 0 AND 1),
    x_loss      REAL CHECK (x_loss BETWEEN 0 AND 1),
    o_win       REAL CHECK (o_win BETWEEN 0 AND 1),
    o_draw      REAL CHECK (o_draw BETWEEN 0 AND 1),
    o_loss      REAL CHECK (o_loss BETWEEN 0 AND 1),
    set_optimal      INTEGER,
    set_positions    INTEGER CHECK (set_positions > 0),
    early_optimal    INTEGER,
    early_positions  INTEGER,
    middle_optimal   INTEGER,
    middle_positions INTEGER,
    late_optimal     INTEGER,
    late_positions   INTEGER,
    moves_crc   INTEGER,
    weights_crc INTEGER,
    -- Tic-tac-toe: the agent's move in each position where a move is due.
    moves       BLOB,
    -- A network as a plain weight file with the side input, or a table
    -- of values as its table file.
    weights     BLOB,
    CHECK ((kind IN ('checkpoint', 'baseline', 'imported')) = (weights IS NOT NULL)),
    CHECK ((method IS NOT NULL) = (weights IS NOT NULL)),
    CHECK (weights IS NULL OR length(weights) % 4 = 0),
    CHECK (moves IS NULL OR weights IS NOT NULL)
);

-- A league before this schema had one learner, its setting `learner`
-- (policy when unset): its checkpoints are that learner's, pruned ones
-- too. A baseline or an imported net is a value net (tdlambda) when its
-- weights hold one output: hidden × (inputs + 2) + 1 numbers, with 19
-- inputs in tic-tac-toe and 85 in Connect Four.
INSERT INTO agents_7 (id, kind, name, parent_id, generation, train_games, hidden, method, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss,
        set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
        moves_crc, weights_crc, moves, weights)
    SELECT id, kind, name, parent_id, generation, train_games, hidden,
        CASE
            WHEN kind = 'checkpoint' THEN coalesce((SELECT value FROM settings WHERE name = 'learner'), 'policy')
            WHEN kind NOT IN ('baseline', 'imported') THEN NULL
            WHEN length(weights) / 4 = hidden * ((SELECT CASE game WHEN 'connect4' THEN 85 ELSE 19 END FROM league) + 2) + 1 THEN 'tdlambda'
            ELSE 'policy'
        END,
        created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss,
        set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
        moves_crc, weights_crc, moves, weights
    FROM agents;
DROP TABLE agents;
ALTER TABLE agents_7 RENAME TO agents;

-- The league's learners, a list: `learners`, where one learner was
-- `learner`.
UPDATE settings SET name = 'learners' WHERE name = 'learner';
