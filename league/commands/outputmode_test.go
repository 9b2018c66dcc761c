//go:build unix

package commands_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// An output takes the mode and owner of the file it replaces, and a new
// one the umask, as any program's new file does. A fixed 0644 would widen
// a private file, and a file that root replaced would become root's.
func TestOutputModes(t *testing.T) {
	t.Parallel()
	p := smallLeague(t)
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	stat := func(name string) *syscall.Stat_t {
		t.Helper()
		var st syscall.Stat_t
		if err := syscall.Stat(filepath.Join(p.Dir, name), &st); err != nil {
			t.Fatal(err)
		}
		return &st
	}
	for _, args := range [][]string{
		{"export", "-o", "new.bin"},
		{"games", "export", "--pgn", "new.pgn"},
		{"ratings", "plot", "-o", "new.svg"},
	} {
		p.OK(t, args...)
		name := args[len(args)-1]
		if got := stat(name).Mode & 0o777; got != 0o600 {
			t.Errorf("%s under umask 077: mode %o, want 600", name, got)
		}
	}

	const nobody = 65534
	for _, args := range [][]string{
		{"export", "--force", "-o", "old.bin"}, // a text file, not a weight file
		{"games", "export", "--pgn", "old.pgn"},
	} {
		name := args[len(args)-1]
		p.Write(t, name, []byte("the file that was there\n"))
		if err := os.Chmod(filepath.Join(p.Dir, name), 0o640); err != nil {
			t.Fatal(err)
		}
		root := os.Geteuid() == 0
		if root {
			if err := os.Chown(filepath.Join(p.Dir, name), nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}
		p.OK(t, args...)
		st := stat(name)
		if got := st.Mode & 0o777; got != 0o640 {
			t.Errorf("%s replaced: mode %o, want 640 as it was", name, got)
		}
		if root && (st.Uid != nobody || st.Gid != nobody) {
			t.Errorf("%s replaced by root: owner %d:%d, want nobody's as it was", name, st.Uid, st.Gid)
		}
	}
}
