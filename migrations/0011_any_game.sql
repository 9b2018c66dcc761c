-- Schema 11: a league plays any game this ttt plays. The table of the
-- league's game named the two games in a CHECK, so that a third game
-- would have needed a schema of its own; the store now reads the name
-- back against the games the program has (and refuses a file of a game
-- it does not know, naming it). SQLite cannot change a CHECK, so the
-- one-row table is rebuilt.
CREATE TABLE league_11 (
    game TEXT NOT NULL CHECK (game <> '')
);
INSERT INTO league_11 (game) SELECT game FROM league;
DROP TABLE league;
ALTER TABLE league_11 RENAME TO league;
