package commands

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// outputFile is a file that a command writes whole at its end (export,
// train -o, games export --pgn, ratings plot -o), through a temporary
// file in the same directory: a crash or a full disk never leaves half a
// file at the path, and a path that cannot be written is refused before
// any work is done. Its errors name the user's path, never the temporary
// file's.
type outputFile struct {
	path     string // as the user gave it
	file     string // the file path names in the run (local)
	target   string // the file written: file, or the file a symbolic link at file names
	db       string // the league database (--db or TTT_DB) as the user named it, which it must never be
	dbFile   string // and its file
	tmp      *os.File
	replaces fs.FileInfo // the file there already, nil for none
	// ctx is the command's: a stop before commit renames the file into
	// place leaves no file, and after it the whole file.
	ctx context.Context
}

// writeOutput writes data, whole, to the command's output file path (see
// createOutput) and returns what the success line adds when it replaced
// a file (see replaced).
func (j *job) writeOutput(path string, data []byte) (replaced string, err error) {
	file, err := j.createOutput(path)
	if err != nil {
		return "", err
	}
	defer file.abort()
	if err := file.commit(data); err != nil {
		return "", err
	}
	return file.replaced(), nil
}

// createOutput checks that path may take a command's output and opens
// its temporary file. It refuses the league database db and its files,
// any other SQLite database or journal, a directory and anything that is
// not a regular file; it allows another existing file, which the success
// line then says is replaced (see replaced). Through a symbolic link, the
// file the link names is written, and checked.
func (j *job) createOutput(path string) (*outputFile, error) {
	o := &outputFile{path: path, file: j.path(path), db: j.db, dbFile: j.path(j.db), ctx: j.ctx}
	target, exists, err := o.checkOutput()
	if err != nil {
		return nil, err
	}
	o.target = target
	if exists {
		if o.replaces, err = os.Stat(target); err != nil {
			return nil, o.cannotWrite(err)
		}
	}
	if o.tmp, err = os.CreateTemp(filepath.Dir(target), ".ttt-*.tmp"); err != nil {
		return nil, o.cannotWrite(err)
	}
	return o, nil
}

// checkOutput returns the file that writing path replaces or makes, and
// whether it is there, and refuses a path that must not be written.
//
// A symbolic link stays a link: the file it names is the one replaced,
// and the one checked. Renaming over the link itself would turn it into
// a regular file (-o /dev/stdout, as root, replaced /dev/stdout).
//
// The league database is compared by identity, so that another name of
// the same file (./league.db, a link) is refused too; and by name where
// neither is there yet, as with train --db new.db -o new.db before the
// league is made.
func (o *outputFile) checkOutput() (target string, exists bool, err error) {
	refuse := func(format string, a ...any) error {
		return fmt.Errorf("cannot write %s: %s", o.path, fmt.Sprintf(format, a...))
	}
	target = o.file
	info, err := os.Lstat(o.file)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if info, err = os.Stat(o.file); errors.Is(err, fs.ErrNotExist) {
			to, _ := os.Readlink(o.file)
			return "", false, refuse("it is a symbolic link to %s, which does not exist", to)
		}
		if err == nil && info.Mode().IsRegular() {
			target, err = filepath.EvalSymlinks(o.file)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		info = nil
	case err != nil:
		return "", false, o.cannotWrite(err)
	case info.IsDir():
		return "", false, refuse("it is a directory")
	case !info.Mode().IsRegular():
		return "", false, refuse("it is not a regular file")
	}

	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		dbInfo, err := os.Stat(o.dbFile + suffix)
		same := err == nil && info != nil && os.SameFile(info, dbInfo)
		if errors.Is(err, fs.ErrNotExist) && info == nil {
			same = resolved(target) == resolved(o.dbFile+suffix)
		}
		switch {
		case same && suffix == "":
			return "", false, refuse("it is the league database itself (--db %s)", o.db)
		case same:
			return "", false, refuse("it is %s, a file of the league database", o.db+suffix)
		}
	}
	// SQLite keeps a database X's journal at X-wal (and its index at
	// X-shm) or X-journal, there or not: an output there would replace
	// the transactions the journal holds that X does not yet, or be taken
	// for a journal when X is next opened.
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if x, ok := strings.CutSuffix(target, suffix); ok && sqliteKind(x) == sqliteDatabase {
			if target == o.file { // not through a link: the database by the user's name
				x = strings.TrimSuffix(o.path, suffix)
			}
			return "", false, refuse("it is the name of a journal of %s, an SQLite database; choose another file", x)
		}
	}
	if info == nil {
		return target, false, nil
	}
	switch sqliteKind(target) {
	case sqliteDatabase:
		return "", false, refuse("it is an SQLite database, perhaps another league; choose another file")
	case sqliteJournal:
		return "", false, refuse("it is an SQLite journal, perhaps another league's; choose another file")
	}
	return target, true, nil
}

// resolved is path made absolute, through the symbolic links of its
// directory: two names of one file that is not there yet compare equal.
func resolved(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// What an SQLite file is, by its first bytes (sqliteKind).
const (
	notSQLite = iota
	sqliteDatabase
	sqliteJournal // a write-ahead log or a rollback journal
)

var (
	// sqliteHeader starts every SQLite database file.
	sqliteHeader = []byte("SQLite format 3\x00")
	// journalMagic starts a rollback journal's header.
	journalMagic = []byte{0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7}
)

// walMagic, big-endian, starts a write-ahead log; its last bit, which
// says the byte order of the log's checksums, may be 0 or 1.
const walMagic = 0x377f0682

// sqliteKind says whether the file at path starts as an SQLite database
// or journal. Only a regular file is opened: opening a FIFO would block.
func sqliteKind(path string) int {
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return notSQLite
	}
	f, err := os.Open(path)
	if err != nil {
		return notSQLite
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.Equal(head, sqliteHeader):
		return sqliteDatabase
	case n >= 4 && binary.BigEndian.Uint32(head)&^1 == walMagic, bytes.HasPrefix(head, journalMagic):
		return sqliteJournal
	}
	return notSQLite
}

// cannotWrite is the error of a failed write of the user's path: the
// reason alone, without the temporary file's name that the system's
// error carries.
func (o *outputFile) cannotWrite(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		err = pe.Err
	} else if le, ok := errors.AsType[*os.LinkError](err); ok {
		err = le.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		if _, statErr := os.Stat(filepath.Dir(o.file)); errors.Is(statErr, fs.ErrNotExist) {
			return fmt.Errorf("cannot write %s: there is no directory %s", o.path, filepath.Dir(o.path))
		}
	}
	return fmt.Errorf("cannot write %s: %w", o.path, err)
}

// check refuses the path again, as createOutput did: another file may
// have been put there since.
func (o *outputFile) check() error {
	_, _, err := o.checkOutput()
	return err
}

// Write appends to the temporary file: output written as it is made.
func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.tmp.Write(p)
	if err != nil {
		err = o.cannotWrite(err)
	}
	return n, err
}

// commit appends data, then puts the file in place: synced first, so
// that the file is whole even after a power cut. The file takes the mode
// and owner of the file it replaces (as far as this user may give them),
// or, new, the mode of any program's new file: 0666 less the umask.
func (o *outputFile) commit(data []byte) error {
	_, err := o.tmp.Write(data)
	mode := 0o666 &^ umask()
	if o.replaces != nil {
		mode = o.replaces.Mode().Perm()
		sameOwner(o.tmp, o.replaces)
	}
	if err == nil {
		err = o.tmp.Chmod(mode)
	}
	if err == nil {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return o.cannotWrite(err)
	}
	if err := o.check(); err != nil {
		os.Remove(o.tmp.Name())
		return err
	}
	if err := o.ctx.Err(); err != nil {
		os.Remove(o.tmp.Name())
		return err
	}
	if err := os.Rename(o.tmp.Name(), o.target); err != nil {
		os.Remove(o.tmp.Name())
		return o.cannotWrite(err)
	}
	return nil
}

// abort removes the temporary file; after commit it does nothing.
func (o *outputFile) abort() {
	if o.tmp.Close() == nil {
		os.Remove(o.tmp.Name())
	}
}

// replaced is what a success line adds when the file replaced another.
func (o *outputFile) replaced() string {
	if o.replaces != nil {
		return ", replacing the file that was there"
	}
	return ""
}
