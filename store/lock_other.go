//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd)

package store

import (
	"errors"
	"io/fs"
	"os"
)

// errLockHeld is never returned where flock(2) is missing.
var errLockHeld = errors.New("lock held")

// lockFile does nothing where flock(2) is missing: there, two league runs
// on one database are not kept apart.
func lockFile(string) (*os.File, error) { return nil, nil }

// writable leaves it to SQLite to find out, on its first write, that the
// database cannot be written.
func writable(string) error { return nil }

// frozen: writable never refuses here, so a reader never needs to know.
func frozen(string) bool { return false }

// links cannot tell hard links apart here.
func links(fs.FileInfo) uint64 { return 1 }

// LockHolder cannot tell who holds the lock here: 0.
func LockHolder(string) int { return 0 }

// underAnotherName cannot tell where there is no lock.
func underAnotherName(string) error { return nil }

// processGone cannot tell here: a creation's files are kept.
func processGone(int) bool { return false }
