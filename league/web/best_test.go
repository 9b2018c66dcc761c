package web_test

import (
	"context"
	"math/rand/v2"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/league"
	"ttt/store"
)

// The leaderboard's tile (the health's best), its ★ (the leaderboard's
// best) and the Best agent link (/api/agents/best) name one network, the league's best, after
// every round: even when a network takes the lead by 0.1 Elo on the low
// end, the case in which the pages once followed a steadier best of
// their own and a browser saw the two disagree. The tile says since when
// from the rating history, which a restarted server reads the same.
func TestTileAndLinkNameOneBest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db, err := store.Open(ctx, path, func() store.Setup { return league.Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ids []int64
	for seed := range uint64(2) {
		net := nn.New(tictactoe.Game, 5, rand.New(rand.NewPCG(seed, 0)))
		a := &store.Agent{Kind: store.Baseline, Method: "policy", Weights: net.Bytes(), Hidden: net.Hidden,
			Facts: agents.TicTacToe.Check(tictactoe.NewTable(&nn.Player{Net: net})), Classed: true}
		a.Class = game.Beatable // one class: the low ends decide
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	rate := func(lo map[int64]float64) {
		t.Helper()
		r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now()}
		for _, id := range ids {
			if l, ok := lo[id]; ok {
				r.History = append(r.History, store.HistoryRow{Agent: id, Elo: l + 40, Lo: l, Hi: l + 80, Games: 100})
				r.Updates = append(r.Updates, store.Update{Agent: id, Played: game.Record{Wins: 50, Losses: 50}, Ranked: true})
			}
		}
		if err := db.CommitRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(newServer(t, path))
	defer srv.Close()
	type named struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	look := func(round int64, want int64, since int64, changed bool) {
		t.Helper()
		var health struct {
			Best      named `json:"best"`
			BestSince struct {
				Round   int64 `json:"round"`
				Changed bool  `json:"changed"`
			} `json:"best_since"`
		}
		var board struct {
			Best   named `json:"best"`
			Agents []struct {
				named
				Best bool `json:"best"`
			} `json:"agents"`
		}
		var page struct {
			named
			Best bool `json:"best"`
		}
		getJSON(t, srv.URL+"/api/health", &health)
		getJSON(t, srv.URL+"/api/leaderboard", &board)
		getJSON(t, srv.URL+"/api/agents/best", &page) // the Best agent link's page
		starred := int64(0)
		for _, a := range board.Agents {
			if a.Best {
				starred = a.ID
			}
		}
		if health.Best.ID != want || board.Best.ID != want || starred != want || page.ID != want || !page.Best {
			t.Errorf("round %d: the tile names %d, the leaderboard %d, the star %d, the Best agent link %d (best: %v); the league's best is %d",
				round, health.Best.ID, board.Best.ID, starred, page.ID, page.Best, want)
		}
		if health.BestSince.Round != since || health.BestSince.Changed != changed {
			t.Errorf("round %d: best since %+v, want round %d, changed %v", round, health.BestSince, since, changed)
		}
	}
	rate(map[int64]float64{ids[0]: 100, ids[1]: 50})
	look(1, ids[0], 1, false)
	rate(map[int64]float64{ids[1]: 100.1}) // ahead by 0.1 on the low end
	look(2, ids[1], 2, true)
	rate(map[int64]float64{ids[0]: 100.2})
	look(3, ids[0], 3, true)
}
