//go:build darwin || dragonfly || freebsd || illumos || linux || netbsd || openbsd

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"
)

// writable returns ErrReadOnly when this process may not write the
// database file at path (if it exists) or its directory, where SQLite
// makes and removes the -wal and -shm files. It asks the kernel
// (access(2)), which knows about permissions, read-only mounts and root;
// trying SQLite instead would leave -wal and -shm files behind, with the
// mode of the read-only file. Other errors (a missing directory) are left
// for SQLite to report.
func writable(path string) error {
	const wOK = 2 // W_OK in unistd.h
	denied := func(err error) bool { return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) }
	if err := syscall.Access(path, wOK); denied(err) {
		return fmt.Errorf("%w: this user cannot write the file (%v)", ErrReadOnly, err)
	}
	if dir := filepath.Dir(path); denied(syscall.Access(dir, wOK)) {
		return fmt.Errorf("%w: this user cannot write its directory %s, where SQLite keeps its -wal file", ErrReadOnly, dir)
	}
	return nil
}

// links returns the number of hard links of the file info describes.
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// frozen reports whether nobody can write the file at path: it lies on a
// read-only mount, or its mode grants no one write permission (only a
// chmod, a deliberate act, would let a league write it again).
func frozen(path string) bool {
	const wOK = 2 // W_OK in unistd.h
	if errors.Is(syscall.Access(path, wOK), syscall.EROFS) {
		return true
	}
	var st syscall.Stat_t
	return syscall.Stat(path, &st) == nil && st.Mode&0o222 == 0
}

// processGone reports whether no process has the id pid: kill(2) with no
// signal says ESRCH. One of another user's answers EPERM, and is there.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
