package store

import "database/sql"

// SQLOf is db's connection pool, for tests that must run statements the
// store never runs (a write through a reader).
func SQLOf(db *DB) *sql.DB { return db.db }

// CloseSQLite closes db's connections and keeps its league lock: the
// instant inside Close between the two.
func CloseSQLite(db *DB) error { return db.db.Close() }
