package store

import "database/sql"

// SQLOf is db's connection pool, for tests that must run statements the
// store never runs (a write through a reader).
func SQLOf(db *DB) *sql.DB { return db.db }
