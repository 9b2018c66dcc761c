package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
)

// The -wal file beside a league is SQLite's journal of its newest commits,
// found by its name alone: a -wal copied there from another league (of
// the same page size, as every league's is) is one that SQLite reads
// as this file's, and folds into it when its last connection closes. No
// field of the -wal names its database, so the league keeps one of its
// own: migration 0017's journal row, with a random identity, which every
// write transaction of the store writes again (markJournal). A league's
// -wal with any commit in it holds that row's page, and a -wal that is
// not the league's shows, read through it, another identity, or none.

// journalSchema is the schema that keeps the journal row.
const journalSchema = 17

// upgrade17 is migration 0017's Go step: the league's identity.
func upgrade17(ctx context.Context, tx *sql.Tx) error {
	var id [16]byte
	rand.Read(id[:]) // never fails (crypto/rand)
	_, err := tx.ExecContext(ctx, "INSERT INTO journal (identity, writes) VALUES (?, 0)", hex.EncodeToString(id[:]))
	return err
}

// markJournal writes the league's journal row again, in write
// transaction tx: the page that holds it is then in the -wal with the
// transaction's other pages.
func markJournal(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "UPDATE journal SET writes = writes + 1")
	return err
}

// walHeader is the size of a -wal file's header: a file no larger holds
// no commit.
const walHeader = 32

// ownJournal checks that the -wal file beside the database at abs, if
// it holds a commit, is the league's own, before any connection that may
// fold it into the file (a writer's, or a reader's, whose last
// connection checkpoints) opens it: the identity that the file holds
// itself, read as immutable (without the -wal), must be the one read
// through the -wal by a read-only connection, which never writes the
// file. A file that holds no identity (an older league, another file)
// is left to the checks that follow, which say what it is.
func ownJournal(ctx context.Context, abs string) error {
	if info, err := os.Stat(abs + "-wal"); err != nil || info.Size() <= walHeader {
		return nil
	}
	own, err := journalIdentity(ctx, abs, "immutable=1")
	if err != nil || own == "" {
		return nil
	}
	seen, err := journalIdentity(ctx, abs, "mode=ro&_pragma=busy_timeout(10000)")
	if err == nil && seen == own {
		return nil
	}
	why := fmt.Sprintf("the league read through it is another (%s, where this file is %s)", seen, own)
	if err != nil {
		why = fmt.Sprintf("the file does not read with it (%v)", translate(err))
	}
	return fmt.Errorf("%w: the -wal file beside it is not its journal: %s; it is another database's, copied or left there: move it away (the file is left as it was)", ErrCorrupt, why)
}

// journalIdentity reads the league's identity in the file at abs through
// a connection of its own with the DSN parameters query; "" where the
// file has none.
func journalIdentity(ctx context.Context, abs, query string) (string, error) {
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: abs, RawQuery: query}).String())
	if err != nil {
		return "", err
	}
	defer db.Close()
	var has int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'journal'").Scan(&has); err != nil || has == 0 {
		return "", err
	}
	var id string
	err = db.QueryRowContext(ctx, "SELECT identity FROM journal").Scan(&id)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return id, err
}
