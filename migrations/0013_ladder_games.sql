-- Schema 13: the games against the ladder in a fraction of the bytes,
-- and the extra games that make a ladder rating (below).
-- Schema 9 kept them a byte a move with a byte of length a game: about
-- 1,130 bytes for the 144 games of a tic-tac-toe match, over SQLite's
-- limit for a row kept in its page, so that each row took a page of
-- overflow of its own: 9 KB a checkpoint. A row now keeps the match's
-- moves after their openings, each as its place among the legal moves,
-- the whole match as one number in mixed radix (store.EncodeGames):
-- about 190 bytes, in the table's own pages. games_crc is their CRC-32C,
-- as every stored blob has one: a number of that kind reads as some
-- games whatever its bytes, so damage is found by the checksum.
--
-- SQL cannot re-encode the games: the upgrade's Go step reads each row of
-- ladder_games_9 into this table, then drops it.
ALTER TABLE ladder_games RENAME TO ladder_games_9;
CREATE TABLE ladder_games (
    a         INTEGER NOT NULL,
    b         INTEGER NOT NULL,
    games     BLOB NOT NULL,
    games_crc INTEGER NOT NULL,
    PRIMARY KEY (a, b),
    FOREIGN KEY (a, b) REFERENCES matches (a, b)
) WITHOUT ROWID;

-- The extra games against the ladder: a network that becomes the best
-- (or that ttt import or ttt roundrobin brings in) plays more matches
-- against the built-in players that draw on a generator, until its
-- rating from its games against the built-in players alone (its ladder
-- rating) is known within ±30 Elo. Each row is one such match, as a
-- match of the league is: every opening of plies moves in both colours,
-- seeded by seed, its record (a's) and its games as in ladder_games. n
-- numbers the extra matches of a pair from 1. They count in the ladder
-- rating alone, not in the league's fit, and round_id is the round after
-- which they were played (NULL in a league that has played none).
CREATE TABLE ladder_extra (
    a         INTEGER NOT NULL REFERENCES agents (id),
    b         INTEGER NOT NULL REFERENCES agents (id),
    n         INTEGER NOT NULL CHECK (n >= 1),
    round_id  INTEGER REFERENCES rounds (id),
    plies     INTEGER NOT NULL,
    seed      INTEGER NOT NULL,
    wins      INTEGER NOT NULL CHECK (wins >= 0),
    draws     INTEGER NOT NULL CHECK (draws >= 0),
    losses    INTEGER NOT NULL CHECK (losses >= 0),
    games     BLOB NOT NULL,
    games_crc INTEGER NOT NULL,
    PRIMARY KEY (a, b, n)
) WITHOUT ROWID;
