-- Schema 17: the league's identity, in a row that every write transaction
-- of ttt writes again (writes counts them), so that the -wal file of a
-- league always holds this row's page as that league wrote it. A -wal
-- copied beside another league's file then shows, read through SQLite,
-- an identity other than the one the file holds itself, and is refused
-- before SQLite reads the file with it or folds it into the file. The
-- identity is random, set by the store's Go step of this schema.
CREATE TABLE journal (
    identity TEXT NOT NULL,
    writes   INTEGER NOT NULL
);
