package league

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game/connect4"
	"ttt/agents/nn"
	"ttt/agents/verify"
)

// BenchmarkEvaluate plays the matches of a snapshot against 500
// checkpoints (fresh networks of DefaultHidden units: their games are as
// long as a trained net's, within a move), random and perfect, over every
// two-move opening in both colours, on 1 and 2 workers: the speed of a
// league's evaluation, whatever picks the pairs.
func BenchmarkEvaluate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	kit := agents.TicTacToe
	net := func() contestant {
		p, _ := kit.Compiled(kit.Compile(&nn.Player{Net: nn.New(kit.Game, nn.DefaultHidden, rng)}))
		return fixed(p)
	}
	random, perfect := kit.Builtins[0], kit.Builtins[1]
	snap := net()
	list := []pairing{{a: 0, b: 1, ca: snap, cb: contestant{player: random.New, random: true}},
		{a: 0, b: 2, ca: snap, cb: contestant{player: perfect.New}}}
	for id := range 500 {
		list = append(list, pairing{a: 0, b: int64(3 + id), ca: snap, cb: net()})
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := Default(agents.TicTacToe)
			cfg.Workers = workers
			lg := &league{cfg: cfg, match: newMatch(kit.Game)}
			games := 0
			for b.Loop() {
				results, err := lg.play(context.Background(), 1, list, 0, nil)
				if err != nil {
					b.Fatal(err)
				}
				for _, m := range results {
					games += m.Games()
				}
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkTrain is a Connect Four round's training, the default
// n-tuple learner's self-play, on 1 and 2 workers: its games a second,
// the cores the process kept busy meanwhile, and the share of the
// random-ply set the learner then keeps (after a round of 20,000 games
// and b.N more). Each worker is an actor; the learner learns a batch
// while they play the next.
func BenchmarkTrain(b *testing.B) {
	kit := agents.ConnectFour
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := Default(kit)
			cfg.GamesPerRound, cfg.Workers = 20000, workers
			tr, err := newTrainer(kit, cfg, 0, nil, true)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if t := tr.round(ctx, 1, opponents{}, nil); t.err != nil { // a net that has learned a little
				b.Fatal(t.err)
			}
			var busy busy
			busy.since(time.Now())
			games := 0
			for b.Loop() {
				if t := tr.round(ctx, 1, opponents{}, nil); t.err != nil {
					b.Fatal(t.err)
				}
				games += cfg.GamesPerRound
			}
			_, cores := busy.since(time.Now())
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(cores, "cores")
			p := tr.lines[0].learner.Model().Player()
			b.ReportMetric(verify.CheckSet(p, connect4.RandomSet()).All.Percent(), "random-set-%")
		})
	}
}
