package commands

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
)

// Env is what one run of ttt sees of the world beyond its arguments: its
// streams, the directory that relative paths start from, and its
// environment. Run reads nothing of its process but what Env gives it,
// so that runs in one process (the tests, side by side) share nothing.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Dir is the working directory of the run: the files the user names
	// by a relative path are found from it. "" is the process's own.
	Dir string
	// LookupEnv reads the environment (TTT_DB); nil reads none.
	LookupEnv func(key string) (string, bool)
}

// Process is the Env of the ttt process itself, which main gives Run.
func Process() Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, LookupEnv: os.LookupEnv}
}

// path is the file that name, a path as the user gave it, means in the
// run: name itself when it is absolute or the run is in the process's
// own directory. Messages keep the user's name.
func (e Env) path(name string) string {
	if e.Dir == "" || name == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(e.Dir, name)
}

// lookupEnv is e.LookupEnv, or nothing without one.
func (e Env) lookupEnv(key string) (string, bool) {
	if e.LookupEnv == nil {
		return "", false
	}
	return e.LookupEnv(key)
}

// envKey keeps a run's Env in its app's metadata, where every command's
// context finds it.
const envKey = "env"

// envOf is the Env of the run c belongs to.
func envOf(c *cli.Context) Env { return c.App.Metadata[envKey].(Env) }

// userNames is err as the user reads it: the store and the system name a
// file by the path they were given, which in a run with a Dir of its own
// is the file's full path, and the user knows it by the name they gave.
func userNames(err error, file, name string) error {
	if err == nil || file == name {
		return err
	}
	return &renamed{err: err, msg: strings.ReplaceAll(err.Error(), file, name)}
}

// renamed is an error said with other names (userNames, flagged);
// errors.Is and As see the error underneath.
type renamed struct {
	err error
	msg string
}

func (e *renamed) Error() string { return e.msg }
func (e *renamed) Unwrap() error { return e.err }
