package train_test

import (
	"bytes"
	"context"
	"testing"

	"ttt/agents"
	"ttt/agents/conv"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/table"
	"ttt/agents/testkit"
	"ttt/agents/train"
	"ttt/agents/verify"
)

// plan is train.Default(games) for method m, with its settings as ttt
// train makes them where no flag is given: the method's own, with
// train's exploration, and its document's where it fixes them.
func plan(m *learn.Method, games int) train.Plan {
	cfg := train.Default(games)
	cfg.Method, cfg.Settings = m, m.Defaults(tictactoe.Game)
	cfg.Epsilon = train.Default(games).Epsilon
	if m.Tune != nil {
		cfg.Settings = m.Tune(cfg.Settings, func(string) bool { return false })
	}
	cfg.Settings.Method = m.Name
	return cfg
}

// exactScore trains method for games on the fixed seed, and returns the
// model's exact expected score against a random opponent on each side.
// The figures are exact (every line of the random opponent weighed by
// its chance), so a test of them has no sampling error to allow for.
func exactScore(t *testing.T, method *learn.Method, games int) (x, o float64) {
	t.Helper()
	model, err := train.Run(context.Background(), plan(method, games), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := model.Player()
	return verify.Exact(p, game.X).Score(), verify.Exact(p, game.O).Score()
}

// Every method learns: a few thousand games on a fixed seed raise its
// exact expected score against a random opponent, on both sides, well
// above what one game taught it. The convolutional learner labels every
// position by a search: its 5,000 games take a minute and a half of CPU,
// so they are the long tier's, and TestConvolutionalLearnsInAFewGames is
// its quick sibling.
func TestEveryMethodLearns(t *testing.T) {
	t.Parallel()
	// A method that plays well after one game (the n-tuple network
	// takes every win the rules show it) must come near the perfect
	// player's score instead.
	perfect := tictactoe.Perfect()
	px, po := verify.Exact(perfect, game.X).Score(), verify.Exact(perfect, game.O).Score()
	for _, method := range agents.Methods {
		t.Run(method.Name, func(t *testing.T) {
			if method == conv.Method {
				testkit.Long(t, "the convolutional learner's 5,000 games, each position labelled by a search; TestConvolutionalLearnsInAFewGames trains it for 200")
			}
			x0, o0 := exactScore(t, method, 1)
			x, o := exactScore(t, method, 5000)
			if x < min(x0+0.1, px-0.01) || o < min(o0+0.1, po-0.01) {
				t.Errorf("exact score against random as X %.4f after 1 game, %.4f after 5000; as O %.4f, %.4f", x0, x, o0, o)
			}
		})
	}
}

// The convolutional learner learns through train.Run in 200 games: its
// exact score against a random opponent, the two sides' summed, rises
// by a tenth over one game's (from 1.45 to 1.62 on this seed). Its own
// package proves it learns its teacher's values; this, that a run of
// train feeds it games and returns what it learned.
func TestConvolutionalLearnsInAFewGames(t *testing.T) {
	t.Parallel()
	x0, o0 := exactScore(t, conv.Method, 1)
	x, o := exactScore(t, conv.Method, 200)
	if x+o < x0+o0+0.1 {
		t.Errorf("exact score against random as X %.4f after 1 game, %.4f after 200; as O %.4f, %.4f", x0, x, o0, o)
	}
}

// With Until, a run stops at the first check that finds the learner
// good enough, and what it returns is that good.
func TestUntilStopsAtTheFirstPass(t *testing.T) {
	t.Parallel()
	for _, method := range []*learn.Method{train.TableMethod, train.SelfPlayTableMethod} {
		cfg := plan(method, 400000)
		cfg.Until = game.Perfect
		var checks []train.Check
		var at []int
		model, err := train.Run(context.Background(), cfg, func(p train.Progress) {
			if p.Check != nil {
				checks = append(checks, *p.Check)
				at = append(at, p.Games)
			}
		})
		if err != nil || len(checks) == 0 {
			t.Fatalf("%s: %v after %d checks", method, err, len(checks))
		}
		for i, c := range checks {
			if at[i] != (i+1)*train.DefaultCheckEvery {
				t.Errorf("%s: check %d after %d games", method, i+1, at[i])
			}
			if last := i == len(checks)-1; (c.Class == game.Perfect) != last {
				t.Errorf("%s: check %d of %d found it %s", method, i+1, len(checks), c.Class)
			}
		}
		p := model.Player()
		if c := verify.Classify(verify.Check(p, game.X), verify.Check(p, game.O)); c != game.Perfect {
			t.Errorf("%s: the table returned is %s", method, c)
		}
	}
}

func TestTablesSameSeedSameTable(t *testing.T) {
	t.Parallel()
	for _, method := range []*learn.Method{train.TableMethod, train.SelfPlayTableMethod} {
		cfg := plan(method, 3000)
		run := func() []byte {
			model, err := train.Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			return model.Bytes()
		}
		a, b := run(), run()
		cfg.Seed++
		if c := run(); !bytes.Equal(a, b) || bytes.Equal(a, c) {
			t.Errorf("%s: the same seed gave another table, or another seed the same", method)
		}
		if _, err := table.Parse(a); err != nil {
			t.Errorf("%s: the trained table's file: %v", method, err)
		}
	}
}

// The documents' settings are the table methods' defaults; a flag that
// was given keeps its value, and the network methods keep theirs.
func TestTune(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	l := train.Default(100).Settings
	if got := train.TableMethod.Tune(l, none); got.Epsilon.Start != train.ArticleEpsilon || got.Epsilon.End != train.ArticleEpsilon {
		t.Errorf("table: epsilon %+v", got.Epsilon)
	}
	book := train.SelfPlayTableMethod
	if got := book.Tune(l, none); got.LR != train.BookStep || got.Epsilon.Start != train.BookEpsilon || got.Epsilon.End != train.BookEpsilon {
		t.Errorf("selfplay-table: lr %v, epsilon %+v", got.LR, got.Epsilon)
	}
	l.LR, l.Epsilon.Start = 0.5, 0.2
	given := func(name string) bool { return name == "lr" || name == "epsilon" }
	if got := book.Tune(l, given); got.LR != 0.5 || got.Epsilon.Start != 0.2 || got.Epsilon.End != 0.2 {
		t.Errorf("selfplay-table with --lr 0.5 --epsilon 0.2: lr %v, epsilon %+v", got.LR, got.Epsilon)
	}
	if train.PolicyMethod.Tune != nil || train.TDLambdaMethod.Tune != nil {
		t.Error("a network method fixes settings of its own")
	}
	l.LR = 1.5
	if err := book.Check(l); err == nil {
		t.Error("a step size of 1.5 was accepted")
	}
}
