-- Schema 12 is another change's, made beside this one; until it lands
-- this file holds its place, so that the versions after it keep their
-- numbers. It changes nothing.
SELECT 1;
