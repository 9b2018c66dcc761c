package commands

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageError is a command line that ttt cannot run: an unknown command or
// flag, a flag value that does not parse, the wrong number of arguments.
// Run prints it with a pointer to the command's help and exits with 2.
type usageError struct {
	cmd string // the command, as in "league run"; "" for ttt itself
	msg string
}

func (e *usageError) Error() string {
	if e.cmd == "" {
		return fmt.Sprintf("%s (see ttt --help)", e.msg)
	}
	return fmt.Sprintf("%s: %s (see ttt %s --help)", e.cmd, e.msg, e.cmd)
}

// usage is a usageError of cmd; a nil cmd is ttt itself.
func usage(cmd *cli.Command, format string, args ...any) error {
	var path string
	if cmd != nil {
		// HelpName is the whole command line up to the command: "ttt
		// league run", and "ttt" for the app's own root command.
		path = strings.TrimPrefix(strings.TrimPrefix(cmd.HelpName, "ttt"), " ")
	}
	return &usageError{cmd: path, msg: fmt.Sprintf(format, args...)}
}

// setUp gives every command of app a help flag of its own, its whole name
// for help and errors, and usage errors of one line with a suggestion
// where a name is mistyped, instead of urfave/cli's help text.
func setUp(app *cli.App) {
	onUsageError := func(c *cli.Context, err error, _ bool) error { return flagError(c.Command, err) }
	app.OnUsageError = onUsageError
	app.Flags = append(app.Flags, helpFlag())
	var walk func(parent string, cmds []*cli.Command)
	walk = func(parent string, cmds []*cli.Command) {
		for _, c := range cmds {
			c.HideHelp = true
			c.Flags = append(c.Flags, helpFlag())
			c.OnUsageError = onUsageError
			c.Before = checkBounds
			name := parent + " " + c.Name
			if parent != app.Name {
				// urfave/cli names the app's commands itself, but their
				// subcommands only once their parent runs; ttt help's
				// errors name them before.
				c.HelpName = name
			}
			walk(name, c.Subcommands)
		}
	}
	walk(app.Name, app.Commands)
}

// helpFlag is --help, -h.
func helpFlag() cli.Flag {
	return &cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}
}

// The flag package's parse errors, which flagError rewrites.
var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	missingValue  = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	invalidValue  = regexp.MustCompile(`^invalid value (".*") for flag -+([^:]*): (.*)$`)
)

// flagError turns an error of parsing cmd's flags into a usage error that
// says what is wrong in the user's terms, and suggests the nearest flag
// for an unknown one.
func flagError(cmd *cli.Command, err error) error {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		msg = "unknown flag " + dashed(m[1])
		var names []string
		for _, f := range cmd.Flags {
			names = append(names, f.Names()...)
		}
		if s := nearest(m[1], names); s != "" {
			msg += "; did you mean " + dashed(s) + "?"
		}
	} else if m := missingValue.FindStringSubmatch(msg); m != nil {
		msg = dashed(m[1]) + " needs a value"
	} else if m := invalidValue.FindStringSubmatch(msg); m != nil {
		value, _ := strconv.Unquote(m[1])
		msg = fmt.Sprintf("%s %s: %s", dashed(m[2]), value, whyInvalid(cmd, m[2], value, m[3]))
	}
	return usage(cmd, "%s", msg)
}

// whyInvalid says why value does not parse as flag name of cmd; reason is
// the flag package's.
func whyInvalid(cmd *cli.Command, name, value, reason string) string {
	i := slices.IndexFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
	if i < 0 {
		return reason
	}
	switch cmd.Flags[i].(type) {
	case *cli.DurationFlag:
		if _, err := strconv.ParseFloat(value, 64); err == nil {
			return "a unit is needed, such as 8h or 30m"
		}
		return "not a duration, such as 8h or 30m"
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		n, err := strconv.ParseInt(value, 0, 64)
		switch {
		case err == nil && n < 0: // for a flag that takes no sign
			return "must not be negative"
		case strings.Contains(reason, "range"):
			return "out of range"
		}
		return "not a whole number"
	case *cli.Float64Flag:
		return "not a number"
	}
	return reason
}

// dashed writes a flag's name as the user types it: -o, --format.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// unknownCommand is the usage error of a command name that parent (nil:
// ttt itself) does not have among cmds.
func unknownCommand(parent *cli.Command, cmds []*cli.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	var names []string
	for _, c := range cmds {
		names = append(names, c.Names()...)
	}
	if s := nearest(name, names); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return usage(parent, "%s", msg)
}

// checkArgs refuses arguments other than those that c's command takes,
// one for each of names (none for a command that takes none): the check
// every command makes before anything else.
func checkArgs(c *cli.Context, names ...string) error {
	args := c.Args().Slice()
	cmd := c.Command
	switch {
	case len(args) == len(names):
		return nil
	case len(names) == 0 && len(cmd.Subcommands) > 0:
		return unknownCommand(cmd, cmd.Subcommands, args[0])
	case len(names) == 0:
		return usage(cmd, "takes no arguments, got %s", quoted(args))
	case len(args) < len(names):
		return usage(cmd, "needs %s", strings.Join(names[len(args):], " "))
	}
	return usage(cmd, "takes %s, got %s", strings.Join(names, " "), quoted(args))
}

// quoted writes args as Go strings, one after another.
func quoted(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}

// nearest returns the name among names that typed is most likely a typo
// of, or "" when none is close. urfave/cli's own suggestion is not used:
// it always names something, however far from what was typed.
func nearest(typed string, names []string) string {
	best, bestDist := "", max(1, (len(typed)+1)/3)+1
	for _, name := range names {
		d := editDistance(typed, name)
		if len(typed) >= 3 && strings.HasPrefix(name, typed) {
			d = 1 // the start of a name: --games-per for --games-per-round
		}
		if d < bestDist && d < len(typed) {
			best, bestDist = name, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbours that turn a into b (optimal string alignment distance):
// fromat is one step from format.
func editDistance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j].
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// findCommand returns the command among cmds that name names, or nil.
func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// flagsFirst returns args with the flags of the command they run moved
// before its arguments, so that `ttt import n.bin --name x` works as
// `ttt import --name x n.bin`: urfave/cli v2, like the flag package,
// stops reading flags at a command's first argument. A flag's value moves
// with it, which is why the command's flags are looked up; everything
// after -- stays an argument. A command asked for --help gets that alone,
// as its help ignores the rest (and urfave/cli would take an argument for
// the name of a subcommand to show). A flag that wants a value and has
// none is left last, where urfave/cli says so.
func flagsFirst(cmds []*cli.Command, args []string) []string {
	i := 0
	for i < len(args) && isFlag(args[i]) { // ttt's own: --help, --version
		i++
	}
	var cmd *cli.Command
	for i < len(args) {
		next := findCommand(cmds, args[i])
		if next == nil {
			break
		}
		cmd, cmds, i = next, next.Subcommands, i+1
		// A command with subcommands reads its own flags up to the
		// subcommand's name, if one follows.
		j := i
		for j < len(args) && isFlag(args[j]) {
			j += 1 + takesValue(cmd, args[j])
		}
		if j >= len(args) || findCommand(cmds, args[j]) == nil {
			break
		}
		i = j
	}
	if cmd == nil || i >= len(args) {
		return args
	}
	out := slices.Clone(args[:i])
	var rest []string
	for k := i; k < len(args); k++ {
		switch a := args[k]; {
		case a == "--":
			out = append(out, "--")
			return append(append(out, rest...), args[k+1:]...)
		case a == "-h" || a == "--help" || a == "-help":
			return append(slices.Clone(args[:i]), "--help")
		case isFlag(a) && k+takesValue(cmd, a) >= len(args):
			// A flag that wants a value and is last goes last without
			// the arguments, which urfave/cli would take for its value:
			// the error says that it needs one.
			return append(out, a)
		case isFlag(a):
			n := 1 + takesValue(cmd, a)
			out = append(out, args[k:k+n]...)
			k += n - 1
		default:
			rest = append(rest, a)
		}
	}
	return append(out, rest...)
}

// isFlag reports whether arg is a flag rather than an argument (- alone
// is the name of standard input or output).
func isFlag(arg string) bool { return len(arg) > 1 && arg[0] == '-' && arg != "--" }

// takesValue is 1 when flag (as typed: -o, --format) is one of cmd's that
// takes the next argument as its value, and 0 otherwise.
func takesValue(cmd *cli.Command, flag string) int {
	name := strings.TrimLeft(flag, "-")
	if strings.Contains(name, "=") {
		return 0
	}
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), name) {
			if v, ok := f.(cli.DocGenerationFlag); ok && v.TakesValue() {
				return 1
			}
		}
	}
	return 0
}

// showSubcommands is the action of a command that only groups others
// (ttt league, ttt games): their list, or a usage error for a name that
// is not among them.
func showSubcommands(c *cli.Context) error {
	if err := checkArgs(c); err != nil {
		return err
	}
	return cli.ShowSubcommandHelp(c)
}
