//go:build darwin || dragonfly || freebsd || illumos || netbsd || openbsd

package store

import (
	"os"
	"syscall"
)

// errLockHeld: another open file description holds the lock.
var errLockHeld = syscall.EWOULDBLOCK

// lockFile takes an exclusive flock(2), without waiting, on a file beside
// the database named as it with ".lock" appended, which stays in place.
// These systems merge flock locks with the POSIX record locks SQLite
// takes, so a lock on the database file itself would shut out every
// reader. The lock file follows the database's name, so here, unlike on
// Linux, a second hard link or a renamed file gets past it; Open refuses
// files with more than one link. The file stays open even when the lock
// is held elsewhere, as on Linux.
func lockFile(path string) (*os.File, error) {
	perm := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm() // whoever may write the league may lock it
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return nil, err
	}
	return f, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// LockHolder cannot tell who holds the lock here: 0.
func LockHolder(string) int { return 0 }

// underAnotherName cannot tell here: the lock is a file beside the
// database's name, which a renamed database leaves behind.
func underAnotherName(string) error { return nil }
