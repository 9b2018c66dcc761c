package store

import "database/sql"

// SQLOf is db's connection pool, for tests that must run statements the
// store never runs (a write through a reader).
func SQLOf(db *DB) *sql.DB { return db.db }

// CloseSQLite closes db's connections and keeps its league lock: the
// instant inside Close between the two.
func CloseSQLite(db *DB) error { return db.db.Close() }

// SetCreatingHook makes Open call hook when it is about to create a new
// league, until the test ends.
func SetCreatingHook(t interface{ Cleanup(func()) }, hook func()) {
	testHookCreating = hook
	t.Cleanup(func() { testHookCreating = func() {} })
}

// Unreadable is what a line of SQLite's integrity check says of a page
// the disk failed to give, or "".
var Unreadable = unreadable
