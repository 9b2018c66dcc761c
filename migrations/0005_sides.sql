-- Schema 5: a match against a built-in player keeps its record by side.
-- A checkpoint's results as first and as second player against random,
-- perfect or the tactician, the MCTS ladder and the solver say where it
-- stands against players that are the same in every league, on each side
-- of a game whose first player has the edge (in Connect Four the first
-- player wins with perfect play). Matches between networks keep their
-- total only, as before: they are nearly all of the table, and no figure
-- reads their sides.
--
-- A row keeps A's record in the games of the match (a, b) where A moved
-- first; its games as second player are the match's record less these.
-- The matches of a league before schema 5 have no row here.
CREATE TABLE sides (
    a      INTEGER NOT NULL,
    b      INTEGER NOT NULL,
    wins   INTEGER NOT NULL CHECK (wins >= 0),
    draws  INTEGER NOT NULL CHECK (draws >= 0),
    losses INTEGER NOT NULL CHECK (losses >= 0),
    PRIMARY KEY (a, b),
    FOREIGN KEY (a, b) REFERENCES matches (a, b)
) WITHOUT ROWID;
