package commands

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// outputFile is a file that a command writes whole at its end (export,
// train -o, games export --pgn, ratings plot -o), through a temporary
// file in the same directory: a crash or a full disk never leaves half a
// file at the path, and a path that cannot be written is refused before
// any work is done. Its errors name the user's path, never the temporary
// file's.
type outputFile struct {
	path     string // as the user gave it
	db       string // the league database (--db), which it must never be
	tmp      *os.File
	replaces bool // a file is there already
}

// createOutput checks that path may take a command's output and opens
// its temporary file. It refuses the league database db and its files,
// any other SQLite database, a directory and anything that is not a
// regular file; it allows another existing file, which the success line
// then says is replaced (see replaced).
func createOutput(path, db string) (*outputFile, error) {
	exists, err := checkOutput(path, db)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ttt-*.tmp")
	if err != nil {
		return nil, cannotWrite(path, err)
	}
	return &outputFile{path: path, db: db, tmp: tmp, replaces: exists}, nil
}

// checkOutput reports whether a file is at path, and refuses a path that
// must not be replaced. The league database is compared by identity, so
// that another name of the same file (./league.db, a link) is refused
// too.
func checkOutput(path, db string) (exists bool, err error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, cannotWrite(path, err)
	case info.IsDir():
		return false, fmt.Errorf("cannot write %s: it is a directory", path)
	case !info.Mode().IsRegular():
		return false, fmt.Errorf("cannot write %s: it is not a regular file", path)
	}
	for _, name := range []string{db, db + "-wal", db + "-shm", db + "-journal"} {
		if dbInfo, err := os.Stat(name); err == nil && os.SameFile(info, dbInfo) {
			if name == db {
				return false, fmt.Errorf("cannot write %s: it is the league database itself (--db %s)", path, db)
			}
			return false, fmt.Errorf("cannot write %s: it is %s, a file of the league database", path, name)
		}
	}
	if isSQLite(path) {
		return false, fmt.Errorf("cannot write %s: it is an SQLite database, perhaps another league; choose another file", path)
	}
	return true, nil
}

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// isSQLite reports whether the file at path starts as an SQLite database.
func isSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, sqliteHeader)
}

// cannotWrite is the error of a failed write of the user's path: the
// reason alone, without the temporary file's name that the system's
// error carries.
func cannotWrite(path string, err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		err = pe.Err
	} else if le, ok := errors.AsType[*os.LinkError](err); ok {
		err = le.Err
	}
	if dir := filepath.Dir(path); errors.Is(err, fs.ErrNotExist) {
		if _, statErr := os.Stat(dir); errors.Is(statErr, fs.ErrNotExist) {
			return fmt.Errorf("cannot write %s: there is no directory %s", path, dir)
		}
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}

// check refuses the path again, as createOutput did: the league database
// may have been made there since (train --db new.db -o new.db).
func (o *outputFile) check() error {
	_, err := checkOutput(o.path, o.db)
	return err
}

// Write appends to the temporary file: output written as it is made.
func (o *outputFile) Write(p []byte) (int, error) {
	n, err := o.tmp.Write(p)
	if err != nil {
		err = cannotWrite(o.path, err)
	}
	return n, err
}

// commit appends data, then puts the file in place: synced first, so
// that the file is whole even after a power cut.
func (o *outputFile) commit(data []byte) error {
	_, err := o.tmp.Write(data)
	if err == nil {
		err = o.tmp.Chmod(0o644)
	}
	if err == nil {
		err = o.tmp.Sync()
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return cannotWrite(o.path, err)
	}
	if err := o.check(); err != nil {
		os.Remove(o.tmp.Name())
		return err
	}
	if err := os.Rename(o.tmp.Name(), o.path); err != nil {
		os.Remove(o.tmp.Name())
		return cannotWrite(o.path, err)
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
	if o.replaces {
		return ", replacing the file that was there"
	}
	return ""
}
