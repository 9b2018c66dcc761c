package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Explained is err's message, and where it says that the league file is
// damaged, where to look: ttt check names everything that is.
func Explained(err error) string {
	msg := err.Error()
	if errors.Is(err, ErrCorrupt) && !strings.Contains(msg, "ttt check") {
		msg += " (ttt check says what is damaged)"
	}
	return msg
}

// translate turns SQLite's errors into the sentinel errors above, which
// say what happened in the user's terms, and keeps the driver's error
// after them, in the message and in the chain (errors.As finds the
// *sqlite.Error and its extended code); a stored value that does not fit
// what it is read into is ErrCorrupt (badValue); other errors pass
// unchanged. It is the one place that knows the driver's error codes.
func translate(err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return badValue(err)
	}
	as := func(kind error, what string) error {
		return fmt.Errorf("%w%s (SQLite: %w)", kind, what, err)
	}
	switch e.Code() {
	case sqlite3.SQLITE_IOERR_READ, sqlite3.SQLITE_IOERR_SHORT_READ, sqlite3.SQLITE_IOERR_CORRUPTFS:
		return as(ErrIO, "")
	}
	switch e.Code() & 0xff { // the primary code; extended codes add detail above it
	case sqlite3.SQLITE_IOERR:
		return as(ErrWrite, "")
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return as(ErrBusy, "")
	case sqlite3.SQLITE_READONLY:
		return as(ErrReadOnly, ": the file or its directory cannot be written")
	case sqlite3.SQLITE_FULL:
		return as(ErrFull, "")
	case sqlite3.SQLITE_NOTADB:
		// examine let it by: it starts as an SQLite file does.
		return as(ErrCorrupt, ": its header is not one SQLite can read")
	case sqlite3.SQLITE_CORRUPT:
		return as(ErrCorrupt, "")
	case sqlite3.SQLITE_CANTOPEN:
		return as(ErrCannotOpen, "")
	case sqlite3.SQLITE_CONSTRAINT, sqlite3.SQLITE_MISMATCH:
		// The schema's rules hold for every row this ttt writes: a row
		// that breaks one was written by something else.
		return as(ErrCorrupt, ": a row breaks a rule of its schema")
	case sqlite3.SQLITE_ERROR:
		// A statement of this ttt that names what the file lacks: the
		// file's schema is not the one its version promises.
		if missing.MatchString(e.Error()) {
			return as(ErrCorrupt, ": its tables are not those the migrations make")
		}
	}
	return err
}

// missing matches SQLite's errors for a statement that names a table,
// a column or an index that the file does not have.
var missing = regexp.MustCompile(`no such (table|column|index)|has no column named`)

// scanError matches database/sql's error for a stored value that does not
// fit what it is read into: text where a number is due, a NULL, a number
// out of range. SQLite lets a column hold a value of any kind.
var scanError = regexp.MustCompile(`sql: Scan error on column index [0-9]+, name "([^"]*)": (?:converting driver\.Value type \S+ \((.*)\) to a (\S+): .*|converting NULL to (\S+) is unsupported|(.*))$`)

// badValue is err, unless it is a stored value that does not fit what it
// is read into (scanError): ErrCorrupt then, in the user's words.
func badValue(err error) error {
	m := scanError.FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		return err
	}
	kinds := map[string]string{"int": "a whole number", "int64": "a whole number", "uint64": "a whole number", "float64": "a number", "string": "text"}
	switch {
	case m[2] != "":
		return fmt.Errorf("%w: its column %s holds %s, not %s", ErrCorrupt, m[1], m[2], cmp.Or(kinds[m[3]], m[3]))
	case m[4] != "":
		return fmt.Errorf("%w: its column %s holds NULL, not %s", ErrCorrupt, m[1], cmp.Or(kinds[m[4]], m[4]))
	}
	return fmt.Errorf("%w: its column %s holds a value it cannot: %s", ErrCorrupt, m[1], m[5])
}

// secondLook is err, unless err is SQLite's own report of damage
// (ErrCorrupt, from translate) and the file turns out healthy when read
// again (PRAGMA quick_check): SQLite reports a page that a read failed to
// bring (EIO) as damaged, and a healthy file must not be called so. Then
// it is ErrIO, as it is when the check meets the disk's error in its turn.
//
// A reader's I/O error (reading says so) is ErrIO, whichever code SQLite
// gave it: SQLite's plain SQLITE_IOERR does not tell a read from a write.
func (db *DB) secondLook(ctx context.Context, err error, reading bool) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return err // not SQLite's word: damage that ttt found itself stays so
	}
	if reading && errors.Is(err, ErrWrite) {
		return fmt.Errorf("%w (SQLite: %w)", ErrIO, e)
	}
	// Only damage to pages may be a read that failed: a schema or a row
	// that breaks its rules is what the file holds.
	if code := e.Code() & 0xff; !errors.Is(err, ErrCorrupt) || code != sqlite3.SQLITE_CORRUPT && code != sqlite3.SQLITE_NOTADB || ctx.Err() != nil {
		return err
	}
	// On connections of their own: SQLite keeps a connection whose read
	// failed in an error state until it is reset. Up to three times:
	// damage is there at every read, a failing disk now and then.
	for range 3 {
		var result string
		again := db.connect(db.query, db.keeps)
		qerr := again.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&result)
		again.Close()
		unread := unreadable(result)
		switch terr := translate(qerr); {
		case errors.Is(terr, ErrIO), errors.Is(terr, ErrWrite):
			return fmt.Errorf("%w (SQLite, reading again: %w)", ErrIO, qerr)
		case errors.Is(qerr, ErrReplaced), errors.Is(qerr, ErrMoved):
			return qerr // no longer the file that err is of (connector)
		case qerr == nil && result == "ok":
			// What SQLite said first was its guess at a page it could
			// not read, which the file's check disproves: not kept.
			return fmt.Errorf("%w; read again, the file checks healthy: run the command again", ErrIO)
		case qerr == nil && unread != "":
			return fmt.Errorf("%w; read again, %s: run the command again", ErrIO, unread)
		case qerr == nil && !strings.Contains(result, "unable to get the page"):
			return err // damaged
		}
		// The check met what SQLite takes for damage where a read may
		// have failed (its error, a page it could not get): look again.
	}
	return err
}
