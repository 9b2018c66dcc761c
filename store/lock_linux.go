package store

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// LockHolder returns the pid of the process that holds the league lock
// of the database file at path, as /proc/locks lists it, or 0 when none
// does. It only reads that list: it neither opens the file (closing it
// would drop this process's SQLite locks on it) nor tries the lock (a
// league starting at that instant would find it held).
func LockHolder(path string) int {
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return 0
	}
	pid, _ := strconv.Atoi(flockHolder(&st))
	return pid
}

// underAnotherName refuses the database file at path while a league
// holds its lock by another name: the file was renamed under a running
// league (mv league.db other.db), which goes on through the name it
// opened, with its -wal file beside that name. SQLite opening it by this
// name would keep a second -wal file of its own, and between the two
// the league would be damaged. A league that opened it by this name has
// its -wal file here.
func underAnotherName(path string) error {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // where SQLite keeps the -wal file
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil
	}
	var st syscall.Stat_t
	if syscall.Stat(path, &st) != nil {
		return nil // examine has said what is wrong
	}
	pid := flockHolder(&st)
	if pid == "" {
		return nil
	}
	// /proc/locks names the file by its inode alone, which a file of
	// another file system may share: the lock itself says whether it is
	// held. Trying a shared lock, as no league ever does, is only done
	// here, where a league is all but certain to hold it.
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if !errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), errLockHeld) {
		return nil
	}
	return fmt.Errorf("%w under another name (pid %s): SQLite keeps its journal beside the name it opens, so a second name would damage the league; give the file back its name, or wait for that league to end", ErrLocked, pid)
}

// flockHolder returns the pid of the process that holds an exclusive
// flock of the file st describes, as /proc/locks lists it, or "" for none
// (or when it cannot tell).
func flockHolder(st *syscall.Stat_t) string {
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return ""
	}
	defer locks.Close()
	// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF": the pid, then
	// the device (major:minor, hexadecimal) and the inode. The device is
	// not compared: /proc/locks and stat may disagree on it (overlay file
	// systems, in containers).
	inode := ":" + strconv.FormatUint(st.Ino, 10)
	s := bufio.NewScanner(locks)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 6 && fields[1] == "FLOCK" && fields[3] == "WRITE" && strings.HasSuffix(fields[5], inode) {
			return fields[4]
		}
	}
	return ""
}
