-- Schema 4: `best` ranks networks of the same class and share by the
-- lower end of their 95% interval, not by their rating. A checkpoint that
-- has played a dozen games has a wide interval: its rating alone could put
-- it first by luck, and the best would move among near-identical networks
-- from round to round. The lower end is the rating the league is 97.5%
-- sure it has at least: a network leads only once enough games say so.
DROP INDEX standings_best;
CREATE INDEX standings_best ON standings (class, share, lo, agent_id) WHERE class IS NOT NULL;
