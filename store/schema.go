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

// shapes describes each table, index, trigger and view of a schema by
// what it is rather than by how its statement was written: a table by its
// columns (name, type, NOT NULL, default, place in the key) and its
// foreign keys, the rest by their SQL with its runs of spaces made one.
// Two files whose tables were made by statements that differ only in
// their comments have the same shapes; a file that lacks a table, an
// index or a column that its schema version has does not. SQLite's own
// objects are left out, as in schemaObjects.
func shapes(ctx context.Context, q querier) (map[string]schemaObject, error) {
	objects, err := schemaObjects(ctx, q)
	if err != nil {
		return nil, err
	}
	for name, o := range objects {
		if o.kind != "table" {
			continue
		}
		var parts []string
		rows, err := q.QueryContext(ctx, `SELECT name || ' ' || type || iif("notnull", ' NOT NULL', '') || coalesce(' DEFAULT ' || dflt_value, '') || iif(pk > 0, ' KEY ' || pk, '')
			FROM pragma_table_xinfo(?) ORDER BY cid`, name)
		if err != nil {
			return nil, err
		}
		var part string
		if err := scanEach(ctx, rows, []any{&part}, func() error { parts = append(parts, part); return nil }); err != nil {
			return nil, err
		}
		rows, err = q.QueryContext(ctx, `SELECT 'FOREIGN KEY (' || "from" || ') REFERENCES ' || "table" || coalesce(' (' || "to" || ')', '')
			FROM pragma_foreign_key_list(?) ORDER BY id, seq`, name)
		if err != nil {
			return nil, err
		}
		if err := scanEach(ctx, rows, []any{&part}, func() error { parts = append(parts, part); return nil }); err != nil {
			return nil, err
		}
		o.sql = strings.Join(parts, ", ")
		objects[name] = o
	}
	return objects, nil
}

// shapeAt returns the shapes of schema version len(files), and the
// statement that makes each of its objects, as the migrations wrote it:
// the migrations applied to an empty database in memory.
func shapeAt(ctx context.Context, files []string) (shape map[string]schemaObject, made map[string]string, err error) {
	c, err := sqlite.NewConnector(":memory:")
	if err != nil {
		return nil, nil, err
	}
	ref := &DB{db: sql.OpenDB(c)}
	defer ref.db.Close()
	ref.db.SetMaxOpenConns(1) // one connection, one database in memory
	if err := ref.migrate(ctx, files, nil); err != nil {
		return nil, nil, err
	}
	if shape, err = shapes(ctx, ref.db); err != nil {
		return nil, nil, err
	}
	rows, err := ref.db.QueryContext(ctx, "SELECT name, sql FROM sqlite_schema WHERE sql IS NOT NULL")
	if err != nil {
		return nil, nil, err
	}
	made = map[string]string{}
	var name, statement string
	err = scanEach(ctx, rows, []any{&name, &statement}, func() error {
		made[name] = statement
		return nil
	})
	return shape, made, err
}

// shapeDifferences says, a phrase each, how the shapes got differ from
// those of want: what is missing, what is not as it should be, what is
// there that should not be.
func shapeDifferences(want, got map[string]schemaObject) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		switch w, g := want[name], got[name]; {
		case g.sql == "":
			out = append(out, fmt.Sprintf("the %s %s is missing", w.kind, name))
		case g != w:
			out = append(out, fmt.Sprintf("the %s %s is (%s) where it should be (%s)", g.kind, name, g.sql, w.sql))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) {
		if g := got[name]; want[name].sql == "" {
			out = append(out, fmt.Sprintf("a %s %s is there that should not be", g.kind, name))
		}
	}
	return out
}
