package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrLocked: another process holds the league lock of the database.
var ErrLocked = errors.New("another `ttt league run` is using this database")

// Lock claims the database for one league run until Close. A second
// `ttt league run` on the same file would train a second learner from the
// same committed round and commit rounds interleaved with the first one's;
// it gets ErrLocked instead, with the pid of the holder. Readers, and the
// writers that only add an agent (ttt train --db, ttt import), never take
// the lock: SQLite's own locking keeps their transactions apart from the
// league's, and what they add joins the league at its next run.
//
// The lock is flock(2) on a file next to the database, named as it with
// ".lock" appended, which holds the pid of the last process that took it
// and stays in place (deleting it could let two processes lock two
// different files of the same name). The kernel releases the lock when
// its process ends in any way, SIGKILL included, so a crash never leaves a
// stale lock behind, as a row in the database or a pid file would. The
// database file itself is not the one locked: SQLite holds POSIX record
// locks on it, which BSD and macOS merge with flock locks, so that a
// whole-file exclusive lock there would shut out every reader.
func (db *DB) Lock() error {
	path, err := filepath.Abs(db.path)
	if err != nil {
		return fmt.Errorf("%s: %w", db.path, err)
	}
	// Through a symbolic link, the lock goes next to the file itself,
	// where SQLite puts the -wal file too.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	perm := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm() // whoever may write the league may lock it
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return fmt.Errorf("%s: cannot take the league lock: %w", db.path, err)
	}
	if err := flock(f); err != nil {
		defer f.Close()
		if errors.Is(err, errLockHeld) {
			holder := ""
			if data, err := io.ReadAll(f); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
					holder = fmt.Sprintf(" (pid %d)", pid)
				}
			}
			return fmt.Errorf("%s: %w%s", db.path, ErrLocked, holder)
		}
		return fmt.Errorf("%s: cannot take the league lock: %w", db.path, err)
	}
	// The pid is for the message of the process that is refused; the lock
	// itself is the flock.
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%s: cannot take the league lock: %w", db.path, err)
	}
	db.lock = f
	return nil
}
