package store

import (
	"errors"

	"golang.org/x/sys/unix"
)

// placeNew gives the file at tmp the name abs, in one step, unless abs
// names a file already: then it returns an error that is fs.ErrExist.
// renameat2(2) with RENAME_NOREPLACE does both at once; a file system
// without it gets linkNew.
func placeNew(tmp, abs string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, abs, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return linkNew(tmp, abs)
	}
	return err
}
