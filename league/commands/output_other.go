//go:build !unix

package commands

import (
	"io/fs"
	"os"
)

// umask is the usual 022: no other system has one.
func umask() fs.FileMode { return 0o022 }

// sameOwner does nothing: files have no Unix owner here.
func sameOwner(*os.File, fs.FileInfo) {}
