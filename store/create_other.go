//go:build !linux

package store

// placeNew gives the file at tmp the name abs, unless abs names a file
// already: then it returns an error that is fs.ErrExist.
func placeNew(tmp, abs string) error { return linkNew(tmp, abs) }
