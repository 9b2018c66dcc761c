package store

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"ttt/migrations"
)

// init checks that the file is a ttt database (or a new one), turns on
// WAL and applies the migrations this database lacks.
func (db *DB) init(ctx context.Context, setup func() Setup) error {
	// STEP 1: whose database is it, and which schema? A league's file
	// that SQLite finds damaged is not written to.
	version, files, err := db.schema(ctx)
	if err != nil {
		return err
	}
	if version > 0 {
		if err := db.refuseDamaged(ctx); err != nil {
			return err
		}
	}

	// STEP 2: WAL, so that readers never block the league's writer nor
	// wait for it. SQLite answers with the mode it is in, which stays
	// "delete" where WAL cannot work (some network file systems), and the
	// readers-while-writing guarantee rests on it: check.
	var mode string
	if err := db.db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return err
	}
	if mode != "wal" {
		return fmt.Errorf("cannot put the database in WAL mode (SQLite answered %q)", mode)
	}

	// STEP 3: the migrations it lacks.
	if version < len(files) {
		if err := db.migrate(ctx, files, setup); err != nil {
			return err
		}
	}
	return nil
}

// schema checks that the database is a ttt database (or a new, empty
// one) of a schema this ttt knows, and returns its schema version and
// the migration files. An empty database has no tables and application
// id 0.
func (db *DB) schema(ctx context.Context) (version int, files []string, err error) {
	if files, err = migrationFiles(); err != nil {
		return 0, nil, err
	}
	var appID, tables int
	err = db.db.QueryRowContext(ctx, `SELECT
		(SELECT application_id FROM pragma_application_id),
		(SELECT user_version FROM pragma_user_version),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&appID, &version, &tables)
	switch {
	case err != nil:
		return 0, nil, err
	case appID != applicationID && (appID != 0 || tables > 0):
		return 0, nil, fmt.Errorf("%w: an SQLite database of another program (left as it was)", ErrNotDatabase)
	case version > len(files):
		return 0, nil, fmt.Errorf("%w (schema %d, this ttt knows %d)", ErrNewerSchema, version, len(files))
	case version < 0 || (version == 0 && tables > 0):
		return 0, nil, fmt.Errorf("%w: schema version %d, which no ttt writes (left as it was)", ErrNotDatabase, version)
	}
	return version, files, nil
}

// migrationFiles returns the names of the migration files in order, and
// checks that they are numbered 0001, 0002, ... without gaps: the number
// is the schema version.
func migrationFiles() ([]string, error) {
	files, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	for i, name := range files {
		if want := fmt.Sprintf("%04d_", i+1); len(name) < len(want) || name[:len(want)] != want {
			return nil, fmt.Errorf("migration %s: want a name starting with %s", name, want)
		}
	}
	return files, nil
}

// migrate brings the database up to the last schema in files: each
// migration it lacks in order, each followed by its Go step (upgrades),
// and for a new database the built-in agents (none where setup is nil:
// a schema alone, to compare a file with), all in one transaction with
// the version it records, so that a database is always wholly at one
// version. Another ttt may open the same database at the same moment: the
// write lock serialises the two, and the one that comes second finds the
// work done.
//
// Foreign keys are off while it runs, on a connection of its own: SQLite
// cannot switch them inside a transaction, and a migration that rebuilds
// a table (create the new one, copy, drop the old one, rename) must not
// have the drop cascade or fail. foreign_key_check then proves, before
// the commit, that no row lost what it refers to.
func (db *DB) migrate(ctx context.Context, files []string, setup func() Setup) error {
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA foreign_keys = OFF"); err != nil {
		return err
	}
	// The connection goes back to the pool: foreign keys on again.
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = ON")
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var version int
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	// A league is what its version says before a migration is applied
	// to it, or is repaired to be: a migration edited after it shipped
	// left files stamped with its number but not its tables.
	if version > 0 {
		if err := repairClaimed(ctx, tx, files[:version]); err != nil {
			return err
		}
	}
	for v := version + 1; v <= len(files); v++ {
		script, err := fs.ReadFile(migrations.FS, files[v-1])
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(script)); err != nil {
			return fmt.Errorf("migration %s: %w", files[v-1], err)
		}
		if step := upgrades[v]; step != nil {
			if err := step(ctx, tx); err != nil {
				return fmt.Errorf("migration %s: %w", files[v-1], err)
			}
		}
	}
	// A new league's game and built-in players belong to it from its
	// creation; an older league's agents take the names this ttt allows.
	var renamed []Renamed
	switch {
	case version > 0:
		renamed, err = renameRefused(ctx, tx)
	case setup != nil:
		err = setUp(ctx, tx, setup())
	}
	if err != nil {
		return err
	}
	var broken int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&broken); err != nil {
		return err
	}
	if broken > 0 {
		return fmt.Errorf("the migration would leave %d rows referring to rows that are gone", broken)
	}
	if len(files) >= journalSchema {
		if err := markJournal(ctx, tx); err != nil {
			return err
		}
	}
	// And an upgraded league is what its new version says, or it stays
	// as it was.
	if version > 0 {
		want, _, err := shapeAt(ctx, files)
		if err != nil {
			return fmt.Errorf("schema %d: %w", len(files), err)
		}
		got, err := shapes(ctx, tx)
		if err != nil {
			return err
		}
		if diff := shapeDifferences(want, got, true); len(diff) > 0 {
			return fmt.Errorf("%w: upgraded to schema %d, %s; the file is left as it was", ErrCorrupt, len(files), strings.Join(diff, "; "))
		}
	}
	// PRAGMA takes no parameters; the version is an int.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(files))); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	db.renamed = renamed
	db.upgradedFrom = version
	return nil
}
