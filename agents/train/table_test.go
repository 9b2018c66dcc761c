package train_test

import (
	"bytes"
	"context"
	"testing"

	"ttt/agents/game"
	"ttt/agents/nn"
	"ttt/agents/table"
	"ttt/agents/train"
	"ttt/agents/verify"
)

// frozen is the agent a trained model plays as: greedy, deterministic.
func frozen(m train.Model) game.Player {
	if m.Table != nil {
		return m.Table
	}
	return &nn.Player{Net: m.Net}
}

// Every method learns: a few thousand games on a fixed seed raise its
// exact expected score against a random opponent, on both sides, well
// above what one game taught it. The figures are exact (every line of
// the random opponent weighed by its chance), so the test has no
// sampling error to allow for.
func TestEveryMethodLearns(t *testing.T) {
	t.Parallel()
	score := func(method string, games int) (x, o float64) {
		cfg := train.Default(games)
		cfg.Method = method
		cfg.Learning = cfg.Learning.ForMethod(func(string) bool { return false })
		model, err := train.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := frozen(model)
		return verify.Exact(p, game.X).Score(), verify.Exact(p, game.O).Score()
	}
	for _, method := range train.Methods {
		x0, o0 := score(method, 1)
		x, o := score(method, 5000)
		if x < x0+0.1 || o < o0+0.1 {
			t.Errorf("%s: exact score against random as X %.4f after 1 game, %.4f after 5000; as O %.4f, %.4f",
				method, x0, x, o0, o)
		}
	}
}

// With Until, a run stops at the first check that finds the learner
// good enough, and what it returns is that good.
func TestUntilStopsAtTheFirstPass(t *testing.T) {
	t.Parallel()
	for _, method := range []string{train.MethodTable, train.MethodSelfPlayTable} {
		cfg := train.Default(400000)
		cfg.Method = method
		cfg.Learning = cfg.Learning.ForMethod(func(string) bool { return false })
		cfg.Until = verify.Perfect
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
			if last := i == len(checks)-1; (c.Class == verify.Perfect) != last {
				t.Errorf("%s: check %d of %d found it %s", method, i+1, len(checks), c.Class)
			}
		}
		p := frozen(model)
		if c := verify.Classify(verify.Check(p, game.X), verify.Check(p, game.O)); c != verify.Perfect {
			t.Errorf("%s: the table returned is %s", method, c)
		}
	}
}

func TestTablesSameSeedSameTable(t *testing.T) {
	t.Parallel()
	for _, method := range []string{train.MethodTable, train.MethodSelfPlayTable} {
		cfg := train.Default(3000)
		cfg.Method = method
		cfg.Learning = cfg.Learning.ForMethod(func(string) bool { return false })
		run := func() []byte {
			model, err := train.Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			return model.Table.Bytes()
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
func TestForMethod(t *testing.T) {
	t.Parallel()
	none := func(string) bool { return false }
	l := train.Default(100).Learning
	l.Method = train.MethodTable
	if got := l.ForMethod(none); got.Epsilon.Start != train.ArticleEpsilon || got.Epsilon.End != train.ArticleEpsilon {
		t.Errorf("table: epsilon %+v", got.Epsilon)
	}
	l.Method = train.MethodSelfPlayTable
	if got := l.ForMethod(none); got.LR != train.BookStep || got.Epsilon.Start != train.BookEpsilon || got.Epsilon.End != train.BookEpsilon {
		t.Errorf("selfplay-table: lr %v, epsilon %+v", got.LR, got.Epsilon)
	}
	l.LR, l.Epsilon.Start = 0.5, 0.2
	given := func(name string) bool { return name == "lr" || name == "epsilon" }
	if got := l.ForMethod(given); got.LR != 0.5 || got.Epsilon.Start != 0.2 || got.Epsilon.End != 0.2 {
		t.Errorf("selfplay-table with --lr 0.5 --epsilon 0.2: lr %v, epsilon %+v", got.LR, got.Epsilon)
	}
	l = train.Default(100).Learning
	if got := l.ForMethod(none); got != l {
		t.Errorf("policy: %+v became %+v", l, got)
	}
	l.Method, l.LR = train.MethodSelfPlayTable, 1.5
	if err := l.Validate(); err == nil {
		t.Error("a step size of 1.5 was accepted")
	}
}
