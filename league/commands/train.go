package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/train"
	"ttt/store"
)

// Train is `ttt train`: ttt-rl's trainer, one network against a uniformly
// random opponent, playing X and O in turn.
var Train = &cli.Command{
	Name:  "train",
	Usage: "train a network against a random opponent (ttt-rl's method)",
	UsageText: `ttt train [options]

   ttt train --games 2000000 --seed 3 -o n.bin
   ttt train -o ttt_nn.bin --side O     # 18-input file for ttt-rl's play program
   ttt train --db league.db             # the net joins the league as a baseline agent

   With --db (or TTT_DB set), the net is stored in the league as well as
   written to -o, if given.`,
	Flags: append([]cli.Flag{
		&cli.IntFlag{Name: "games", Value: defaults.Games, Usage: "training games"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the net to `FILE` as plain weights"},
		&cli.StringFlag{Name: "side", Usage: "with -o: fold the side input for `X|O` and write 18 inputs"},
		dbFlag,
	}, learningFlags(defaults.Learning, "half of --games")...),
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return fmt.Errorf("train takes no arguments (got %q); flags go before arguments", c.Args().First())
		}
		out := c.String("output")
		toLeague := c.IsSet(dbFlag.Name)
		if out == "" && !toLeague {
			return fmt.Errorf("say where the net goes: -o FILE and/or --db FILE")
		}
		write, err := weightWriter(c.String("side"))
		if err != nil {
			return err
		}
		cfg := train.Config{Games: c.Int("games"), Seed: c.Uint64("seed"), Learning: learning(c)}
		if !c.IsSet("epsilon-games") {
			cfg.Epsilon.Games = cfg.Games / 2
		}
		if err := cfg.Validate(); err != nil {
			return err
		}
		// Both destinations are opened before training: a path that cannot
		// be written fails now, not after the games.
		var file *pendingFile
		if out != "" {
			if file, err = createPending(out); err != nil {
				return err
			}
			defer file.abort()
		}
		var db *store.DB
		if toLeague {
			if db, err = openLeague(c, true); err != nil {
				return err
			}
			defer db.Close()
		}

		w := c.App.Writer
		fmt.Fprintf(w, "Training a %d-hidden network against a random opponent for %d games (seed %d)\n",
			cfg.Hidden, cfg.Games, cfg.Seed)
		bar := newProgress(c, int64(cfg.Games), "training", "games")
		start := time.Now()
		net, err := train.AgainstRandom(c.Context, cfg, func(p train.Progress) {
			bar.set(int64(p.Games))
			if p.Window != nil {
				bar.println(w, "Games: %d, %s, epsilon %.3f", p.Games, p.Window, p.Epsilon)
			}
		})
		bar.finish()
		if err != nil {
			return fmt.Errorf("training stopped: %w", err)
		}
		fmt.Fprintf(w, "Training complete in %.1fs\n", time.Since(start).Seconds())
		if db != nil {
			a := &store.Agent{Kind: store.Baseline, TrainGames: int64(cfg.Games), Net: net}
			if err := db.AddAgent(c.Context, a); err != nil {
				return err
			}
			fmt.Fprintf(w, "Network stored as agent %d (%s) in %s\n", a.ID, a.Name, c.String(dbFlag.Name))
		}
		if file != nil {
			if err := file.commit(write(net)); err != nil {
				return err
			}
			fmt.Fprintf(w, "Network saved to %s\n", out)
		}
		return nil
	},
}

// defaults are train's settings where no flag says otherwise.
var defaults = train.Default(150000)

// learningFlags are the settings of a learning network, shared by train
// and league run, with the defaults of the one or the other.
func learningFlags(d train.Learning, decayDefault string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "hidden", Value: d.Hidden, Usage: "hidden units of a new network"},
		&cli.Float64Flag{Name: "lr", Value: d.LR, Usage: "learning rate"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed: the same seed and flags give the same results"},
		&cli.Float64Flag{Name: "epsilon", Value: d.Epsilon.Start, Usage: "exploration rate at the start: the chance of a uniformly random move"},
		&cli.Float64Flag{Name: "epsilon-end", Value: d.Epsilon.End, Usage: "exploration rate after the decay"},
		&cli.IntFlag{Name: "epsilon-games", Value: d.Epsilon.Games, Usage: "training games over which epsilon decays linearly", DefaultText: decayDefault},
		&cli.Float64Flag{Name: "temperature", Value: d.Temperature, Usage: "softmax temperature of sampled moves (lower is greedier)"},
	}
}

// learning reads the flags of learningFlags.
func learning(c *cli.Context) train.Learning {
	return train.Learning{
		Hidden:      c.Int("hidden"),
		LR:          c.Float64("lr"),
		Epsilon:     train.Schedule{Start: c.Float64("epsilon"), End: c.Float64("epsilon-end"), Games: c.Int("epsilon-games")},
		Temperature: c.Float64("temperature"),
	}
}

// weightWriter returns how a net becomes a plain weight file: 19 inputs,
// or 18 folded for a side when side is "X" or "O".
func weightWriter(side string) (func(*nn.Net) []byte, error) {
	if side == "" {
		return (*nn.Net).Bytes, nil
	}
	s, err := game.ParseSide(side)
	if err != nil {
		return nil, fmt.Errorf("--side: %w", err)
	}
	return func(n *nn.Net) []byte { return n.FoldedBytes(s) }, nil
}

// pendingFile is an output file written all at once at the end of a
// command, through a temporary file in the same directory: a crash or a
// full disk never leaves half a file at the path, and a path that cannot
// be written is refused before any work is done.
type pendingFile struct {
	path string
	tmp  *os.File
}

func createPending(path string) (*pendingFile, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ttt-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &pendingFile{path: path, tmp: tmp}, nil
}

// commit writes data and puts the file in place.
func (p *pendingFile) commit(data []byte) error {
	_, err := p.tmp.Write(data)
	if err == nil {
		err = p.tmp.Chmod(0o644)
	}
	if cerr := p.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.tmp.Name(), p.path)
	}
	if err != nil {
		os.Remove(p.tmp.Name())
		return fmt.Errorf("cannot write %s: %w", p.path, err)
	}
	return nil
}

// abort removes the temporary file; after commit it does nothing.
func (p *pendingFile) abort() {
	if p.tmp.Close() == nil {
		os.Remove(p.tmp.Name())
	}
}
