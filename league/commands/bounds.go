package commands

import (
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/league"
)

// upperBounds are the largest values that ttt's numeric flags take, by
// name, whichever command has them: each well beyond any use (a listing
// of a million rows is a night's league), and far from the ends of
// int64, where sums and products overflow. The flags of a league's
// settings have the bounds of their settings (league.Settings: a round
// of a billion training games takes hours), checked here too: a league
// stores its settings before its first round commits, and a value that
// no round could ever finish would then come back with every plain
// resume. --lr, --temperature, --epsilon and --hidden have ranges of
// their own, which their settings check.
var upperBounds = map[string]int64{
	"rounds":        1_000_000_000,
	"games":         10_000_000_000, // train, verify: verify --games 2000000000 is a README example
	"epsilon-games": 1_000_000_000_000,
	"workers":       4096,
	"limit":         1_000_000,
	"top":           1000,
	"sample":        1_000_000_000,
	"patience":      1_000_000_000,
}

// moveTimeFlag is --move-time of the commands that play a searched
// agent (best@ab8) without a person waiting on each move: none by
// default, so that they find what the search finds on any machine.
func moveTimeFlag() cli.Flag {
	return &cli.DurationFlag{Name: "move-time", Usage: "the longest, `DURATION`, a searched agent (best@ab8) thinks a move: it plays the best move of the deepest search it finished in time", DefaultText: "no limit: Ctrl-C stops it"}
}

// moveTime is c's --move-time, which must not be negative.
func moveTime(c *cli.Context) (time.Duration, error) {
	d := c.Duration("move-time")
	if d < 0 {
		return 0, usage(c.Command, "--move-time must not be negative (got %v)", d)
	}
	return d, nil
}

// maxDuration bounds --duration: ten years.
const maxDuration = 10 * 365 * 24 * time.Hour

// checkBounds refuses, with one line, a numeric flag of c's command above
// its upper bound; it runs before the command's action, so before
// anything is stored.
func checkBounds(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		name := f.Names()[0]
		if !c.IsSet(name) {
			continue
		}
		var v int64
		switch x := c.Value(name).(type) {
		case int:
			v = int64(x)
		case int64:
			v = x
		case time.Duration:
			if x > maxDuration {
				return usage(c.Command, "--%s must be at most %v (got %v)", name, maxDuration, x)
			}
			continue
		default:
			continue
		}
		if st, ok := league.SettingOf(strings.ReplaceAll(name, "-", "_")); ok && st.Max > 0 {
			if rule := st.Rule(float64(v)); rule != "" {
				return usage(c.Command, "--%s %s (got %d)", name, rule, v)
			}
			continue
		}
		if bound, ok := upperBounds[name]; ok && v > bound {
			return usage(c.Command, "--%s must be at most %d (got %d)", name, bound, v)
		}
	}
	return nil
}
