-- Schema 14: the processor time of a round. cpu_seconds is what the
-- league's process used, on every core together, from the commit of the
-- round before (or the start of its run) to this one's; cores is that
-- divided by the same wall time: how many cores the round kept busy.
-- NULL for the rounds before this schema, and where the process could
-- not read its processor time.
ALTER TABLE rounds ADD COLUMN cpu_seconds REAL;
ALTER TABLE rounds ADD COLUMN cores REAL;
