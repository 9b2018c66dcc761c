-- Schema 16: the runs of ttt league run, which the dashboard shows with
-- the league's settings: when each started; its deadline, the start and
-- its --duration, after which it starts no round (NULL without one); its
-- --rounds limit (NULL without one); its workers; and when it ended,
-- written as it stops (NULL while it runs, and for a run that was
-- killed). The settings are the league's; these are the run's own, which
-- the league does not keep from one run to the next.
CREATE TABLE runs (
    id         INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,
    deadline   TEXT,
    rounds     INTEGER CHECK (rounds > 0),
    workers    INTEGER NOT NULL CHECK (workers > 0),
    ended_at   TEXT
);
