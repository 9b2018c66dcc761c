-- Schema 3: a league plays one game, tic-tac-toe or Connect Four, chosen
-- when it is created. Leagues of schema 2 are tic-tac-toe leagues and keep
-- everything. Connect Four brings built-in players of its own (the
-- tactician, a ladder of MCTS players, the solver), networks of another
-- size, and another measure of a network: the share of a fixed set of
-- solved positions where its move keeps the position's value.

-- The league's game, one row: ttt league run --game chooses it, every
-- other command reads it from here.
CREATE TABLE league (
    game TEXT NOT NULL CHECK (game IN ('tictactoe', 'connect4'))
);
INSERT INTO league (game) VALUES ('tictactoe');

-- Agents, rebuilt for the new kinds of built-in players and for networks
-- of any game (the length of the weights depends on the game), with the
-- position-set figures beside the exhaustive check's.
CREATE TABLE agents_3 (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('random', 'perfect', 'tactician', 'mcts', 'solver', 'checkpoint', 'baseline', 'imported')),
    name        TEXT NOT NULL UNIQUE,
    parent_id   INTEGER REFERENCES agents (id),
    generation  INTEGER NOT NULL DEFAULT 0,
    train_games INTEGER NOT NULL DEFAULT 0,
    hidden      INTEGER CHECK (hidden BETWEEN 1 AND 4096),
    created_at  TEXT NOT NULL,
    -- Tic-tac-toe: what the exhaustive check (ttt verify) says of both
    -- sides at once: 2 perfect (every move keeps the game's value), 1
    -- unbeatable (no line beats it), 0 beatable. Connect Four networks
    -- are all 0: no check proves one unbeatable. NULL for players that
    -- were not checked. `best` orders by it.
    class       INTEGER CHECK (class BETWEEN 0 AND 2),
    -- Tic-tac-toe: the exhaustive check per side, as in schema 1.
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
    -- Tic-tac-toe: the exact chances of a win, a draw and a loss against
    -- a uniformly random opponent, per side.
    x_win       REAL CHECK (x_win BETWEEN 0 AND 1),
    x_draw      REAL CHECK (x_draw BETWEEN 0 AND 1),
    x_loss      REAL CHECK (x_loss BETWEEN 0 AND 1),
    o_win       REAL CHECK (o_win BETWEEN 0 AND 1),
    o_draw      REAL CHECK (o_draw BETWEEN 0 AND 1),
    o_loss      REAL CHECK (o_loss BETWEEN 0 AND 1),
    -- Connect Four: of the fixed set of solved positions, how many the
    -- player moves in keeping the position's value, overall and by the
    -- phase of the game (early, middle, late). NULL where not measured.
    -- `best` orders by the share, after the class.
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
    -- Tic-tac-toe: the network's move in each position where a move is due
    -- (see schema 2). NULL for Connect Four, whose positions are too many.
    moves       BLOB,
    -- The network as a plain weight file with the side input.
    weights     BLOB,
    CHECK ((kind IN ('checkpoint', 'baseline', 'imported')) = (weights IS NOT NULL)),
    CHECK (weights IS NULL OR length(weights) % 4 = 0),
    CHECK (moves IS NULL OR weights IS NOT NULL)
);

INSERT INTO agents_3 (id, kind, name, parent_id, generation, train_games, hidden, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss, moves_crc, weights_crc, moves, weights)
    SELECT id, kind, name, parent_id, generation, train_games, hidden, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss, moves_crc, weights_crc, moves, weights
    FROM agents;
DROP TABLE agents;
ALTER TABLE agents_3 RENAME TO agents;

-- The standings keep the share beside the class, for `best`.
ALTER TABLE standings ADD COLUMN share REAL;
DROP INDEX standings_best;
CREATE INDEX standings_best ON standings (class, share, elo, agent_id) WHERE class IS NOT NULL;
