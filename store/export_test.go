package store

import (
	"context"
	"database/sql"
	"fmt"
)

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

// Kinds are the kinds of agents, every one.
var Kinds = kinds

// Unreadable is what a line of SQLite's integrity check says of a page
// the disk failed to give, or "".
var Unreadable = unreadable

// MigrateTo brings the league file at path, of an earlier schema, to
// schema version and no further, as the ttt of that schema would have
// upgraded it: a league of every schema there has been, from one test
// file of the first.
func MigrateTo(ctx context.Context, path string, version int) error {
	files, err := migrationFiles()
	if err != nil {
		return err
	}
	if version < 1 || version > len(files) {
		return fmt.Errorf("schema %d: the migrations make 1 to %d", version, len(files))
	}
	conn, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer conn.Close()
	db := &DB{db: conn}
	return db.migrate(ctx, files[:version], func() Setup { panic("MigrateTo makes no league: " + path) })
}
