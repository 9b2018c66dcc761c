-- Schema 6: a league's settings are stored under keys of their own, not
-- under the spelling of ttt league run's flags (games_per_round, not
-- games-per-round): renaming a flag then changes the command line only,
-- never the schema. The settings of one word keep their name.
UPDATE settings SET name = replace(name, '-', '_');
