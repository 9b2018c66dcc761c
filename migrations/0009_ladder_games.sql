-- Schema 9: the games against the slow built-in players keep their moves.
-- A match is stored as its seed, and ttt games export plays it again to
-- write its games: microseconds a move for a model, but milliseconds for
-- the MCTS players and the solver, whose searches are played again move
-- by move. In Connect Four a round's fourteen games against the solver
-- took 1.7 s to export that way; their moves are a few hundred bytes.
--
-- A row keeps every game of the match (a, b) in the order the match
-- played them: for each opening, the game where A moved first, then the
-- one where B did. Each game is a byte of its number of moves, then a
-- byte for each move, the opening's included. The matches of a league
-- before schema 9 have no row here and are played again.
CREATE TABLE ladder_games (
    a     INTEGER NOT NULL,
    b     INTEGER NOT NULL,
    moves BLOB NOT NULL,
    PRIMARY KEY (a, b),
    FOREIGN KEY (a, b) REFERENCES matches (a, b)
) WITHOUT ROWID;
