package web_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// The play page in the browser: games of each layout, a failed move, a
// table's pages.

// dropBoard is a board of a game whose stones drop, as the play page
// shows it: cols columns of rows cells, inRow stones in a row winning;
// human is the built-in player whose moves the test plays.
type dropBoard struct {
	cols, rows, inRow int
	human             string
}

// connectFourBoard is Connect Four's, the tactician playing the human.
var connectFourBoard = dropBoard{cols: 7, rows: 6, inRow: 4, human: "tactician"}

// playColumns plays the game on the page, one whose stones drop on b,
// to its end, the human playing b.human's moves (from the API), and
// checks what the page shows on the way: b's columns of cells, each
// stone where it fell, the agent's thoughts of each column, and the end.
func playColumns(t *testing.T, ctx context.Context, url, name string, b dropBoard) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll("#board .column").length === %d && document.querySelectorAll("#board .disc").length === %d && document.getElementById("opponent").textContent !== "…"`, b.cols, b.cols*b.rows))
	for turn := 0; ; turn++ {
		if turn > b.cols*b.rows {
			t.Fatalf("the game did not end within %d moves", b.cols*b.rows)
		}
		state := poll[string](t, ctx, `document.getElementById("board").dataset.over === "true" ? "over"
			: document.querySelector("#board .column:not([disabled])") ? "move" : ""`)
		if state == "over" {
			break
		}
		moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
		// The stones on the page are those of the moves, each at the
		// bottom of its column.
		heights := make([]int, b.cols)
		want := map[string]string{}
		if moves != "" {
			for i, m := range strings.Split(moves, ",") {
				col, _ := strconv.Atoi(m)
				want[fmt.Sprintf("%d,%d", col, heights[col-1])] = "XO"[i%2 : i%2+1]
				heights[col-1]++
			}
		}
		got := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#board .disc.X, #board .disc.O")].map(d =>
			[d.closest(".column").dataset.col + "," + d.dataset.row, d.classList.contains("X") ? "X" : "O"]))`)
		if !maps.Equal(got, want) {
			t.Fatalf("after moves %s the board shows %v; want %v", moves, got, want)
		}
		if moves != "" {
			thoughts := eval[[]string](t, ctx, `[...document.querySelectorAll("#thoughts .thought")].map(e => e.textContent)`)
			chosen := eval[int](t, ctx, `document.querySelectorAll("#thoughts .thought.chosen").length`)
			if len(thoughts) != b.cols || chosen != 1 || !slices.ContainsFunc(thoughts, func(s string) bool { return strings.HasSuffix(s, "%") }) {
				t.Errorf("after its move the page shows %q with %d chosen; want %d columns, one chosen, probabilities", thoughts, chosen, b.cols)
			}
		}
		var human struct{ Move string }
		getJSON(t, url+"api/agents/"+b.human+"/move?moves="+moves, &human)
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .column[data-col="%s"]:not([disabled])`, human.Move))))
	}
	status := eval[string](t, ctx, `document.getElementById("status").textContent`)
	result := eval[string](t, ctx, `document.getElementById("status").dataset.result`)
	want := map[string]string{"win": "You win!", "tie": "A tie.", "loss": name + " wins."}[result]
	if want == "" || status != want {
		t.Errorf("at the end the page says %q (result %q)", status, result)
	}
	if told := eval[string](t, ctx, `(() => { const s = document.getElementById("status"); return getComputedStyle(s).color + " " + getComputedStyle(s, "::before").content; })()`); told != endings[result] {
		t.Errorf("a %s is shown as %q, want %q", result, told, endings[result])
	}
	if result != "tie" && eval[int](t, ctx, `document.querySelectorAll("#board .disc.won").length`) < b.inRow {
		t.Errorf("a %s with no %d in a row shown", result, b.inRow)
	}
	if free := eval[int](t, ctx, `document.querySelectorAll("#board .column:not([disabled])").length`); free != 0 {
		t.Errorf("after the end %d columns can be played", free)
	}
	t.Logf("a game of %d columns against %s: moves %s, %s", b.cols, name, eval[string](t, ctx, `document.getElementById("board").dataset.moves`), status)
}

// failedMove checks the play page when the agent's move fails: the page
// says so and offers to ask again, and the board waits; asked again, the
// agent moves.
func failedMove(t *testing.T, ctx context.Context, problems *pageProblems, url, name string) {
	// The next move request gets the answer of a busy database.
	problems.expect("the server responded with a status of 503")
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/move?*"}}}); err != nil {
		t.Fatal(err)
	}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	do(t, ctx, chromedp.Navigate(url+"play/best?as=X"))
	waitFor(t, ctx, `document.querySelectorAll("#board .cell:not([disabled])").length === 9`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#board .cell[data-sq="4"]`)))
	var req fetch.EventRequestPaused
	for ev, err := range paused {
		if err != nil {
			t.Fatal(err)
		}
		req = ev
		break
	}
	busy := `{"status":503,"message":"the database is busy: another ttt held its lock for too long"}`
	if _, err := chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: req.RequestID, ResponseCode: 503,
		ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(busy)}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, fetch.Disable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	want := name + " could not move: the database is busy: another ttt held its lock for too long"
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById("status").textContent.startsWith(%q) && document.getElementById("retry") !== null`, want))
	if free := eval[int](t, ctx, `document.querySelectorAll("#board .cell:not([disabled])").length`); free != 0 {
		t.Errorf("after the failed move %d cells can be played; want none: it is the agent's move", free)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#retry")))
	waitFor(t, ctx, `document.getElementById("status").textContent === "`+name+` played square " + document.getElementById("board").dataset.moves.split(",")[1] + ". Your move." && document.getElementById("board").dataset.moves.split(",").length === 2`)
}

// playGame plays the page's game to its end, the human playing perfect's
// moves (from the API), and checks what the page shows on the way: after
// each of the agent's moves, thoughts of which one at least is like
// thought.
func playGame(t *testing.T, ctx context.Context, url, name string, thought *regexp.Regexp) {
	t.Helper()
	waitFor(t, ctx, `document.querySelectorAll("#board .cell").length === 9 && document.getElementById("opponent").textContent !== "…"`)
	for turn := 0; ; turn++ {
		if turn > 9 {
			t.Fatal("the game did not end within 9 moves")
		}
		state := poll[string](t, ctx, `document.getElementById("board").dataset.over === "true" ? "over"
			: document.querySelector("#board .cell:not([disabled])") ? "move" : ""`)
		if state == "over" {
			break
		}
		// Every row of the board as high as the others, whatever marks
		// they hold.
		if rows := eval[[]float64](t, ctx, `[...document.querySelectorAll("#board .cell")].map(c => c.getBoundingClientRect().height)`); slices.Min(rows) != slices.Max(rows) {
			t.Errorf("the board's squares are %v px high: its rows change as marks appear", rows)
		}
		moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
		if moves != "" {
			// It is the human's turn: the agent made the last move, and
			// the page shows what it thought of each square.
			thoughts := eval[[]string](t, ctx, `[...document.querySelectorAll("#thoughts .thought")].map(e => e.textContent)`)
			chosen := eval[int](t, ctx, `document.querySelectorAll("#thoughts .thought.chosen").length`)
			if len(thoughts) != 9 || chosen != 1 || !slices.ContainsFunc(thoughts, thought.MatchString) {
				t.Errorf("after its move the page shows %q with %d chosen; want 9 cells, one chosen, thoughts like %s", thoughts, chosen, thought)
			}
		}
		var perfect struct{ Move string }
		getJSON(t, url+"api/agents/perfect/move?moves="+moves, &perfect)
		do(t, ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .cell[data-sq="%s"]:not([disabled])`, perfect.Move))))
	}
	status := eval[string](t, ctx, `document.getElementById("status").textContent`)
	result := eval[string](t, ctx, `document.getElementById("status").dataset.result`)
	want := map[string]string{"win": "You win!", "tie": "A tie.", "loss": name + " wins."}[result]
	if want == "" || status != want {
		t.Errorf("at the end the page says %q (result %q)", status, result)
	}
	// The end told by more than words: a colour and a mark of its own.
	if told := eval[string](t, ctx, `(() => { const s = document.getElementById("status"); return getComputedStyle(s).color + " " + getComputedStyle(s, "::before").content; })()`); told != endings[result] {
		t.Errorf("a %s is shown as %q, want %q", result, told, endings[result])
	}
	moves := eval[string](t, ctx, `document.getElementById("board").dataset.moves`)
	t.Logf("a game against %s: moves %s, %s", name, moves, status)
}

// probability and tableValue are how the play page shows a network's
// thought of a square (97.1%) and a table's (-3.54).
var probability, tableValue = regexp.MustCompile(`%$`), regexp.MustCompile(`^-?\d+\.\d\d$`)

// tablePages checks the pages of a table of values in a league: its facts
// say what it is, it downloads its table file and no file for a side,
// and a whole game is played against it, which shows its values.
func tablePages(t *testing.T, ctx context.Context) {
	t.Helper()
	p, path := newLeague(t, 2, tableFlags...)
	_, url := serve(t, path)
	t.Cleanup(func() { chromedp.Run(ctx, chromedp.Navigate("about:blank")) }) // before this server stops

	var a struct {
		Name  string
		Table int
	}
	getJSON(t, url+"api/agents/6", &a)
	do(t, ctx, chromedp.Navigate(url+"agents/6"))
	waitFor(t, ctx, `document.querySelectorAll("#facts dt").length > 0 && document.querySelectorAll("#verify tbody tr").length === 2`)
	facts := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#facts dt")].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
	if facts["method"] != "table" || strings.ReplaceAll(facts["table"], ",", "") != fmt.Sprintf("%d values", a.Table) || facts["network"] != "" {
		t.Errorf("the table's facts: %q; want method table and %d values, no network", facts, a.Table)
	}
	if eval[bool](t, ctx, `document.getElementById("weights-x") !== null`) {
		t.Error("the table's page offers a file for X: a table has no side to fold")
	}
	got := download(t, ctx, "#weights", a.Name+"-table.bin")
	p.OK(t, "export", "--db", "league.db", "--checkpoint", "6", "-o", "table.bin")
	if !bytes.Equal(got, p.File(t, "table.bin")) {
		t.Errorf("the downloaded table (%d bytes) is not ttt export's (%d bytes)", len(got), len(p.File(t, "table.bin")))
	}
	follow(t, ctx, "#play-x")
	playGame(t, ctx, url, a.Name, tableValue)
}
