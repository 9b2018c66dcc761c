-- Schema 13: the games against the ladder in a fraction of the bytes.
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
