-- Schema 18: the extra games against the ladder that a network owes.
-- A league's best plays its extra games after the round that made it
-- best is committed, in a transaction of their own, so that the round's
-- line is not kept waiting for them: a run killed in between left a
-- ladder rating that every reader showed as final, though the next run
-- would add those games. The round's commit now writes a row here for
-- the best, when its ladder interval is wider than the run allows (or
-- it has not met every built-in player), and the transaction that stores
-- its extra games deletes it: while a row is here, the agent's ladder
-- rating is provisional, and every reader says so. round_id is the
-- round after which the games are owed.
CREATE TABLE ladder_owed (
    agent_id INTEGER PRIMARY KEY REFERENCES agents (id),
    round_id INTEGER NOT NULL REFERENCES rounds (id)
);
