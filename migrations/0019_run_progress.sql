-- Schema 18: what a run of ttt league run is doing, for the dashboard,
-- which reads the league and nothing else: its --search (the searches
-- it rates the best with, as given, ab4,mcts200; NULL without), and its
-- progress as its heartbeat says it, written every few seconds while it
-- runs: progress is a JSON object of the work under way, each part with
-- its round, how far it has come and since when ({"training": {"round":
-- 7, "done": 10000, "total": 50000, "since": "..."}, "evaluating": ...,
-- "ladder": {"round": 6, "best": "checkpoint-16", ...}}), progress_at
-- when the run wrote it. Both are NULL before the run's first write, and
-- again once it ends.
ALTER TABLE runs ADD COLUMN search TEXT;
ALTER TABLE runs ADD COLUMN progress TEXT;
ALTER TABLE runs ADD COLUMN progress_at TEXT;
