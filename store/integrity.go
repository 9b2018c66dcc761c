package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	sqlite3 "modernc.org/sqlite/lib"
)

// querier is what reads: a transaction, or a connection pool.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// integrity runs SQLite's check of the file's pages and indexes (pragma
// is integrity_check, or quick_check, which skips comparing the indexes
// with their tables) and returns what it reports, one line each, with the
// table or index of every tree it names: "table matches, page 38:
// btreeInitPage() returns error code 11" for its "Tree 6 page 38: ...".
// A sound file has none. A page that the disk failed to give makes the
// check report the pages below it as lost too: that is ErrIO, and nothing
// it said can be trusted. SQLite ends a check that met damage with
// SQLITE_CORRUPT after its lines, which say more.
func integrity(ctx context.Context, q querier, pragma string) ([]string, error) {
	rows, err := q.QueryContext(ctx, "PRAGMA "+pragma)
	if err != nil {
		return nil, err
	}
	var row string
	var lines []string
	err = scanEach(ctx, rows, []any{&row}, func() error {
		// A row may hold several lines, the first of them naming the
		// database: "*** in database main ***".
		for _, line := range strings.Split(row, "\n") {
			if unread := unreadable(line); unread != "" {
				return fmt.Errorf("%w: SQLite's integrity check met it (%s): run the command again", ErrIO, unread)
			}
			if line != "ok" && !strings.HasPrefix(line, "*** in database ") {
				lines = append(lines, line)
			}
		}
		return nil
	})
	rows.Close()
	if err != nil && (len(lines) == 0 || !errors.Is(translate(err), ErrCorrupt)) {
		return nil, err
	}
	return unusedPages(treeNames(ctx, q, lines)), nil
}

// tree matches a line of SQLite's integrity check that names a tree (a
// table or an index) by its root page.
var tree = regexp.MustCompile(`^Tree ([0-9]+) (page .*)$`)

// treeNames writes the trees that lines name by their root page as the
// table or index they are, where the schema can be read.
func treeNames(ctx context.Context, q querier, lines []string) []string {
	names := map[string]string{}
	if rows, err := q.QueryContext(ctx, "SELECT type, name, rootpage FROM sqlite_schema WHERE rootpage > 0"); err == nil {
		var kind, name, root string
		scanEach(ctx, rows, []any{&kind, &name, &root}, func() error {
			names[root] = kind + " " + name
			return nil
		})
		rows.Close()
	}
	for i, line := range lines {
		if m := tree.FindStringSubmatch(line); m != nil && names[m[1]] != "" {
			lines[i] = names[m[1]] + ", " + m[2]
		}
	}
	return lines
}

// unusedPage matches SQLite's line for a page that no tree and no list of
// free pages holds: what a tree that cannot be read leaves behind, a line
// for each of its pages.
var unusedPage = regexp.MustCompile(`^Page ([0-9]+):? (?:is )?never used$`)

// unusedPages makes the lines of unused pages one.
func unusedPages(lines []string) []string {
	var out, pages []string
	for _, line := range lines {
		if m := unusedPage.FindStringSubmatch(line); m != nil {
			pages = append(pages, m[1])
		} else {
			out = append(out, line)
		}
	}
	const named = 10 // a tree of a large file loses thousands
	switch n := len(pages); {
	case n == 1:
		out = append(out, "page "+pages[0]+" is never used")
	case n > named:
		pages = append(pages[:named], fmt.Sprintf("and %d more", n-named))
		fallthrough
	case n > 1:
		out = append(out, "pages "+strings.Join(pages, ", ")+" are never used")
	}
	return out
}

// unreadPage matches what SQLite's integrity check says of a page it
// could not read: with the error, for a page of a tree; without, for an
// overflow or free page, whose number it has checked before (so that only
// the disk, or memory, can fail it).
var unreadPage = regexp.MustCompile(`page [0-9]+: unable to get the page\. error code=([0-9]+)|failed to get page [0-9]+`)

// unreadable returns what an integrity check line says of a page that the
// disk failed to give, or "". SQLite reports EIO on a read as an I/O error
// (SQLITE_IOERR_CORRUPTFS, 8458) inside the check, which its callers see
// as SQLITE_CORRUPT.
func unreadable(line string) string {
	m := unreadPage.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	if code, err := strconv.Atoi(m[1]); m[1] != "" && (err != nil || code&0xff != sqlite3.SQLITE_IOERR) {
		return ""
	}
	return m[0]
}

// refuseDamaged is ErrCorrupt, with what SQLite reports, when a quick
// check of the file finds it damaged. A writer writes nothing into such
// a file: committing on top of a damaged page would bury the damage. The
// check reads every page once, which a writer can afford as it opens the
// file (BENCHMARKS.md, "SQLite's quick check as a writer opens the
// file").
func (db *DB) refuseDamaged(ctx context.Context) error {
	const shown = 3 // the lines the message gives; ttt check gives all
	lines, err := integrity(ctx, db.db, "quick_check(100)")
	switch {
	case err != nil:
		return err
	case len(lines) == 0:
		return nil
	case len(lines) > shown:
		lines = append(lines[:shown], fmt.Sprintf("and %d more", len(lines)-shown))
	}
	return fmt.Errorf("%w: SQLite reports %s; nothing is written into a damaged file", ErrCorrupt, strings.Join(lines, "; "))
}
