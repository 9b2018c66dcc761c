package league

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sync/errgroup"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league/elo"
)

// BenchmarkAnchors is the long match among each game's built-in players
// that sets the game's scale (agents.Builtin.Elo): every pair plays
// matches as a league plays one (every two-move opening, in both
// colours), each match with a seed of its own, and one fit of all the
// games, random at 0, rates them. It prints each player's rating, with
// its 95% interval and games, and the values to keep.
//
// A pair of deterministic players plays one match: another would repeat
// it. Other pairs play anchorBudget/(cost of a move of each) matches, at
// most anchorMatches: a move of random, the tactician or perfect costs 1,
// of MCTS its playouts, of Connect Four's solver 20,000 (its search of
// 10,000 nodes a column took about twice MCTS-10,000's time a move). So
// the cheap players, where a Connect Four league spends most of its
// ladder games, meet over 100,000 games a pair, and the solver and
// MCTS-10,000 over hundreds. Run with -cpu 1 on a shared machine:
//
//	go test ./league -run '^$' -bench Anchors -benchtime 1x -cpu 1 -timeout 3h
func BenchmarkAnchors(b *testing.B) {
	for _, kit := range agents.Games {
		b.Run(kit.Name(), func(b *testing.B) {
			for range b.N {
				measureAnchors(b, kit)
			}
		})
	}
}

const (
	anchorBudget  = 300_000
	anchorMatches = 1000
)

// moveCost is what a move of b costs, in units of a random move: see
// BenchmarkAnchors.
func moveCost(b agents.Builtin) int {
	switch {
	case b.Kind == "solver":
		return 20_000
	case b.Kind == "mcts":
		n, _ := strconv.Atoi(strings.TrimPrefix(b.Name, "mcts-"))
		return n
	}
	return 1
}

// measureAnchors plays kit's built-in players' long match and logs their
// fit.
func measureAnchors(b *testing.B, kit *agents.Kit) {
	m := newMatch(kit.Game)
	type task struct{ a, b, match int }
	var tasks []task
	bs := kit.Builtins
	for i := range bs {
		for j := range i {
			n := 1
			if bs[i].Random || bs[j].Random {
				n = min(max(anchorBudget/(moveCost(bs[i])+moveCost(bs[j])), 1), anchorMatches)
			}
			for k := range n {
				tasks = append(tasks, task{i, j, k})
			}
		}
	}
	records := make([]game.Record, len(tasks))
	var next atomic.Int64
	var g errgroup.Group
	for range runtime.GOMAXPROCS(0) {
		g.Go(func() error {
			for t := int(next.Add(1) - 1); t < len(tasks); t = int(next.Add(1) - 1) {
				tk := tasks[t]
				x, o := bs[tk.a], bs[tk.b]
				sides := m.play(context.Background(), contestant{player: x.New, random: x.Random}, contestant{player: o.New, random: o.Random},
					2, mix(uint64(tk.a), uint64(tk.b), uint64(tk.match)), nil)
				records[t] = sides[game.X].Plus(sides[game.O])
			}
			return nil
		})
	}
	g.Wait()
	pairs := map[[2]int]game.Record{}
	for t, tk := range tasks {
		k := [2]int{tk.a, tk.b}
		pairs[k] = pairs[k].Plus(records[t])
	}
	var list []elo.Pair
	for i := range bs {
		for j := range i {
			r := pairs[[2]int{i, j}]
			b.Logf("%s vs %s: W/D/L %d/%d/%d (%.2f%%)", bs[i].Name, bs[j].Name, r.Wins, r.Draws, r.Losses, 100*r.Score())
			list = append(list, elo.Pair{A: int64(i + 1), B: int64(j + 1), Record: r})
		}
	}
	fitted, err := elo.Fit(list, []elo.Anchor{{ID: 1}}) // random, the first built-in player
	if err != nil {
		b.Fatal(err)
	}
	var consts strings.Builder
	for _, r := range fitted {
		name := bs[r.Agent-1].Name
		b.Logf("%-12s %8.1f [%.1f, %.1f] in %d games", name, r.Elo, r.Lo, r.Hi, r.Games)
		fmt.Fprintf(&consts, "%s: %.0f, ", name, r.Elo)
	}
	b.Logf("to keep: %s", strings.TrimSuffix(consts.String(), ", "))
}
