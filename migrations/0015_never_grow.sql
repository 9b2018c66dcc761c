-- Schema 15: an n-tuple network may grow during a league (the settings
-- grow_at and grow_length). A league of this learner started before this
-- schema stored no grow_at, and a resumed league takes the setting it did
-- not store from the defaults, which now grow Connect Four's network
-- after ten million games. It goes on as it was started: its network
-- never grows.
INSERT OR IGNORE INTO settings (name, value)
SELECT 'grow_at', '0'
WHERE EXISTS (SELECT 1 FROM settings WHERE name = 'tuple_length');
