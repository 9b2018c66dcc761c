package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"modernc.org/sqlite"

	"ttt/agents/game"
)

// checkSchema hands found a line for each table, index, trigger or view
// of the file that the migrations do not make as it is (an index dropped,
// a trigger added, a table altered). What SQLite finds whole may still not
// be the schema that every command is written for. The
// migrations are applied to a new database in memory, as Open applies
// them to a file, and the two schemas compared object by object, their
// SQL with its runs of spaces made one.
func checkSchema(ctx context.Context, tx *sql.Tx, g game.Game, found func(string)) error {
	want, err := migratedSchema(ctx, g)
	if err != nil {
		return fmt.Errorf("the migrations' schema: %w", err)
	}
	got, err := schemaObjects(ctx, tx)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		switch made, has := want[name], got[name]; {
		case has.sql == "":
			found(fmt.Sprintf("SQLite: the %s %s is missing (the migrations make it)", made.kind, name))
		case has != made:
			found(fmt.Sprintf("SQLite: the %s %s is not as the migrations make it: %s", has.kind, name, has.sql))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if has := got[name]; want[name].sql == "" {
			found(fmt.Sprintf("SQLite: a %s %s on %s, which the migrations do not make: %s", has.kind, name, has.table, has.sql))
		}
	}
	return nil
}

// schemaObject is a table, index, trigger or view of a schema.
type schemaObject struct{ kind, table, sql string }

// schemaObjects reads the schema's objects, by name, but SQLite's own
// (its indexes of UNIQUE columns, its statistics), which SQLite makes as
// it needs them.
func schemaObjects(ctx context.Context, q querier) (map[string]schemaObject, error) {
	rows, err := q.QueryContext(ctx, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite^_%' ESCAPE '^'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	objects := map[string]schemaObject{}
	var o schemaObject
	var name string
	err = scanEach(ctx, rows, []any{&o.kind, &name, &o.table, &o.sql}, func() error {
		o.sql = strings.Join(strings.Fields(o.sql), " ")
		objects[name] = o
		return nil
	})
	return objects, err
}

// migratedSchema is the schema that the migrations make of a new league
// of game g: migrate on an empty database in memory.
func migratedSchema(ctx context.Context, g game.Game) (map[string]schemaObject, error) {
	files, err := migrationFiles()
	if err != nil {
		return nil, err
	}
	c, err := sqlite.NewConnector(":memory:")
	if err != nil {
		return nil, err
	}
	ref := &DB{db: sql.OpenDB(c)}
	defer ref.db.Close()
	ref.db.SetMaxOpenConns(1) // one connection, one database in memory
	if err := ref.migrate(ctx, files, func() Setup { return Setup{Game: g} }); err != nil {
		return nil, err
	}
	return schemaObjects(ctx, ref.db)
}
