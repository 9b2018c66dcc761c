package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
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
	own, page, err := journalIdentity(ctx, abs, "immutable=1")
	if err != nil || own == "" {
		return nil
	}
	// The -wal's commits must each have written the journal's page, where
	// the file keeps it: a -wal of another league that did not write the
	// page here (its journal elsewhere in its own file) would otherwise
	// read this file's identity through it, from the file.
	commits, wrote, err := walWrites(abs+"-wal", page)
	if err != nil || commits == 0 {
		return err
	}
	var why string
	if wrote < commits {
		why = fmt.Sprintf("%d of its %d commits did not write the page of this league's journal (page %d)", commits-wrote, commits, page)
	} else {
		seen, _, err := journalIdentity(ctx, abs, "mode=ro&_pragma=busy_timeout(10000)")
		switch {
		case err != nil:
			why = fmt.Sprintf("the file does not read with it (%v)", translate(err))
		case seen != own:
			why = fmt.Sprintf("the league read through it is another (%s, where this file is %s)", seen, own)
		default:
			return nil
		}
	}
	return fmt.Errorf("%w: the -wal file beside it is not its journal: %s; it is another database's, copied or left there: move it away (the file is left as it was)", ErrCorrupt, why)
}

// journalIdentity reads the league's identity in the file at abs, and
// the page that holds it, through a connection of its own with the DSN
// parameters query; "" where the file has none.
func journalIdentity(ctx context.Context, abs, query string) (id string, page int64, err error) {
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: abs, RawQuery: query}).String())
	if err != nil {
		return "", 0, err
	}
	defer db.Close()
	err = db.QueryRowContext(ctx, "SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'journal'").Scan(&page)
	if err == sql.ErrNoRows {
		return "", 0, nil
	}
	if err == nil {
		err = db.QueryRowContext(ctx, "SELECT identity FROM journal").Scan(&id)
	}
	if err == sql.ErrNoRows {
		return "", 0, nil
	}
	return id, page, err
}

// walWrites reads the -wal file at path as SQLite does, frame by frame
// (the frames of its header's salts; those after a reset of the log are
// of an earlier one and are not read), and returns the number of its
// commits and of those that wrote page. A frame's header is its page's
// number, the file's size in pages after it where it ends a commit (0
// otherwise), the two salts and two checksums, big-endian; its page
// follows (https://sqlite.org/fileformat.html#walformat).
func walWrites(path string, page int64) (commits, wrote int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var header [walHeader]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return 0, 0, nil // no header: SQLite reads nothing from it either
	}
	size := int(binary.BigEndian.Uint32(header[8:]))
	if size < 512 || size > 65536 || size&(size-1) != 0 {
		return 0, 0, nil
	}
	salts := header[16:24]
	frame := make([]byte, 24+size)
	written := false
	for {
		if _, err := io.ReadFull(r, frame); err != nil {
			return commits, wrote, nil // the log ends
		}
		if !bytes.Equal(frame[8:16], salts) {
			return commits, wrote, nil
		}
		if int64(binary.BigEndian.Uint32(frame)) == page {
			written = true
		}
		if binary.BigEndian.Uint32(frame[4:]) != 0 {
			commits++
			if written {
				wrote++
			}
			written = false
		}
	}
}
