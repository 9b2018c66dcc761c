package ntuple_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/learn"
	"ttt/agents/ntuple"
	"ttt/agents/verify"
)

func envf(k string, d float64) float64 {
	if v := os.Getenv(k); v != "" {
		f, _ := strconv.ParseFloat(v, 64)
		return f
	}
	return d
}

func cpu() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

func TestExperiment(t *testing.T) {
	if os.Getenv("TTT_EXP") == "" {
		t.Skip()
	}
	g := connect4.Game
	s := ntuple.Method.Defaults(g)
	s.LR = envf("LR", 0.5)
	decay := envf("DECAY", 0)
	s.Own[ntuple.TupleLength.Name] = envf("LEN", 6)
	s.Own[learn.Lambda.Name] = envf("LAMBDA", 0.5)
	s.Own[ntuple.Lookahead.Name] = envf("DEPTH", 1)
	eps := envf("EPS", 0.1)
	games := int64(envf("GAMES", 1e8))
	every := int64(envf("EVERY", 2e6))
	rng := rand.New(rand.NewPCG(uint64(envf("SEED", 1)), 2))
	l, err := ntuple.Method.New(g, s, rng)
	if err != nil {
		t.Fatal(err)
	}
	if c := int(envf("COMBINE", 0)); c > 0 {
		tuples := append(ntuple.Lines(g.Board(), 6, rng), ntuple.Lines(g.Board(), c, rng)...)
		net, err := ntuple.New(g, tuples)
		if err != nil {
			t.Fatal(err)
		}
		l = ntuple.NewTD(net, float32(s.LR), 0.5, 16, 1, rng)
	}
	start := time.Now()
	grow := int64(envf("GROW", 0))
	for i := int64(0); i < games; i++ {
		if grow > 0 && i == grow {
			grown, err := l.(*ntuple.TD).Net.Grow(ntuple.Lines(g.Board(), int(envf("GROWLEN", 8)), rng))
			if err != nil {
				t.Fatal(err)
			}
			l = ntuple.NewTD(grown, float32(s.LR), 0.5, 16, 1, rng)
			fmt.Printf("grown to %d tuples, %d entries\n", len(grown.Tuples), len(grown.W))
		}
		if i%100000 == 0 {
			lr := s.LR
			if decay > 0 {
				lr /= math.Sqrt(1 + float64(i)/decay)
			}
			l.SetRate(lr)
		}
		l.Play(game.Side(i%2), nil, eps)
		if (i+1)%every == 0 {
			p := l.Model().Player()
			r := verify.CheckSet(p, connect4.RandomSet())
			tc := verify.CheckSet(p, connect4.PositionSet())
			fmt.Printf("%d\t%.0f\t%.0f\t%.1f\t%.1f\n", i+1, cpu(), time.Since(start).Seconds(),
				100*float64(r.All.Optimal)/float64(r.All.Positions), 100*float64(tc.All.Optimal)/float64(tc.All.Positions))
		}
	}
}
