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

// shape is a table, index, trigger or view of a schema by what it is
// rather than by how its statement was written: a table by its columns
// (name, type, NOT NULL, default, place in the key), in order, then its
// foreign keys; anything else by its SQL with its runs of spaces made
// one. Two files whose tables were made by statements that differ only in
// their comments have the same shapes; a file that lacks a table, an
// index or a column that its schema version has does not.
type shape struct {
	kind  string
	parts []string
}

// shapes reads the shapes of a schema's objects, by name, but SQLite's
// own, as schemaObjects does.
func shapes(ctx context.Context, q querier) (map[string]shape, error) {
	objects, err := schemaObjects(ctx, q)
	if err != nil {
		return nil, err
	}
	out := map[string]shape{}
	for name, o := range objects {
		if o.kind != "table" {
			out[name] = shape{kind: o.kind, parts: []string{o.sql}}
			continue
		}
		sh := shape{kind: o.kind}
		for _, query := range []string{
			`SELECT name || ' ' || type || iif("notnull", ' NOT NULL', '') || coalesce(' DEFAULT ' || dflt_value, '') || iif(pk > 0, ' KEY ' || pk, '')
				FROM pragma_table_xinfo(?) ORDER BY cid`,
			`SELECT 'FOREIGN KEY (' || "from" || ') REFERENCES ' || "table" || coalesce(' (' || "to" || ')', '')
				FROM pragma_foreign_key_list(?) ORDER BY id, seq`,
		} {
			rows, err := q.QueryContext(ctx, query, name)
			if err != nil {
				return nil, err
			}
			var part string
			if err := scanEach(ctx, rows, []any{&part}, func() error { sh.parts = append(sh.parts, part); return nil }); err != nil {
				return nil, err
			}
		}
		out[name] = sh
	}
	return out, nil
}

// shapeAt returns the shapes of schema version len(files), and the
// statement that makes each of its objects, as the migrations wrote it:
// the migrations applied to an empty database in memory.
func shapeAt(ctx context.Context, files []string) (want map[string]shape, made map[string]string, err error) {
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
	if want, err = shapes(ctx, ref.db); err != nil {
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
	return want, made, err
}

// shapeDifferences says, a phrase each, how the shapes got differ from
// those of want. Exact, they must be the same, and nothing else be there.
// Not exact, got must have everything of want, a table's columns in any
// order, and may have more: what a file must hold for the migrations
// after its version to apply, which rebuild some tables by naming their
// columns (an older ttt's agents, with its method last or a column of its
// own, are then rebuilt as the migrations make them), and what the exact
// check after them finds if it stays.
func shapeDifferences(want, got map[string]shape, exact bool) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(want)) {
		w, g := want[name], got[name]
		switch {
		case g.kind == "":
			out = append(out, fmt.Sprintf("the %s %s is missing", w.kind, name))
		case exact && !slices.Equal(g.parts, w.parts):
			out = append(out, fmt.Sprintf("the %s %s is (%s) where it should be (%s)", g.kind, name, strings.Join(g.parts, ", "), strings.Join(w.parts, ", ")))
		case !exact:
			var lacks []string
			for _, p := range w.parts {
				if !slices.Contains(g.parts, p) {
					lacks = append(lacks, p)
				}
			}
			if len(lacks) > 0 {
				out = append(out, fmt.Sprintf("the %s %s lacks %s", w.kind, name, strings.Join(lacks, ", ")))
			}
		}
	}
	if exact {
		for _, name := range slices.Sorted(maps.Keys(got)) {
			if g := got[name]; want[name].kind == "" {
				out = append(out, fmt.Sprintf("a %s %s is there that should not be", g.kind, name))
			}
		}
	}
	return out
}
