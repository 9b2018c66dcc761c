package store

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Errors of the league lock.
var (
	// ErrLocked: another process holds the league lock of the database.
	ErrLocked = errors.New("another ttt league run or ttt roundrobin is using this database")
	// ErrMoved: the name the league opened its database by no longer
	// names the file it locked.
	ErrMoved = errors.New("the database file was renamed or replaced while the league ran: give it back its name and run again")
)

// Lock claims the database for one writer of results and ratings (ttt
// league run, ttt roundrobin) until Close. A second league run on the
// same file would train a second learner from the same committed round
// and commit rounds interleaved with the first one's; it gets ErrLocked
// instead. Readers, and the writers that only add an agent (ttt train
// --db, ttt import), never take the lock: SQLite's own locking keeps
// their transactions apart from the league's, and what they add joins
// the league at its next round.
//
// The lock belongs to the file itself, not to the name it was opened by,
// so that no second name (a symbolic link, a renamed file) gets past it;
// the kernel releases it when its process ends in any way, SIGKILL
// included, so a crash never leaves a stale lock behind, as a row in the
// database or a pid file would. See lockFile for how each system does it.
func (db *DB) Lock() error {
	path, err := filepath.Abs(db.path)
	if err != nil {
		return fmt.Errorf("%s: %w", db.path, err)
	}
	// Through a symbolic link, the lock goes to the file itself, where
	// SQLite puts the -wal file too.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	f, err := lockFile(path)
	db.lock = f // closed by Close, after SQLite's connections, held or not
	if errors.Is(err, errLockHeld) {
		if pid := LockHolder(path); pid != 0 {
			return fmt.Errorf("%s: %w (pid %d)", db.path, ErrLocked, pid)
		}
		return fmt.Errorf("%s: %w", db.path, ErrLocked)
	}
	if err != nil {
		return fmt.Errorf("%s: cannot take the league lock: %w", db.path, err)
	}
	// The lock is the file's that has the name now: the one SQLite
	// opened, unless another took its place meanwhile.
	db.locked = true
	if err := db.sameFile(); err != nil {
		return fmt.Errorf("%s: %w", db.path, err)
	}
	return nil
}
