-- Schema 12: every league's rounds keep the range of their matches' newer
-- agents (a_first, a_last). Migration 0002 was edited after a release
-- had shipped it: a league made by that release was brought to schema 2
-- without the two columns, and every later schema kept it so, which the
-- league's writes and reads then failed on. The table is rebuilt as the
-- migrations make it, and the two columns are computed again from the
-- matches, for every league, since a statement cannot ask whether a
-- column is there: a round's matches are those stored with its id, and
-- the range is their smallest and largest a, as the league writes it.
CREATE TABLE rounds_12 (
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

INSERT INTO rounds_12 (id, kind, started_at, finished_at, snapshot_id, elo, lo, hi,
        train_games, train_seconds, eval_games, eval_seconds, fit_steps, fit_pending, a_first, a_last)
    SELECT r.id, r.kind, r.started_at, r.finished_at, r.snapshot_id, r.elo, r.lo, r.hi,
        r.train_games, r.train_seconds, r.eval_games, r.eval_seconds, r.fit_steps, r.fit_pending, m.a_first, m.a_last
    FROM rounds r
    LEFT JOIN (SELECT round_id, min(a) AS a_first, max(a) AS a_last FROM matches GROUP BY round_id) m ON m.round_id = r.id;
DROP TABLE rounds;
ALTER TABLE rounds_12 RENAME TO rounds;
