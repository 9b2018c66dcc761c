package store

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
	"slices"
	"strconv"
	"strings"
)

// testHookCreating runs when Open is about to create a new league; tests
// make another ttt create it first.
var testHookCreating = func() {}

// create makes a new league at abs, where there is no file: it builds
// the league in a file of its own beside abs, and gives it the name abs
// once its schema is committed and folded into it, unless another ttt has
// made a league there meanwhile (then that league is the one). A failed
// creation removes that file alone, never anything at abs: not another
// ttt's league, nor the user's symbolic link that names abs.
func create(ctx context.Context, abs, path string, setup func() Setup) error {
	tmp := fmt.Sprintf("%s.%d.new", abs, os.Getpid())
	removeTmp := func() {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(tmp + suffix)
		}
	}
	removeTmp() // a creation of this pid that was killed
	defer removeTmp()
	db := open(tmp, path, dsnQuery, false)
	err := db.init(ctx, setup)
	// The last connection folds the -wal into the file and removes it.
	if cerr := db.db.Close(); err == nil {
		err = cerr
	}
	if _, walErr := os.Stat(tmp + "-wal"); err == nil && walErr == nil {
		err = fmt.Errorf("%w: the new league's -wal could not be folded into it", ErrWrite)
	}
	if err != nil {
		return db.secondLook(ctx, translate(err), false)
	}
	if err := placeNew(tmp, abs); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// removeAbandoned removes what creations of a league at abs left when
// their process was killed (SIGKILL, a power cut) before they could
// clean up: the file of the league they were making, abs.PID.new, and
// its -wal, -shm and -journal, where process PID is gone. A creation that
// is still under way keeps its files.
func removeAbandoned(abs string) {
	dir, base := filepath.Split(abs)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ours := strings.CutPrefix(e.Name(), base+".")
		pid, suffix, made := strings.Cut(rest, ".new")
		n, err := strconv.Atoi(pid)
		if ours && made && err == nil && n > 0 && slices.Contains([]string{"", "-wal", "-shm", "-journal"}, suffix) && processGone(n) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// linkNew gives the file at tmp the name abs, unless abs names a file
// already: a hard link, which fails on an existing name, and the removal
// of tmp.
func linkNew(tmp, abs string) error {
	if err := os.Link(tmp, abs); err != nil {
		return err
	}
	return os.Remove(tmp)
}

// newFile records the files that opening a new database is about to make,
// so that a failed creation can take them away again.
type newFile struct {
	path    string
	existed bool // the file was there, empty; SQLite fills it
}

// undo removes what a failed creation left: the database file if it did
// not exist before (an empty one stays empty), and SQLite's -wal and -shm
// files, which nobody else can be using, since there was no league yet.
func (f *newFile) undo() {
	if f.existed {
		os.Truncate(f.path, 0)
	} else {
		os.Remove(f.path)
	}
	os.Remove(f.path + "-wal")
	os.Remove(f.path + "-shm")
}

// sqliteHeaderSize is the size of the header at the start of every
// SQLite database file: a shorter file that starts like one is a
// database cut short.
const sqliteHeaderSize = 100

// examine checks the file at path before SQLite sees it, and returns its
// absolute path with symbolic links resolved (where SQLite keeps the -wal
// and -shm files, and the directory whose permissions count), plus a newFile when there is no database there yet (no
// file, or an empty one), which SQLite would create. It refuses a
// directory, a FIFO, a device or anything else that is not a regular
// file, a file that does not start with SQLite's header (SQLite would
// otherwise turn an unrelated file into a database, or try to, and a file
// that is not ours must be left exactly as it was), a file with more than
// one hard link, and a database cut short within its header.
func examine(path string) (abs string, fresh *newFile, err error) {
	if abs, err = filepath.Abs(path); err != nil {
		return "", nil, err
	}
	abs = followLinks(abs)
	// Stat, never open, what may not be a file: opening a FIFO blocks
	// until a writer comes, in a system call that no signal interrupts.
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return abs, &newFile{path: abs}, nil
	case err != nil:
		return "", nil, err
	case info.IsDir():
		return "", nil, fmt.Errorf("%w: a directory", ErrNotDatabase)
	case !info.Mode().IsRegular():
		return "", nil, fmt.Errorf("%w: not a regular file", ErrNotDatabase)
	case links(info) > 1:
		return "", nil, fmt.Errorf("%w (%d names): SQLite keeps its journal beside the name it opens, so two programs using two names could damage the league; keep one name and remove the others, or copy the file", ErrLinked, links(info))
	}
	f, err := os.Open(abs)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	head := make([]byte, sqliteHeaderSize)
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0 && err == io.EOF:
		return abs, &newFile{path: abs, existed: true}, nil
	case err != nil && err != io.ErrUnexpectedEOF:
		return "", nil, fmt.Errorf("cannot read the database file: %w", err)
	case !bytes.HasPrefix(head[:n], sqliteHeader):
		return "", nil, fmt.Errorf("%w: not an SQLite file (left as it was)", ErrNotDatabase)
	case n < sqliteHeaderSize:
		return "", nil, fmt.Errorf("%w: %d bytes, cut short within SQLite's header", ErrCorrupt, n)
	}
	// SQLite would open a file with another version in its header
	// read-only, or not at all, and say so in terms of its own.
	write, read, format := head[18], head[19], binary.BigEndian.Uint32(head[44:48])
	if write < 1 || write > 2 || read < 1 || read > 2 || format > 4 {
		return "", nil, fmt.Errorf("%w: its header gives file format versions %d and %d and schema format %d, where SQLite writes 1 or 2, and 4 at most", ErrCorrupt, write, read, format)
	}
	return abs, nil, nil
}

// maxLinks is how many symbolic links followLinks follows, as Linux does.
const maxLinks = 40

// followLinks returns the absolute path abs with its symbolic links
// resolved, as SQLite resolves them, even a last one that names no file
// yet (a league to create through a link): SQLite creates the file the
// link names, and its -wal and -shm files beside it. A link it cannot
// read stays as it is, for the open to report.
func followLinks(abs string) string {
	for range maxLinks {
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(dir, filepath.Base(abs))
		}
		info, err := os.Lstat(abs)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return abs
		}
		target, err := os.Readlink(abs)
		if err != nil {
			return abs
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(abs), target)
		}
		abs = target
	}
	return abs
}
