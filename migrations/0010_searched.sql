-- Schema 10: searched agents. A searched agent is a model played with a
-- search around it (checkpoint-69@ab4: alpha-beta to four plies, the
-- model's values at the leaves), rated in the league as a player of its
-- own. It keeps no weights: parent_id names the agent whose model it
-- searches, and search the search. In tic-tac-toe it keeps its move in
-- every position, as every agent there does, which is what the league
-- plays. SQLite cannot change a table's CHECK constraints, so the table
-- is rebuilt, as schema 8 rebuilt it.
CREATE TABLE agents_10 (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('random', 'perfect', 'tactician', 'mcts', 'solver', 'checkpoint', 'baseline', 'imported', 'searched')),
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
    -- A searched agent's search, as written after the @ of its name
    -- (ab4, mcts800); NULL for every other agent.
    search      TEXT,
    CHECK ((kind IN ('checkpoint', 'baseline', 'imported')) = (weights IS NOT NULL)),
    CHECK ((method IS NOT NULL) = (weights IS NOT NULL)),
    CHECK (moves IS NULL OR weights IS NOT NULL OR kind = 'searched'),
    CHECK ((kind = 'searched') = (search IS NOT NULL)),
    CHECK (kind <> 'searched' OR parent_id IS NOT NULL)
);

INSERT INTO agents_10 (id, kind, name, parent_id, generation, train_games, hidden, method, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss,
        set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
        random_optimal, random_positions, moves_crc, weights_crc, moves, weights)
    SELECT id, kind, name, parent_id, generation, train_games, hidden, method, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions,
        x_win, x_draw, x_loss, o_win, o_draw, o_loss,
        set_optimal, set_positions, early_optimal, early_positions, middle_optimal, middle_positions, late_optimal, late_positions,
        random_optimal, random_positions, moves_crc, weights_crc, moves, weights
    FROM agents;
DROP TABLE agents;
ALTER TABLE agents_10 RENAME TO agents;
