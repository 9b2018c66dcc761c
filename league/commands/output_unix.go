//go:build unix

package commands

import (
	"bufio"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// umask returns the process's file mode creation mask, as Linux's
// /proc/self/status says it: reading it so leaves it as it is, where
// umask(2) would change it for a moment, for every thread. Elsewhere it
// is the usual 022.
func umask() fs.FileMode {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0o022
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "Umask:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return fs.FileMode(m) & fs.ModePerm
			}
		}
	}
	return 0o022
}

// sameOwner gives f the owner and group of the file that was describes,
// where this user may (root may; another user only a group of its own):
// a file that root replaces stays its owner's.
func sameOwner(f *os.File, was fs.FileInfo) {
	if st, ok := was.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(st.Uid), int(st.Gid))
	}
}
