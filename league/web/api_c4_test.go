package web_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/agents/game/connect4"
	"ttt/agents/nn"
	"ttt/agents/verify"
	"ttt/league"
	"ttt/store"
)

// c4Flags make a small Connect Four league of a few rounds, evaluated
// from the empty board alone, with no extra ladder games: from every
// opening of one move, the games against the solver and the MCTS players
// were most of its CPU, and what the tests serve is the same.
var c4Flags = []string{"--game", "connect4", "--learners", "tdlambda", "--games-per-round", "300", "--hidden", "16", "--opponents", "4", "--openings", "0", "--ladder-interval", "200", "--seed", "3"}

// The API on a Connect Four league: the move endpoint plays its agents
// on moves given as columns 1-7, the agents and the leaderboard carry the
// position set's figures, and the learning curve each snapshot's share.
func TestConnectFourAPI(t *testing.T) {
	_, path := newLeague(t, 3, c4Flags...)
	_, url := serve(t, path)
	db, err := store.OpenRead(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	best, err := league.Lookup(t.Context(), db, "best")
	if err != nil {
		t.Fatal(err)
	}
	model, err := league.ModelOf(agents.ConnectFour, best)
	if err != nil {
		t.Fatal(err)
	}
	net := model.(*nn.Net)

	t.Run("move", func(t *testing.T) {
		type answer struct {
			Agent         struct{ Name string }
			Board, Move   string
			ToMove        string `json:"to_move"`
			Probabilities []float32
			Expected      []float32
			Values        []*string
			After, Result string
		}
		for _, moves := range []string{"", "4", "44", "4433", "444444", "112233"} {
			b, err := connect4.Parse(moves)
			if err != nil {
				t.Fatal(err)
			}
			list := strings.Join(strings.Split(moves, ""), ",")
			var byGet, posted answer
			getJSON(t, url+"api/agents/best/move?moves="+list, &byGet)
			status, body, _ := send(t, http.MethodPost, url+"api/agents/best/move", strings.NewReader(`{"moves": [`+list+`]}`))
			if status != http.StatusOK || json.Unmarshal(body, &posted) != nil {
				t.Fatalf("POST %s: %d %s", moves, status, body)
			}
			if !slices.Equal(byGet.Probabilities, posted.Probabilities) || !slices.Equal(byGet.Expected, posted.Expected) || byGet.Move != posted.Move {
				t.Errorf("%s: moves= %+v, POST %+v", moves, byGet, posted)
			}
			// A league's learner is a value net by default in Connect Four:
			// its expected score after each column, a policy net's
			// probabilities.
			var pass nn.Pass
			var col int
			var want, got []float32
			if net.IsValue() {
				want, got = make([]float32, 7), byGet.Expected
				col, _ = net.Afterstates(b.Position(), &pass, want)
			} else {
				net.Forward(b.Position(), &pass)
				col = net.Greedy(b.Position(), &pass)
				want, got = pass.Probs[:7], byGet.Probabilities
			}
			after := b.Play(col)
			if byGet.Move != strconv.Itoa(col+1) || !slices.Equal(got, want) || byGet.Values != nil ||
				byGet.Board != moves || byGet.After != moves+strconv.Itoa(col+1) || byGet.ToMove != connect4.Game.ToMove(b.Position()).String() ||
				byGet.Result != connect4.Game.Result(after.Position()).String() {
				t.Errorf("best after %q: %+v; want column %d, %v", moves, byGet, col+1, want)
			}

			var tactician answer
			getJSON(t, url+"api/agents/tactician/move?moves="+list, &tactician)
			if want := strconv.Itoa(connect4.Tactician(b) + 1); tactician.Move != want || tactician.Probabilities != nil {
				t.Errorf("the tactician after %q: %+v, want column %s", moves, tactician, want)
			}
			var random answer
			getJSON(t, url+"api/agents/random/move?moves="+list, &random)
			if c, err := strconv.Atoi(random.Move); err != nil || c < 1 || c > 7 || !b.CanPlay(c-1) || len(random.Probabilities) != 7 {
				t.Errorf("random after %q: %+v", moves, random)
			}
			for k, p := range random.Probabilities {
				if want := float32(0); b.CanPlay(k) && p != 1/float32(connect4.Width-full(b)) || !b.CanPlay(k) && p != want {
					t.Errorf("random after %q: column %d has chance %v", moves, k+1, p)
				}
			}
			for _, name := range []string{"mcts-100", "solver"} {
				var a answer
				getJSON(t, url+"api/agents/"+name+"/move?moves="+list, &a)
				if c, err := strconv.Atoi(a.Move); err != nil || c < 1 || c > 7 || !b.CanPlay(c-1) {
					t.Errorf("%s after %q: %+v", name, moves, a)
				}
			}
		}
	})

	t.Run("game", func(t *testing.T) {
		if lines := inRow(6, 7, 4); len(lines) != 69 {
			t.Fatalf("Connect Four has %d lines of four, want 69", len(lines))
		}
		checkGame(t, url, gameWant{Name: "connect4", Title: "Connect Four", Move: "column", Moves: []string{"1", "2", "3", "4", "5", "6", "7"},
			Full: "full", Rows: 6, Cols: 7, Drop: true, Lines: inRow(6, 7, 4), Sets: true})
	})

	t.Run("refused", func(t *testing.T) {
		for _, c := range []struct{ query, want string }{
			{"moves=8", "move 1 (X on 8): column 8 is off the board (1-7)"},
			{"moves=0", "column 0 is off the board"},
			{"moves=4,x", `"x" is not a column number (1-7)`},
			{"moves=4,4,4,4,4,4,4", "move 7 (X on 4): column 4 is full"},
			{"moves=4,3,4,3,4,3,4", `board "4343434": the game is over (X wins)`},
			{"moves=4,3,4,3,4,3,4,3", "move 8 (O on 3): the game is over"},
			{"board=4453", "Connect Four takes no board: give its moves, moves=4,4,3"},
		} {
			status, body, _ := get(t, url+"api/agents/best/move?"+c.query)
			var e struct{ Message string }
			json.Unmarshal(body, &e)
			if status != http.StatusBadRequest || !strings.Contains(e.Message, c.want) {
				t.Errorf("%s: %d %s; want 400 and %q", c.query, status, body, c.want)
			}
		}
	})

	t.Run("figures", func(t *testing.T) {
		// A random player's expected shares, from the sets themselves.
		floor, _ := verify.RandomShare(connect4.PositionSet())
		floorRandom, _ := verify.RandomShare(connect4.RandomSet())
		var agent struct {
			Game                    string
			Inputs, Hidden, Outputs int
			Shares                  struct {
				Random *struct{ Optimal, Positions int }
				All    struct{ Optimal, Positions int }
			}
			Floor struct{ Random, All float64 }
		}
		getJSON(t, url+"api/agents/best", &agent)
		if best.Random == nil {
			t.Fatalf("the best, %s, was not measured on the random-ply set", best.Name)
		}
		if agent.Game != "connect4" || agent.Inputs != 85 || agent.Outputs != net.Outputs || agent.Shares.All.Optimal != best.Shares.All.Optimal ||
			agent.Shares.All.Positions != best.Shares.All.Positions || agent.Floor.All != 100*floor ||
			agent.Shares.Random == nil || agent.Shares.Random.Optimal != best.Random.Optimal || agent.Shares.Random.Positions != best.Random.Positions ||
			agent.Floor.Random != 100*floorRandom {
			t.Errorf("best: %+v; want its shares %+v and %+v, floors %v and %v", agent, best.Shares.All, *best.Random, 100*floor, 100*floorRandom)
		}
		var board struct {
			Game   string
			Agents []struct {
				Name   string
				Kind   string
				Shares *struct {
					Random *struct{ Pct float64 }
					All    struct{ Pct float64 }
				}
			}
		}
		getJSON(t, url+"api/leaderboard", &board)
		for _, a := range board.Agents {
			if (a.Kind == "checkpoint" || a.Kind == "tactician") != (a.Shares != nil && a.Shares.Random != nil) {
				t.Errorf("the leaderboard's %s (%s) has shares %+v", a.Name, a.Kind, a.Shares)
			}
		}

		// Each point of the learning curve has its snapshot's shares of
		// both sets as the league stored them, in percent; the tactician
		// has its own, and random its floor on each.
		type shares struct {
			Share       *float64
			RandomShare *float64 `json:"random_share"`
		}
		// pct is a share in an error message: its value, or nil.
		pct := func(v *float64) any {
			if v == nil {
				return nil
			}
			return *v
		}
		var progress struct {
			Points []struct {
				Agent int64
				shares
			}
			References []struct {
				Name string
				shares
			}
			Floor       *float64
			FloorRandom *float64 `json:"floor_random"`
		}
		getJSON(t, url+"api/progress", &progress)
		var ids []int64
		for _, p := range progress.Points {
			ids = append(ids, p.Agent)
		}
		byAgent, err := db.Shares(t.Context(), ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(progress.Points) != 3 || progress.Floor == nil || *progress.Floor != 100*floor || progress.FloorRandom == nil || *progress.FloorRandom != 100*floorRandom {
			t.Errorf("the learning curve has %d points, floors %v and %v; want 3, %v and %v", len(progress.Points), pct(progress.Floor), pct(progress.FloorRandom), 100*floor, 100*floorRandom)
		}
		for _, p := range progress.Points {
			stored, ok := byAgent[p.Agent]
			if !ok || stored.Random == nil || p.Share == nil || *p.Share != stored.Tactical.Percent() || p.RandomShare == nil || *p.RandomShare != stored.Random.Percent() {
				t.Errorf("agent %d on the learning curve: share %v, random_share %v; stored %+v, random-ply set %+v", p.Agent, pct(p.Share), pct(p.RandomShare), stored.Tactical, stored.Random)
			}
		}
		tactician, err := db.Agent(t.Context(), "tactician")
		if err != nil {
			t.Fatal(err)
		}
		var ref *shares
		for _, r := range progress.References {
			if r.Name == "tactician" {
				ref = &r.shares
			}
		}
		switch {
		case ref == nil || tactician.Random == nil:
			t.Errorf("the references %+v; want the tactician, measured on both sets (%+v)", progress.References, tactician.Random)
		case ref.RandomShare == nil || *ref.RandomShare != tactician.Random.Percent() || ref.Share == nil || *ref.Share != tactician.Shares.All.Percent():
			t.Errorf("the tactician's shares on the chart %v and %v; stored %+v and %+v", pct(ref.RandomShare), pct(ref.Share), *tactician.Random, tactician.Shares.All)
		}

		// The curve's CSV: both shares of each snapshot, the random-ply
		// set's first.
		_, body, _ := get(t, url+"api/progress.csv")
		rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(ids)+1 || !slices.Equal(rows[0], []string{"round", "agent", "method", "elo", "lo", "hi", "random_pct", "tactical_pct"}) {
			t.Fatalf("the learning curve's CSV: %q", rows)
		}
		for _, row := range rows[1:] {
			id, _ := strconv.ParseInt(row[1], 10, 64)
			stored := byAgent[id]
			if stored.Random == nil || row[6] != strconv.FormatFloat(stored.Random.Percent(), 'f', -1, 64) || row[7] != strconv.FormatFloat(stored.Tactical.Percent(), 'f', -1, 64) {
				t.Errorf("the learning curve's CSV has %q; stored %+v", row, stored)
			}
		}
	})
}

// full is the number of full columns of b.
func full(b connect4.Board) int {
	n := 0
	for c := range connect4.Width {
		if !b.CanPlay(c) {
			n++
		}
	}
	return n
}
