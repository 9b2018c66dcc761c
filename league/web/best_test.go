package web_test

import (
	"testing"

	"ttt/agents/game"
	"ttt/league/web"
	"ttt/store"
)

// The best the pages show moves on to the league's best only when it
// leads by an exact fact (class, share) or, on the low end of its
// interval, by more than one standard error of the difference of the two
// ratings: two checkpoints 0.1 Elo apart do not take turns.
func TestBestLeads(t *testing.T) {
	net := func(class game.Class, share float64, lo, hi float64) *store.Agent {
		a := &store.Agent{Kind: store.Checkpoint, Facts: game.Facts{Class: class}, Standing: &store.Standing{HistoryRow: store.HistoryRow{Lo: lo, Hi: hi, Elo: (lo + hi) / 2}}}
		if share >= 0 {
			a.Shares = &game.Shares{All: game.Score{Optimal: int(share * 1000), Positions: 1000}}
		}
		return a
	}
	// Intervals of ±40: a standard error of 20.4 each, 28.9 for the
	// difference.
	for _, c := range []struct {
		name string
		a, b *store.Agent
		want bool
	}{
		{"0.1 Elo apart", net(game.Unbeatable, -1, 260.1, 340.1), net(game.Unbeatable, -1, 260, 340), false},
		{"28 Elo apart", net(game.Unbeatable, -1, 288, 368), net(game.Unbeatable, -1, 260, 340), false},
		{"30 Elo apart", net(game.Unbeatable, -1, 290, 370), net(game.Unbeatable, -1, 260, 340), true},
		{"a higher class", net(game.Perfect, -1, 200, 280), net(game.Unbeatable, -1, 260, 340), true},
		{"a larger share, a lower rating", net(game.Beatable, 0.75, 200, 280), net(game.Beatable, 0.7, 260, 340), false},
		{"a smaller share, 30 Elo apart", net(game.Beatable, 0.65, 290, 370), net(game.Beatable, 0.7, 260, 340), true},
		{"the same share, 0.1 Elo apart", net(game.Beatable, 0.7, 260.1, 340.1), net(game.Beatable, 0.7, 260, 340), false},
	} {
		if got := web.Leads(c.a, c.b); got != c.want {
			t.Errorf("%s: leads %v, want %v", c.name, got, c.want)
		}
	}
}
