-- Schema 8: methods of learning that the store need not know, and a
-- second position set. A method is a name that says how to read an
-- agent's weights (the n-tuple network, ntuple, is new), so the store no
-- longer lists the methods, nor asks the weights to be float32 values: an
-- n-tuple network's file has a header. Connect Four agents get the share
-- of a second set of solved positions, reached by random moves, before
-- the blobs (see schema 7 for why the table is rebuilt).
--
-- The best of a league is no longer chosen by the share of the position
-- set: on 1,000 positions it moves by a point or two from one checkpoint
-- to the next by chance alone, and the best followed that noise. The
-- standings keep no share; the best is the highest lower end of the
-- rating's interval among the best class.
CREATE TABLE agents_8 (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('random', 'perfect', 'tactician', 'mcts', 'solver', 'checkpoint', 'baseline', 'imported')),
    name        TEXT NOT NULL UNIQUE,
    parent_id   INTEGER REFERENCES agents (id),
    generation  INTEGER NOT NULL DEFAULT 0,
    train_games INTEGER NOT NULL DEFAULT 0,
    hidden      INTEGER CHECK (hidden BETWEEN 1 AND 4096),
    -- How it learned, which says how to read its weights; NULL for the
    -- built-in players.
    method      TEXT,
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
    -- Connect Four: the second position set's, of random moves.
    random_optimal   INTEGER,
    random_positions INTEGER CHECK (random_positions > 0),
    moves_crc   INTEGER,
    weights_crc INTEGER,
    -- Tic-tac-toe: the agent's move in each position where a move is due.
    moves       BLOB,
    -- The model as its method stores it: a network as a plain weight
    -- file with the side input, a table of values or an n-tuple network
    -- as its file; an empty blob once ttt prune dropped it.
    weights     BLOB,
    CHECK ((kind IN ('checkpoint', 'baseline', 'imported')) = (weights IS NOT NULL)),
    CHECK ((method IS NOT NULL) = (weights IS NOT NULL)),
    CHECK (moves IS NULL OR weights IS NOT NULL)
);

INSERT INTO agents_8 (id, kind, name, parent_id, generation, train_games, hidden, method, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss,
        set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
        moves_crc, weights_crc, moves, weights)
    SELECT id, kind, name, parent_id, generation, train_games, hidden, method, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss,
        set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
        moves_crc, weights_crc, moves, weights
    FROM agents;
DROP TABLE agents;
ALTER TABLE agents_8 RENAME TO agents;

UPDATE standings SET share = NULL;
