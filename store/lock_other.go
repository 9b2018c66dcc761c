//go:build !(darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd)

package store

import (
	"errors"
	"os"
)

// errLockHeld is never returned where flock(2) is missing.
var errLockHeld = errors.New("lock held")

// flock does nothing where flock(2) is missing: there, two league runs on
// one database are not kept apart.
func flock(*os.File) error { return nil }

// writable leaves it to SQLite to find out, on its first write, that the
// database cannot be written.
func writable(string) error { return nil }
