package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// errLockHeld: another open file description holds the lock.
var errLockHeld = syscall.EWOULDBLOCK

// lockFile takes an exclusive flock(2) on the database file itself,
// without waiting. On Linux flock locks and the POSIX record locks that
// SQLite takes on the same file are independent of each other, so the
// league lock shuts out no reader; and it belongs to the inode, so hard
// links, symbolic links and renames all meet the same lock. (On NFS, where
// Linux emulates flock with record locks, SQLite's WAL mode does not work
// anyway.)
//
// The file stays open even when the lock is held elsewhere, and the caller
// closes it only after SQLite's connections: closing any descriptor of a
// file drops every POSIX lock the process holds on it, SQLite's included.
func lockFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return f, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// lockHolder returns " (pid N)" for the process that holds the flock on
// f's file, as /proc/locks lists it, or "" when it cannot tell.
func lockHolder(f *os.File) string {
	var st syscall.Stat_t
	if f == nil || syscall.Fstat(int(f.Fd()), &st) != nil {
		return ""
	}
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return ""
	}
	defer locks.Close()
	// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF": the pid, then
	// the device (major:minor, hexadecimal) and the inode.
	inode := ":" + strconv.FormatUint(st.Ino, 10)
	s := bufio.NewScanner(locks)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 6 && fields[1] == "FLOCK" && fields[3] == "WRITE" && strings.HasSuffix(fields[5], inode) {
			return fmt.Sprintf(" (pid %s)", fields[4])
		}
	}
	return ""
}
