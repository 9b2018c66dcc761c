-- The league database: agents, the rounds that made and rated them, the
-- games they played and the rating history. Times are UTC text in
-- RFC 3339 form, readable in the sqlite3 shell and sortable as text.

-- "ttt!" in the header: a ttt database can be told from any other SQLite
-- file, and ttt refuses to add its tables to someone else's database.
PRAGMA application_id = 1953788961; -- 0x74747421

-- Every player the league knows. random and perfect are rows too, so that
-- games and ratings refer to every player the same way; the store adds
-- them when it creates the database.
CREATE TABLE agents (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('random', 'perfect', 'checkpoint', 'baseline', 'imported')),
    -- Names are how people point at agents (ttt show NAME); the store
    -- keeps them apart from ids and from the words best and latest.
    name        TEXT NOT NULL UNIQUE,
    -- The checkpoint this one was trained on from; NULL for the first of
    -- a line and for agents that were not trained in the league.
    parent_id   INTEGER REFERENCES agents (id),
    -- The league round that made the agent; 0 outside the league.
    generation  INTEGER NOT NULL DEFAULT 0,
    train_games INTEGER NOT NULL DEFAULT 0,
    -- The network as a 19-input plain weight file (README, "ttt export,
    -- ttt import"): the export format itself, so a stored net is bit-exact and
    -- needs no second encoding. NULL for random and perfect, which are not
    -- networks. hidden is kept beside it for listings that do not read
    -- the blob.
    hidden      INTEGER CHECK (hidden BETWEEN 1 AND 4096),
    weights     BLOB,
    created_at  TEXT NOT NULL,
    -- The exhaustive check (ttt verify), per side, computed once when the
    -- agent is stored: frozen agents never change, and no rating can say
    -- as exactly how exploitable an agent is. worst is the worst result
    -- the opponent can force, from the agent's side: -1 loss, 0 draw,
    -- 1 win. NULL for random, which has no single line to check.
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
    -- A network has its weights, of exactly the size its hidden layer
    -- says (4 bytes x (19H + 9H + H + 9)); random and perfect have none.
    CHECK ((kind IN ('random', 'perfect')) = (weights IS NULL)),
    CHECK (weights IS NULL OR length(weights) = 4 * (29 * hidden + 9))
);

-- One row per committed league round. A round commits atomically with its
-- snapshot, games and ratings, so a row here means the whole round is in.
CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL
);

-- Everything the learner needs to go on where the last round left it (its
-- network, its random generator, its schedule), which a resumed league
-- reads. One row at most: each round's commit replaces it, since no other
-- round's is ever read and a learner of 100 hidden units is 12 KB, a
-- sixth of what a round adds. It is a table of its own because SQLite
-- does not merge the pages of rows that shrink: a rounds column set to
-- NULL on older rounds would still leave a page per round. No row after a
-- round that trained nothing.
CREATE TABLE learner (
    round_id INTEGER PRIMARY KEY REFERENCES rounds (id),
    state    BLOB NOT NULL
);

-- Every pairing the league has played, one row per pair of agents: A
-- played B over every opening of `plies` moves, once as X and once as O,
-- and the row keeps A's record. Greedy agents are deterministic and the
-- random player's games are seeded from `seed` (0 in matches without
-- random, where SQLite stores it in no bytes), so the games themselves
-- need not be stored: ttt games export replays them, move for move. That
-- keeps a league of a thousand checkpoints (half a million pairings) in
-- tens of megabytes. A pair is played once (frozen agents would only
-- repeat the result), with A the newer agent.
CREATE TABLE matches (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    a        INTEGER NOT NULL REFERENCES agents (id),
    b        INTEGER NOT NULL REFERENCES agents (id),
    plies    INTEGER NOT NULL CHECK (plies BETWEEN 0 AND 2),
    seed     INTEGER NOT NULL,
    wins     INTEGER NOT NULL CHECK (wins >= 0),
    draws    INTEGER NOT NULL CHECK (draws >= 0),
    losses   INTEGER NOT NULL CHECK (losses >= 0),
    PRIMARY KEY (a, b),
    CHECK (a > b)
) WITHOUT ROWID;

-- An agent's matches where it is the older side: W/D/L in ttt show.
CREATE INDEX matches_by_b ON matches (b, a);

-- The rating history: every rated agent's Elo after every round, with its
-- 95% interval and the games behind it. A refit rewrites no old row.
CREATE TABLE ratings (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    agent_id INTEGER NOT NULL REFERENCES agents (id),
    elo      REAL NOT NULL,
    lo       REAL NOT NULL,
    hi       REAL NOT NULL,
    games    INTEGER NOT NULL,
    PRIMARY KEY (round_id, agent_id)
) WITHOUT ROWID;

-- An agent's history, and its latest rating (listings, best).
CREATE INDEX ratings_by_agent ON ratings (agent_id, round_id);
