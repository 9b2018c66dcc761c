package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"ttt/agents/testkit"
	"ttt/agents/toy"
)

// The pages and the API of a league of a game that declares its rules
// and its kit, and nothing else: Connect Three (package toy), which no
// page and no handler knows by name. The game's descriptor is what the
// pages draw it from; the move endpoint reads and writes its moves as
// its kit says. The game is registered in the test's own process alone.
func TestToyGame(t *testing.T) {
	t.Parallel()
	if !toy.OwnProcess(t) {
		return
	}
	_, path := newLeague(t, 2, "--game", toy.Game.Name(), "--games-per-round", "300", "--opponents", "4")
	_, url := serve(t, path)

	var g struct {
		Name, Title, Move string
		Moves             []string
		Rows, Cols        int
		Drop, Sets, Board bool
		Lines             [][][2]int
	}
	getJSON(t, url+"api/game", &g)
	// Lines of three on five columns of four rows: 4 rows of 3 across,
	// 5 columns of 2 up, and 2 rows of 3 on each diagonal.
	if g.Name != "connect3" || g.Title != "Connect Three" || g.Move != "column" || strings.Join(g.Moves, "") != "12345" ||
		g.Rows != 4 || g.Cols != 5 || !g.Drop || !g.Sets || g.Board || len(g.Lines) != 12+10+2*6 {
		t.Errorf("/api/game: %+v", g)
	}

	var move struct {
		Board, Move, After, Result string
		Expected                   []float32
		Probabilities              []float32
	}
	getJSON(t, url+"api/agents/best/move?moves=3,3,3", &move)
	if move.Board != "333" || len(move.Probabilities) != toy.Cols || move.Result != "ongoing" || move.After != "333"+move.Move {
		t.Errorf("best's move after 3,3,3: %+v", move)
	}
	for _, c := range []struct{ query, want string }{
		{"moves=3,3,3,3,3", "move 5 (X on 3): column 3 is full"},
		{"moves=6", "column 6 is off the board (1-5)"},
		{"board=X.O", "Connect Three takes no board: give its moves, moves=3,3,2"},
	} {
		status, body, _ := get(t, url+"api/agents/best/move?"+c.query)
		if status != http.StatusBadRequest || !strings.Contains(string(body), c.want) {
			t.Errorf("move?%s: %d %s, want 400 with %q", c.query, status, body, c.want)
		}
	}

	var board struct {
		Game   string
		Agents []struct {
			Name   string
			Kind   string
			Shares *struct{ Random struct{ Pct float64 } }
		}
	}
	getJSON(t, url+"api/leaderboard", &board)
	shared := 0
	for _, a := range board.Agents {
		if a.Kind == "checkpoint" && a.Shares != nil {
			shared++
		}
	}
	if board.Game != "connect3" || shared != 2 {
		t.Errorf("leaderboard: game %q, %d checkpoints with their shares: %+v", board.Game, shared, board.Agents)
	}
	for _, page := range []string{"", "play/best", "agents/best", "compare/best/checkpoint-4", "api/progress", "api/agents/best/history"} {
		if status, body, _ := get(t, url+page); status != http.StatusOK {
			t.Errorf("GET /%s: %d %s", page, status, body)
		}
	}
}

// TestBrowserToy plays a game of Connect Three on the play page, on five
// columns of four cells, and checks that the leaderboard shows its
// checkpoints' shares of the position sets, as it does Connect Four's.
// No page knows the game by name. The game is registered in the test's
// own process alone.
func TestBrowserToy(t *testing.T) {
	testkit.Long(t, "a game of Connect Three in Chromium; TestBrowserLeaderboard opens one page")
	if !toy.OwnProcess(t) {
		return
	}
	ctx, _ := newBrowser(t)
	do(t, ctx, chromedp.EmulateViewport(viewWidth, viewHeight))
	_, path := newLeague(t, 2, "--game", toy.Game.Name(), "--games-per-round", "300", "--opponents", "4")
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before this server stops
	do(t, ctx, chromedp.Navigate(url))
	waitFor(t, ctx, `document.querySelectorAll("#leaderboard tbody tr").length > 0 && document.querySelector("#chart").dataset.points === "2"`)
	if th := eval[string](t, ctx, `[...document.querySelectorAll("#leaderboard thead th")].map(th => th.textContent).join(" ")`); !strings.Contains(th, "Optimal") {
		t.Errorf("the leaderboard of a game measured by its position sets has the columns %q", th)
	}
	var best struct{ Name string }
	getJSON(t, url+"api/agents/best", &best)
	do(t, ctx, chromedp.Navigate(url+"play/best"))
	playColumns(t, ctx, url, best.Name, dropBoard{cols: toy.Cols, rows: toy.Rows, inRow: 3, human: "mcts-10"})
}
