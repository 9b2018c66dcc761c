-- Schema 2: a league of a night, 100,000 checkpoints, in about 16 KB
-- each. Schema 1 played every snapshot against every member and wrote
-- every agent's rating after every round, so its matches and its history
-- grew with the square of the league. Now each snapshot plays a bounded
-- pool, a rating is written only when it moves, the current standing of
-- every agent has a table of its own, and every stored network carries
-- the facts the league reads most (its class, its move table) and a
-- checksum. The store runs this file with foreign keys off, as SQLite's
-- procedure for rebuilding a table asks, then a Go step (store/upgrade.go)
-- fills in what SQL cannot compute: checksums, the compacted history and
-- the standings.

-- Agents, rebuilt so that the small columns come first and the blobs
-- last: SQLite reads a column by walking the record from its start, so a
-- listing of 100,000 agents must not wade through their weights.
CREATE TABLE agents_2 (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('random', 'perfect', 'checkpoint', 'baseline', 'imported')),
    name        TEXT NOT NULL UNIQUE,
    parent_id   INTEGER REFERENCES agents (id),
    generation  INTEGER NOT NULL DEFAULT 0,
    train_games INTEGER NOT NULL DEFAULT 0,
    hidden      INTEGER CHECK (hidden BETWEEN 1 AND 4096),
    created_at  TEXT NOT NULL,
    -- What the exhaustive check (ttt verify) says of both sides at once:
    -- 2 perfect (every move keeps the game's value), 1 unbeatable (no
    -- line beats it), 0 beatable. NULL for random. `best` orders by it.
    class       INTEGER CHECK (class BETWEEN 0 AND 2),
    -- The exhaustive check per side, as in schema 1.
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
    -- The exact chances of a win, a draw and a loss against a uniformly
    -- random opponent, per side, from every random reply weighed by its
    -- probability. NULL where they were not computed (agents of schema 1).
    x_win       REAL CHECK (x_win BETWEEN 0 AND 1),
    x_draw      REAL CHECK (x_draw BETWEEN 0 AND 1),
    x_loss      REAL CHECK (x_loss BETWEEN 0 AND 1),
    o_win       REAL CHECK (o_win BETWEEN 0 AND 1),
    o_draw      REAL CHECK (o_draw BETWEEN 0 AND 1),
    o_loss      REAL CHECK (o_loss BETWEEN 0 AND 1),
    -- CRC-32C (Castagnoli) of each blob as stored, checked on every read,
    -- so that a damaged blob, which SQLite's integrity check cannot see,
    -- is found out rather than played. NULL where the blob is.
    moves_crc   INTEGER,
    weights_crc INTEGER,
    -- The network's move in each of the 4,520 positions where a move is
    -- due, numbered in the order of a depth-first walk from the empty board
    -- trying squares 0 to 8, one byte each, compressed with DEFLATE (about
    -- 1.5 KB). Evaluating the net there takes milliseconds; a league picks
    -- a few dozen old opponents per round. NULL where it was not stored
    -- (agents of schema 1): ttt computes it from the weights.
    moves       BLOB,
    -- The network as a 19-input plain weight file, the export format
    -- itself (see schema 1).
    weights     BLOB,
    CHECK ((kind IN ('random', 'perfect')) = (weights IS NULL)),
    CHECK (weights IS NULL OR length(weights) = 4 * (29 * hidden + 9)),
    CHECK (moves IS NULL OR weights IS NOT NULL)
);

INSERT INTO agents_2 (id, kind, name, parent_id, generation, train_games, hidden, created_at, class,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions, weights)
    SELECT id, kind, name, parent_id, generation, train_games, hidden, created_at,
        CASE WHEN x_worst IS NULL THEN NULL
             WHEN x_worst < 0 OR o_worst < 0 THEN 0
             WHEN x_optimal = x_positions AND o_optimal = o_positions THEN 2
             ELSE 1 END,
        x_worst, x_lost, x_lines, x_optimal, x_positions, o_worst, o_lost, o_lines, o_optimal, o_positions, weights
    FROM agents;
DROP TABLE agents;
ALTER TABLE agents_2 RENAME TO agents;

-- Rounds, rebuilt: a round of schema 1 never recorded when it finished
-- (NULL now: unknown), and a round now keeps the facts of its line in
-- the log, so that its history can be shown later.
CREATE TABLE rounds_2 (
    id            INTEGER PRIMARY KEY,
    -- league: a round of ttt league run, which made a snapshot; roundrobin:
    -- the results of ttt roundrobin.
    kind          TEXT NOT NULL DEFAULT 'league' CHECK (kind IN ('league', 'roundrobin')),
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    snapshot_id   INTEGER REFERENCES agents (id),
    -- The snapshot's rating as this round's fit made it: the league's
    -- learning curve, one point per round.
    elo           REAL,
    lo            REAL,
    hi            REAL,
    train_games   INTEGER,
    train_seconds REAL,
    eval_games    INTEGER,
    eval_seconds  REAL,
    -- The rating fit of the round: how many agents it moved, and how many
    -- it left pending when it ran out of its budget (0: converged).
    fit_steps     INTEGER,
    fit_pending   INTEGER,
    -- The first and the last newer agent (a) of the round's matches, so
    -- that they are read from a range of the matches' key: an index by
    -- round would cost a league 0.5 KB a checkpoint. NULL for none.
    a_first       INTEGER,
    a_last        INTEGER
);

INSERT INTO rounds_2 (id, started_at, snapshot_id, elo, lo, hi, a_first, a_last)
    SELECT r.id, r.started_at, a.id, h.elo, h.lo, h.hi, m.a_first, m.a_last
    FROM rounds r
    LEFT JOIN agents a ON a.kind = 'checkpoint' AND a.generation = r.id
    LEFT JOIN ratings h ON h.round_id = r.id AND h.agent_id = a.id
    LEFT JOIN (SELECT round_id, min(a) AS a_first, max(a) AS a_last FROM matches GROUP BY round_id) m ON m.round_id = r.id;
DROP TABLE rounds;
ALTER TABLE rounds_2 RENAME TO rounds;

-- The rating history, sparse: a row when an agent is first rated and
-- whenever its rating or either end of its interval has moved by more
-- than half an Elo since its last row (store.HistoryStep). An agent's
-- rating after any round is its last row at or before that round. The
-- Go step fills it from schema 1's dense table, then drops that table.
CREATE TABLE history (
    agent_id INTEGER NOT NULL REFERENCES agents (id),
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    elo      REAL NOT NULL,
    lo       REAL NOT NULL,
    hi       REAL NOT NULL,
    games    INTEGER NOT NULL,
    PRIMARY KEY (agent_id, round_id)
) WITHOUT ROWID;

-- Every rated agent's standing now: its rating as its last history row
-- has it, and its record over all its matches. The leaderboard and `best`
-- read this table, never the history.
CREATE TABLE standings (
    agent_id INTEGER PRIMARY KEY REFERENCES agents (id),
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    elo      REAL NOT NULL,
    lo       REAL NOT NULL,
    hi       REAL NOT NULL,
    wins     INTEGER NOT NULL,
    draws    INTEGER NOT NULL,
    losses   INTEGER NOT NULL,
    -- agents.class for networks, NULL for random and perfect: `best` is
    -- the first network by class, then Elo, then newest.
    class    INTEGER
) WITHOUT ROWID;

CREATE INDEX standings_by_elo ON standings (elo, agent_id);
CREATE INDEX standings_best ON standings (class, elo, agent_id) WHERE class IS NOT NULL;

-- The exact ratings the league's rating fit holds, which a league needs
-- to resume bit for bit (the history's are rounded to HistoryStep), as
-- pairs of a little-endian uint32 agent id and float64 Elo: now and then a
-- row with every rated agent's (full), and after it a row for each round
-- with the agents it moved. A round moves hundreds of ratings by a hair,
-- all over the league; written as standings, each would cost a page of
-- the file. A full row makes the rows before it useless, and the league
-- deletes them in the same transaction, so the table stays within twice a
-- full row.
CREATE TABLE fits (
    round_id INTEGER PRIMARY KEY REFERENCES rounds (id),
    full     INTEGER NOT NULL CHECK (full IN (0, 1)),
    ratings  BLOB NOT NULL,
    crc      INTEGER NOT NULL
);

-- The league's settings as it was started (ttt league run's flags), so
-- that a resumed run can say what differs.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- The learner's state gets a checksum (CRC-32C), like the networks.
ALTER TABLE learner ADD COLUMN state_crc INTEGER;
