package web_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/league/web"
	"ttt/store"
)

// TestAPI checks every endpoint against what the terminal commands say
// of the same league: six rounds and a baseline that has not played yet
// (no standing). It serves the league with web.Server over httptest, and
// checks that serving left the league's files byte for byte as they were.
func TestAPI(t *testing.T) {
	p, path := newLeague(t, 6)
	p.OK(t, "train", "--games", "2000", "--hidden", "8", "--db", "league.db")
	// The exports the test compares with go to a directory of their own.
	if err := os.Mkdir(filepath.Join(p.Dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := clitest.Snapshot(t, p.Dir)
	db, err := store.OpenRead(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	h := newServer(t, path)
	srv := httptest.NewServer(h)
	url := srv.URL + "/"
	defer func() {
		h.Close()
		srv.Close()
		db.Close()
		if after := clitest.Snapshot(t, p.Dir); after != before {
			t.Errorf("serving changed the league's directory:\nbefore %s\nafter  %s", before, after)
		}
	}()

	t.Run("leaderboard", func(t *testing.T) {
		var cli []map[string]any
		p.OKJSON(t, &cli, "ratings", "--db", "league.db", "--format", "json")
		var got struct {
			Round, Rated int
			Best         struct{ ID int64 }
			Agents       []map[string]any
		}
		getJSON(t, url+"api/leaderboard", &got)
		if got.Round != 6 || got.Rated != len(cli) || len(got.Agents) != len(cli) {
			t.Fatalf("round %d, rated %d, %d rows; want round 6 and the %d rows of ttt ratings", got.Round, got.Rated, len(got.Agents), len(cli))
		}
		best := 0
		for i, a := range got.Agents {
			c := cli[i]
			same(t, fmt.Sprint("row ", i), a, map[string]any{
				"rank": c["rank"], "id": c["id"], "name": c["agent"], "kind": c["kind"], "method": c["method"], "class": c["class"], "best": c["best"],
				"elo": c["elo"], "lo": c["lo"], "hi": c["hi"], "games": c["games"], "wins": c["wins"], "draws": c["draws"], "losses": c["losses"],
			})
			if a["best"] == true {
				best++
				if a["id"] != float64(got.Best.ID) {
					t.Errorf("row %d is marked best, but best is agent %d", i, got.Best.ID)
				}
			}
			if c["x_lost"] == nil {
				if a["verify"] != nil {
					t.Errorf("row %d (%s): verify %v, want null", i, a["name"], a["verify"])
				}
				continue
			}
			v := a["verify"].(map[string]any)
			for _, side := range []string{"x", "o"} {
				s := v[side].(map[string]any)
				same(t, fmt.Sprint("row ", i, " ", side), s, map[string]any{
					"worst": c[side+"_worst"], "lost": c[side+"_lost"], "lines": c[side+"_lines"], "optimal_pct": c[side+"_optimal_pct"],
				})
			}
		}
		if best != 1 {
			t.Errorf("%d rows are marked best, want 1", best)
		}
		getJSON(t, url+"api/leaderboard?limit=3", &got)
		if len(got.Agents) != 3 || got.Rated != len(cli) {
			t.Errorf("limit=3: %d rows of %d rated", len(got.Agents), got.Rated)
		}
		// A later page holds the rows of ttt ratings after the first, each
		// at its rank in the whole leaderboard.
		getJSON(t, url+"api/leaderboard?limit=3&offset=3", &got)
		if len(got.Agents) != 3 || len(cli) < 6 {
			t.Fatalf("limit=3&offset=3: %d rows of %d rated", len(got.Agents), len(cli))
		}
		for i, a := range got.Agents {
			c := cli[3+i]
			same(t, fmt.Sprint("offset=3, row ", i), a, map[string]any{"rank": c["rank"], "id": c["id"], "name": c["agent"]})
		}
		// Sorted by name (its numbers as numbers), either way: the same
		// rows, one order the other's reverse.
		names := func(order string) []string {
			getJSON(t, url+"api/leaderboard?sort=name&limit=1000&order="+order, &got)
			var list []string
			for _, a := range got.Agents {
				list = append(list, a["name"].(string))
			}
			return list
		}
		asc, desc := names("asc"), names("desc")
		slices.Reverse(desc)
		if len(asc) != len(cli) || !slices.Equal(asc, desc) {
			t.Errorf("sort=name: order=asc gives %q, order=desc reversed %q", asc, desc)
		}
	})

	t.Run("agent", func(t *testing.T) {
		for _, ref := range []string{"best", "latest", "8", "checkpoint-7", "perfect", "random", "baseline-12"} {
			var cli map[string]any
			p.OKJSON(t, &cli, "show", ref, "--db", "league.db", "--format", "json")
			var got map[string]any
			getJSON(t, url+"api/agents/"+ref, &got)
			want := map[string]any{"id": cli["id"], "name": cli["name"], "kind": cli["kind"], "class": cli["class"],
				"generation": cli["generation"], "train_games": cli["train_games"], "hidden": cli["hidden"], "parameters": cli["parameters"],
				"created": cli["created"]}
			same(t, ref, got, want)
			a, err := league.Lookup(t.Context(), db, ref)
			if err != nil {
				t.Fatal(err)
			}
			if m, _ := got["method"].(string); m != a.Method || (a.Method == "") != (got["method"] == nil) {
				t.Errorf("%s: method %v, want %q (null for a built-in player)", ref, got["method"], a.Method)
			}
			if parent := got["parent"]; cli["parent_id"] == nil && parent != nil ||
				cli["parent_id"] != nil && !reflect.DeepEqual(parent, map[string]any{"id": cli["parent_id"], "name": cli["parent"], "kind": "checkpoint"}) {
				t.Errorf("%s: parent %v, ttt show says %v (%v)", ref, parent, cli["parent_id"], cli["parent"])
			}
			if st, _ := got["standing"].(map[string]any); cli["elo"] == nil && st != nil ||
				cli["elo"] != nil && !reflect.DeepEqual(st, map[string]any{"elo": cli["elo"], "lo": cli["lo"], "hi": cli["hi"], "round": cli["rated_round"],
					"games": cli["games"], "wins": cli["wins"], "draws": cli["draws"], "losses": cli["losses"]}) {
				t.Errorf("%s: standing %v, ttt show says elo %v", ref, st, cli["elo"])
			}
			if odds, _ := got["vs_random"].(map[string]any); cli["x_win"] != nil {
				for _, side := range []string{"x", "o"} {
					o := odds[side].(map[string]any)
					same(t, ref+" vs random "+side, o, map[string]any{"win": cli[side+"_win"], "draw": cli[side+"_draw"], "loss": cli[side+"_loss"]})
				}
			} else if odds != nil {
				t.Errorf("%s: odds %v, ttt show has none", ref, odds)
			}
		}
	})

	t.Run("opponents", func(t *testing.T) {
		type row struct {
			ID                  int64
			Name                string
			Kind                string
			Wins, Draws, Losses int
			Score               float64
		}
		type page struct {
			Total     int
			Rows      []row
			NextAfter *int64 `json:"next_after"`
		}
		for _, ref := range []string{"best", "perfect", "random", "6", "checkpoint-8", "latest", "baseline-12"} {
			a, err := league.Lookup(t.Context(), db, ref)
			if err != nil {
				t.Fatal(err)
			}
			// What the matches say, from a's side, by opponent id.
			names := map[int64]*store.Agent{}
			all, err := db.Agents(t.Context(), 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range all {
				names[b.ID] = b
			}
			byID := map[int64]game.Record{}
			err = db.Matches(t.Context(), store.MatchFilter{Agent: a.ID}, func(m store.Match) error {
				if m.A == a.ID {
					byID[m.B] = m.Record
				} else {
					byID[m.A] = m.Record.Reversed()
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			var want []row
			var sum game.Record
			for _, b := range all {
				if rec, ok := byID[b.ID]; ok {
					want = append(want, row{ID: b.ID, Name: b.Name, Kind: string(b.Kind), Wins: rec.Wins, Draws: rec.Draws, Losses: rec.Losses, Score: rec.Score()})
					sum = sum.Plus(rec)
				}
			}
			// Its record over all its games is the sum of these.
			if st := a.Standing; st != nil && st.Record != sum || st == nil && len(want) > 0 {
				t.Errorf("%s: the opponents sum to %v, its standing says %v", ref, sum, st)
			}

			// The agent's answer has the first page.
			var facts struct{ Opponents page }
			getJSON(t, url+"api/agents/"+ref, &facts)
			first := want[:min(len(want), 20)]
			if facts.Opponents.Total != len(want) || !reflect.DeepEqual(facts.Opponents.Rows, first) && len(first) > 0 ||
				(facts.Opponents.NextAfter != nil) != (len(want) > 20) {
				t.Errorf("%s: opponents %+v\nwant %d in all, first %v", ref, facts.Opponents, len(want), first)
			}
			// Pages of two, and of all.
			for _, limit := range []int{2, 1000} {
				var paged []row
				after := "0"
				for n := 0; ; n++ {
					if n > len(want) {
						t.Fatalf("%s: more pages than opponents", ref)
					}
					var got struct {
						Agent struct{ ID int64 }
						page
					}
					getJSON(t, fmt.Sprintf("%sapi/agents/%s/opponents?after=%s&limit=%d", url, ref, after, limit), &got)
					if got.Agent.ID != a.ID || got.Total != len(want) || len(got.Rows) > limit {
						t.Fatalf("%s after %s: agent %d, total %d, %d rows", ref, after, got.Agent.ID, got.Total, len(got.Rows))
					}
					paged = append(paged, got.Rows...)
					if got.NextAfter == nil {
						break
					}
					after = strconv.FormatInt(*got.NextAfter, 10)
				}
				if !reflect.DeepEqual(paged, want) && len(want) > 0 {
					t.Errorf("%s in pages of %d:\n%v\nwant\n%v", ref, limit, paged, want)
				}
			}
		}
	})

	t.Run("history", func(t *testing.T) {
		var all []map[string]any
		p.OKJSON(t, &all, "ratings", "history", "--db", "league.db", "--format", "json")
		for _, ref := range []string{"best", "7", "perfect", "random"} {
			var got struct {
				Agent       struct{ ID float64 }
				NewestRound int64 `json:"newest_round"`
				Per         string
				Rows        []map[string]any
			}
			getJSON(t, url+"api/agents/"+ref+"/history", &got)
			var want []map[string]any
			for _, r := range all {
				if r["id"] == got.Agent.ID {
					want = append(want, map[string]any{"round": r["round"], "elo": r["elo"], "lo": r["lo"], "hi": r["hi"], "games": r["games"]})
				}
			}
			if got.Per != "stored" || got.NewestRound != 6 || len(want) == 0 || !reflect.DeepEqual(got.Rows, want) {
				t.Errorf("%s: per %q, newest round %d, rows\n%v\nttt ratings history has\n%v", ref, got.Per, got.NewestRound, got.Rows, want)
			}

			// Carried forward, as ttt ratings history --agent lists it.
			var cli []map[string]any
			p.OKJSON(t, &cli, "ratings", "history", "--agent", ref, "--db", "league.db", "--format", "json")
			want = nil
			for _, r := range cli {
				want = append(want, map[string]any{"round": r["round"], "elo": r["elo"], "lo": r["lo"], "hi": r["hi"], "games": r["games"], "stored": r["stored"]})
			}
			getJSON(t, url+"api/agents/"+ref+"/history?per=round", &got)
			if got.Per != "round" || !reflect.DeepEqual(got.Rows, want) {
				t.Errorf("%s per=round: rows\n%v\nttt ratings history --agent has\n%v", ref, got.Rows, want)
			}
			// In pages of two rounds.
			restore := web.SetMaxRoundRows(2)
			var paged []map[string]any
			for next := "1"; next != ""; {
				var page struct {
					Rows     []map[string]any
					NextFrom *int64 `json:"next_from"`
				}
				getJSON(t, url+"api/agents/"+ref+"/history?per=round&from="+next, &page)
				if len(page.Rows) > 2 || len(page.Rows) < 2 && page.NextFrom != nil {
					t.Fatalf("%s from=%s: %d rows, next_from %v", ref, next, len(page.Rows), page.NextFrom)
				}
				paged, next = append(paged, page.Rows...), ""
				if page.NextFrom != nil {
					next = strconv.FormatInt(*page.NextFrom, 10)
				}
			}
			restore()
			if !reflect.DeepEqual(paged, want) {
				t.Errorf("%s per=round in pages of 2: rows\n%v\nwant\n%v", ref, paged, want)
			}
			// One round: the one before the last, if the agent was rated then.
			row := want[max(0, len(want)-2)]
			one := fmt.Sprintf("from=%v&to=%[1]v", row["round"])
			getJSON(t, url+"api/agents/"+ref+"/history?per=round&"+one, &got)
			if len(got.Rows) != 1 || !reflect.DeepEqual(got.Rows[0], row) {
				t.Errorf("%s per=round&%s: %v", ref, one, got.Rows)
			}
		}
	})

	t.Run("history of an unrated agent", func(t *testing.T) {
		for _, query := range []string{"", "?per=round"} {
			var got map[string]any
			getJSON(t, url+"api/agents/baseline-12/history"+query, &got)
			if rows, ok := got["rows"].([]any); !ok || len(rows) != 0 || got["next_from"] != nil {
				t.Errorf("%s: %v, want no rows", query, got)
			}
		}
	})

	t.Run("progress", func(t *testing.T) {
		rounds, err := db.Rounds(t.Context(), 1, 6)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			NewestRound int64 `json:"newest_round"`
			Thinned     bool
			Points      []struct {
				Round, Agent int64
				Method       string
				Elo, Lo, Hi  float64
			}
			References []struct {
				Name string
				Elo  float64
			}
		}
		getJSON(t, url+"api/progress", &got)
		if got.NewestRound != 6 || got.Thinned || len(got.Points) != len(rounds) {
			t.Fatalf("newest round %d, thinned %v, %d points; want 6, false, %d", got.NewestRound, got.Thinned, len(got.Points), len(rounds))
		}
		for i, r := range rounds {
			pt := got.Points[i]
			if pt.Round != r.ID || pt.Agent != r.Snapshot || pt.Method != r.Agent.Method || pt.Method != "policy" ||
				pt.Elo != r.Rating.Elo || pt.Lo != r.Rating.Lo || pt.Hi != r.Rating.Hi {
				t.Errorf("point %d: %+v; round %d has snapshot %d at %+v", i, pt, r.ID, r.Snapshot, *r.Rating)
			}
		}
		// after=ROUND: the points since, not the whole curve.
		var since struct {
			NewestRound int64 `json:"newest_round"`
			Whole       bool
			Points      []struct{ Round int64 }
		}
		getJSON(t, url+"api/progress?after=3", &since)
		if since.NewestRound != 6 || since.Whole || len(since.Points) != 3 || since.Points[0].Round != 4 || since.Points[2].Round != 6 {
			t.Errorf("progress?after=3: %+v; want rounds 4 to 6, not whole", since)
		}
		getJSON(t, url+"api/progress?after=6", &since)
		if since.Whole || len(since.Points) != 0 {
			t.Errorf("progress?after=6: %+v; want no point", since)
		}
		getJSON(t, url+"api/progress?after=99", &since)
		if !since.Whole || len(since.Points) != len(rounds) {
			t.Errorf("progress?after=99, a round to come: %+v; want the whole curve", since)
		}
		if status, body, _ := get(t, url+"api/progress?after=-1"); status != 400 {
			t.Errorf("progress?after=-1: %d %s; want 400", status, body)
		}
		// The references are the rated built-in players, at their ratings.
		want := map[string]float64{}
		for _, b := range agents.TicTacToe.Builtins {
			a, err := db.Agent(t.Context(), b.Name)
			if err != nil {
				t.Fatal(err)
			}
			if a.Standing != nil {
				want[a.Name] = a.Standing.Elo
			}
		}
		refs := map[string]float64{}
		for _, r := range got.References {
			refs[r.Name] = r.Elo
		}
		if !maps.Equal(refs, want) || want["random"] != 0 || len(want) < 3 {
			t.Errorf("references %+v; the rated built-in players are %v", got.References, want)
		}
	})

	t.Run("weights", func(t *testing.T) {
		for _, side := range []string{"", "X", "O"} {
			var best struct{ Name string }
			getJSON(t, url+"api/agents/best", &best)
			args := []string{"export", "--db", "league.db", "--checkpoint", "best", "-o", "out/best.bin", "--force"} // each side's file over the last
			query, name := "", best.Name+"-19in.bin"
			if side != "" {
				args = append(args, "--side", side)
				query, name = "?side="+strings.ToLower(side), best.Name+"-"+side+"-18in.bin"
			}
			p.OK(t, args...)
			status, body, h := get(t, url+"api/agents/best/weights"+query)
			if status != http.StatusOK || h.Get("Content-Type") != "application/octet-stream" ||
				h.Get("Content-Disposition") != "attachment; filename="+name || string(body) != string(p.File(t, "out/best.bin")) {
				t.Errorf("side %q: %d %s %q, %d bytes; want ttt export's %d bytes as %s", side, status, h.Get("Content-Type"),
					h.Get("Content-Disposition"), len(body), len(p.File(t, "out/best.bin")), name)
			}
		}
	})

	t.Run("move", func(t *testing.T) {
		best, err := league.Lookup(t.Context(), db, "best")
		if err != nil {
			t.Fatal(err)
		}
		bestModel, err := league.ModelOf(agents.TicTacToe, best)
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			Agent         struct{ Name string }
			Board         string
			ToMove        string `json:"to_move"`
			Move          string
			Probabilities []float32
			Values        []*string
			After, Result string
		}
		solved := tictactoe.Solve()
		for _, moves := range [][]int{nil, {4}, {4, 0}, {0, 1, 4}, {4, 0, 8, 2}, {0, 4, 8, 2, 6, 3, 5}} {
			b := tictactoe.Board{}
			list := make([]string, len(moves))
			for i, sq := range moves {
				b = b.Play(sq)
				list[i] = strconv.Itoa(sq)
			}
			// The same board three ways: nine squares, the moves, a POST.
			var byBoard, byMoves, posted answer
			getJSON(t, url+"api/agents/best/move?board="+b.Compact(), &byBoard)
			getJSON(t, url+"api/agents/best/move?moves="+strings.Join(list, ","), &byMoves)
			status, body, _ := send(t, http.MethodPost, url+"api/agents/best/move", strings.NewReader(fmt.Sprintf(`{"board": %q}`, b.Compact())))
			if status != http.StatusOK || json.Unmarshal(body, &posted) != nil {
				t.Fatalf("POST %s: %d %s", b.Compact(), status, body)
			}
			if !reflect.DeepEqual(byBoard, byMoves) || !reflect.DeepEqual(byBoard, posted) {
				t.Errorf("%s: board= %+v, moves= %+v, POST %+v", b.Compact(), byBoard, byMoves, posted)
			}
			var pass nn.Pass
			net := bestModel.(*nn.Net)
			net.Forward(b.Position(), &pass)
			want := net.Greedy(b.Position(), &pass)
			if byBoard.Move != strconv.Itoa(want) || !slices.Equal(byBoard.Probabilities, pass.Probs[:9]) || byBoard.Values != nil ||
				byBoard.Board != b.Compact() || byBoard.ToMove != b.ToMove().String() || byBoard.After != b.Play(want).Compact() ||
				byBoard.Result != b.Play(want).Result().String() {
				t.Errorf("best on %s: %+v; want square %d, probabilities %v", b.Compact(), byBoard, want, pass.Probs)
			}

			var perfect answer
			getJSON(t, url+"api/agents/perfect/move?board="+b.Compact(), &perfect)
			if perfect.Move != strconv.Itoa(tictactoe.Perfect().Move(b.Position())) || perfect.Probabilities != nil || len(perfect.Values) != 9 {
				t.Errorf("perfect on %s: %+v", b.Compact(), perfect)
			} else {
				for sq, v := range perfect.Values {
					if b.IsEmpty(sq) != (v != nil) || v != nil && *v != solved.MoveValue(b, sq).String() {
						t.Errorf("perfect on %s: square %d has value %v", b.Compact(), sq, v)
					}
				}
			}

			var random answer
			getJSON(t, url+"api/agents/random/move?board="+b.Compact(), &random)
			if sq, err := strconv.Atoi(random.Move); err != nil || len(random.Probabilities) != 9 || !b.IsEmpty(sq) {
				t.Errorf("random on %s: %+v", b.Compact(), random)
			} else {
				for sq, pr := range random.Probabilities {
					if want := float32(0); b.IsEmpty(sq) && pr != 1/float32(9-b.Moves()) || !b.IsEmpty(sq) && pr != want {
						t.Errorf("random on %s: square %d has chance %v", b.Compact(), sq, pr)
					}
				}
			}
		}
	})

	t.Run("downloads", func(t *testing.T) {
		download := func(path, contentType, name string) []byte {
			t.Helper()
			status, body, h := get(t, url+path)
			if status != http.StatusOK || h.Get("Content-Type") != contentType || h.Get("Content-Disposition") != "attachment; filename="+name {
				t.Fatalf("GET /%s: %d %s %q\n%.300s", path, status, h.Get("Content-Type"), h.Get("Content-Disposition"), body)
			}
			return body
		}
		readCSV := func(body []byte) [][]string {
			t.Helper()
			rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			return rows
		}
		// The learning curve: a row a round, as the API's points.
		var progress struct {
			Points []struct {
				Round, Agent int64
				Method       string
				Elo, Lo, Hi  float64
			}
		}
		getJSON(t, url+"api/progress", &progress)
		rows := readCSV(download("api/progress.csv", "text/csv; charset=utf-8", "learning-curve.csv"))
		var want [][]string
		want = append(want, []string{"round", "agent", "method", "elo", "lo", "hi"})
		for _, p := range progress.Points {
			f := func(v float64) string { return string(league.AppendNumber(nil, v)) }
			want = append(want, []string{strconv.FormatInt(p.Round, 10), strconv.FormatInt(p.Agent, 10), p.Method, f(p.Elo), f(p.Lo), f(p.Hi)})
		}
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("the learning curve's CSV:\n%q\nwant\n%q", rows, want)
		}
		// Every opponent of perfect, as the API's pages.
		var opponents struct {
			Rows []struct {
				ID                  int64
				Name, Kind          string
				Wins, Draws, Losses int
			}
		}
		getJSON(t, url+"api/agents/perfect/opponents?limit=1000", &opponents)
		rows = readCSV(download("api/agents/perfect/opponents.csv", "text/csv; charset=utf-8", "perfect-opponents.csv"))
		if len(rows) != len(opponents.Rows)+1 || len(opponents.Rows) == 0 {
			t.Fatalf("perfect's opponents: %d rows of CSV, %d in the API", len(rows), len(opponents.Rows))
		}
		for i, o := range opponents.Rows {
			row := rows[i+1]
			if row[0] != strconv.FormatInt(o.ID, 10) || row[1] != o.Name || row[2] != o.Kind || row[4] != strconv.Itoa(o.Wins) || row[5] != strconv.Itoa(o.Draws) || row[6] != strconv.Itoa(o.Losses) {
				t.Errorf("perfect's opponent %d: CSV %q, API %+v", i, row, o)
			}
		}
		// The best's games: ttt games export's, but for the site.
		best, err := league.Lookup(t.Context(), db, "best")
		if err != nil {
			t.Fatal(err)
		}
		games := download("api/agents/best/games.pgn", "application/x-chess-pgn", best.Name+".pgn")
		cli := strings.ReplaceAll(p.OK(t, "games", "export", "--db", "league.db", "--agent", "best", "--pgn", "-"), `[Site "league.db"]`, `[Site "ttt serve"]`)
		if string(games) != cli || !strings.Contains(cli, `[Site "ttt serve"]`) {
			t.Errorf("the best's games: %d bytes of PGN; ttt games export --agent best writes %d", len(games), len(cli))
		}
	})

	t.Run("compare", func(t *testing.T) {
		// The API's figures are ttt compare's.
		out := p.OK(t, "compare", "6", "best", "--db", "league.db")
		var c struct {
			Record      struct{ Wins, Draws, Losses int }
			Diff        struct{ Elo, Lo, Hi float64 }
			Compared    int
			Differences []struct{ A, B struct{ Move, Value string } }
		}
		getJSON(t, url+"api/compare/6/best", &c)
		r := c.Record
		for _, want := range []string{
			fmt.Sprintf("head to head:  W/D/L %d/%d/%d", r.Wins, r.Draws, r.Losses),
			fmt.Sprintf("difference:    %+.1f (95%%: %+.1f to %+.1f)", c.Diff.Elo, c.Diff.Lo, c.Diff.Hi),
			fmt.Sprintf("different in %d of %d positions", len(c.Differences), c.Compared),
		} {
			if !strings.Contains(out, want) {
				t.Errorf("ttt compare 6 best says\n%.500s\nthe API %q", out, want)
			}
		}
		var figures struct {
			Compared    *int
			Differences []any
		}
		getJSON(t, url+"api/compare/3/best?positions=0", &figures)
		if figures.Compared != nil || figures.Differences != nil {
			t.Errorf("positions=0 answers positions: %+v", figures)
		}
		type rating struct{ Elo, Lo, Hi float64 }
		var health struct {
			Running     bool
			NewestRound int64 `json:"newest_round"`
			Best        struct {
				ID       int64
				Standing rating
				Ladder   *rating
			}
			Float *float64
		}
		getJSON(t, url+"api/health", &health)
		if best, _ := league.Lookup(t.Context(), db, "best"); health.Running || health.NewestRound != 6 || health.Best.ID != best.ID {
			t.Errorf("the health of a league at rest: %+v", health)
		}
		// The best's ladder rating, within ±30 by its extra games, and
		// how far the league's Elo floats from it; the agent's page and
		// the leaderboard say the same.
		l := health.Best.Ladder
		if l == nil || health.Float == nil || (l.Hi-l.Lo)/2 > league.LadderHalf || math.Abs(*health.Float-(health.Best.Standing.Elo-l.Elo)) > 1e-9 {
			t.Fatalf("the health's best: ladder %+v, float %v; want a ladder rating within ±%v and the league's Elo minus it", l, health.Float, league.LadderHalf)
		}
		var facts struct {
			Ladder *rating
			Float  *float64
		}
		getJSON(t, url+"api/agents/best", &facts)
		if facts.Ladder == nil || *facts.Ladder != *l || facts.Float == nil || *facts.Float != *health.Float {
			t.Errorf("the best's page: ladder %+v, float %v; the health says %+v, %v", facts.Ladder, facts.Float, *l, *health.Float)
		}
		var board struct {
			Agents []struct {
				ID     int64
				Kind   string
				Ladder *rating
			}
		}
		getJSON(t, url+"api/leaderboard", &board)
		for _, a := range board.Agents {
			switch {
			case a.ID == health.Best.ID && (a.Ladder == nil || *a.Ladder != *l):
				t.Errorf("the leaderboard's best: ladder %+v, want %+v", a.Ladder, *l)
			case a.Ladder != nil && a.Kind != "checkpoint":
				t.Errorf("the leaderboard gives %s %d a ladder rating %+v", a.Kind, a.ID, *a.Ladder)
			}
		}
	})

	t.Run("events", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"api/events", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if ct := res.Header.Get("Content-Type"); res.StatusCode != http.StatusOK || ct != "text/event-stream" {
			t.Fatalf("%d %s", res.StatusCode, ct)
		}
		ev := nextEvent(t, bufio.NewReader(res.Body))
		if ev != 6 {
			t.Errorf("the first event says round %d, want 6", ev)
		}
	})

	t.Run("game", func(t *testing.T) {
		if lines := inRow(3, 3, 3); len(lines) != 8 {
			t.Fatalf("tic-tac-toe has %d lines of three, want 8", len(lines))
		}
		checkGame(t, url, gameWant{Name: "tictactoe", Title: "tic-tac-toe", Move: "square", Moves: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8"},
			Full: "taken", Rows: 3, Cols: 3, Lines: inRow(3, 3, 3), Solved: true, Board: true})
	})

	t.Run("pages", func(t *testing.T) {
		for path, ct := range map[string]string{
			"":                                      "text/html; charset=utf-8",
			"agents/best":                           "text/html; charset=utf-8",
			"agents/checkpoint-7":                   "text/html; charset=utf-8",
			"play/5":                                "text/html; charset=utf-8",
			"static/style.css":                      "text/css; charset=utf-8",
			"static/leaderboard.js":                 "text/javascript; charset=utf-8",
			"static/favicon.svg":                    "image/svg+xml",
			"static/vendor/uplot/uPlot.iife.min.js": "text/javascript; charset=utf-8",
		} {
			status, body, h := get(t, url+path)
			if status != http.StatusOK || h.Get("Content-Type") != ct || len(body) == 0 {
				t.Errorf("/%s: %d %s, %d bytes; want 200 %s", path, status, h.Get("Content-Type"), len(body), ct)
			}
		}
	})

	t.Run("bad requests", func(t *testing.T) { badRequests(t, url) })
}

// badRequests sends requests that cannot be answered, and checks that
// each gets the status it should and a JSON error that says why.
func badRequests(t *testing.T, url string) {
	huge := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "api/agents/99", "", 404, `no such agent: "99"`},
		{"GET", "api/agents/nobody/history", "", 404, `no such agent: "nobody"`},
		{"GET", "api/agents/0/weights", "", 404, `no such agent: "0"`},
		{"GET", "api/agents/-1/move", "", 404, `no such agent: "-1"`},
		{"GET", "api/leaderboard?sort=nope", "", 400, "sort must be one of class, draws, elo, games, hi, id, lo, losses, name, share, wins"},
		{"GET", "api/leaderboard?order=up", "", 400, "order must be asc or desc"},
		{"GET", "api/leaderboard?class=great", "", 400, "class must be perfect, unbeatable or beatable"},
		{"GET", "api/leaderboard?offset=-1", "", 400, "offset must be a whole number"},
		{"GET", "api/leaderboard?min_games=x", "", 400, "min_games must be a whole number"},
		{"GET", "api/compare/best/best", "", 400, "are one agent"},
		{"GET", "api/compare/best/nobody", "", 404, `no such agent: "nobody"`},
		{"GET", "api/agents/", "", 404, "no such endpoint"},
		{"GET", "api/nothing", "", 404, "no such endpoint"},
		// Pages and files: the same JSON errors.
		{"GET", "nothing", "", 404, "no such page: /nothing"},
		{"GET", "agents/", "", 404, "no such page: /agents/"},
		{"GET", "agents/best/more", "", 404, "no such page"},
		{"GET", "static/nothing.js", "", 404, "no such file: /static/nothing.js"},
		{"GET", "static/vendor/", "", 404, "no such file"},
		{"GET", "static/vendor", "", 404, "no such file"},
		{"GET", "static/", "", 404, "no such file"},
		{"GET", "static", "", 404, "no such file: /static/"}, // redirected to /static/
		{"GET", "api/agents/perfect/weights", "", 404, "built-in perfect player: it learned no model"},
		{"GET", "api/agents/best/weights?side=Z", "", 400, `side must be X or O, not "Z"`},
		{"GET", "api/leaderboard?limit=0", "", 400, "limit must be a whole number from 1 to 1000"},
		{"GET", "api/leaderboard?limit=1001", "", 400, "limit must be"},
		{"GET", "api/leaderboard?limit=ten", "", 400, "limit must be"},
		{"GET", "api/agents/best/history?per=day", "", 400, "per must be stored or round"},
		{"GET", "api/agents/best/history?per=round&from=0", "", 400, `from must be a round number (1 or more) (got "0")`},
		{"GET", "api/agents/best/history?per=round&to=x", "", 400, `to must be a round number (1 or more) (got "x")`},
		{"GET", "api/agents/best/history?per=round&from=100&to=3", "", 400, "from must not be after to (from=100, to=3)"},
		{"GET", "api/agents/best/opponents?after=-1", "", 400, `after must be an agent id (0 or more) (got "-1")`},
		{"GET", "api/agents/best/opponents?limit=1001", "", 400, "limit must be a whole number from 1 to 1000"},
		{"GET", "api/agents/nobody/opponents", "", 404, `no such agent: "nobody"`},
		{"GET", "api/agents/best/history?from=2", "", 400, "from and to go with per=round"},

		// Boards a game cannot reach, or that are over, or malformed.
		{"GET", "api/agents/best/move?board=XX.......", "", 400, "2 X and 0 O cannot happen"},
		{"GET", "api/agents/best/move?board=O........", "", 400, "0 X and 1 O cannot happen"},
		{"GET", "api/agents/best/move?board=XXXOOO...", "", 400, "X and O both have three in a row"},
		{"GET", "api/agents/best/move?board=XXX.OO.O.", "", 400, "X has three in a row, so O cannot have moved after it"},
		{"GET", "api/agents/best/move?board=OOOXX.XX.", "", 400, "O has three in a row, so X cannot have moved after it"},
		{"GET", "api/agents/best/move?board=XXXOO....", "", 400, `board "XXXOO....": the game is over (X wins)`},
		{"GET", "api/agents/perfect/move?board=XOXXOOOXX", "", 400, "the game is over (tie)"},
		{"GET", "api/agents/best/move?board=XOX", "", 400, "want 9 characters"},
		{"GET", "api/agents/best/move?board=XO..a....", "", 400, `square 4 is 'a'`},
		{"GET", "api/agents/best/move?board=", "", 400, "want 9 characters"},
		{"GET", "api/agents/best/move?moves=4,4", "", 400, "move 2 (O on 4): square 4 is taken"},
		{"GET", "api/agents/best/move?moves=9", "", 400, "square 9 is off the board"},
		{"GET", "api/agents/best/move?moves=4,a", "", 400, `"a" is not a square number`},
		{"GET", "api/agents/best/move?moves=0,3,1,4,2,5", "", 400, "move 6 (O on 5): the game is over"},
		{"GET", "api/agents/best/move?moves=0,3,1,4,2", "", 400, "the game is over (X wins)"},
		{"GET", "api/agents/best/move?moves=4&board=....X....", "", 400, "give board or moves, not both"},
		{"POST", "api/agents/best/move", `{"board": "....X....", "moves": [4]}`, 400, "give board or moves, not both"},
		{"POST", "api/agents/best/move", `{"board": "XX......."}`, 400, "2 X and 0 O cannot happen"},
		{"POST", "api/agents/best/move", `{"moves": [4, 4]}`, 400, "square 4 is taken"},
		{"POST", "api/agents/best/move", `{"square": 4}`, 400, `unknown field "square"`},
		{"POST", "api/agents/best/move", `{"moves": [4]} {"moves": [0]}`, 400, "more than one JSON value"},
		{"POST", "api/agents/best/move", `board=X........`, 400, "the body must be"},
		{"POST", "api/agents/best/move", ``, 400, "the body is empty"},
		{"POST", "api/agents/best/move", `{"board": "` + huge + `"}`, 413, "request body too large"},

		// Methods.
		{"PUT", "api/leaderboard", "", 405, "method PUT is not allowed here: use GET, HEAD"},
		{"POST", "api/leaderboard", huge, 405, "method POST is not allowed"},
		{"DELETE", "api/agents/best", "", 405, "method DELETE is not allowed"},
		{"POST", "api/agents/best/weights", "", 405, "use GET, HEAD"},
		{"PUT", "api/agents/best/move", "", 405, "use GET, POST, HEAD"},
		{"POST", "", "", 405, "method POST is not allowed"},
		{"POST", "static/style.css", "", 405, "method POST is not allowed"},
	} {
		var body io.Reader
		if c.body != "" {
			body = strings.NewReader(c.body)
		}
		status, data, h := send(t, c.method, url+c.path, body)
		var e struct {
			Status  int
			Message string
		}
		err := json.Unmarshal(data, &e)
		if status != c.status || h.Get("Content-Type") != "application/json" || err != nil || e.Status != status || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s /%s: %d %s %.300s; want %d and a JSON message with %q", c.method, c.path, status, h.Get("Content-Type"), data, c.status, c.want)
		}
		if status == http.StatusMethodNotAllowed && h.Get("Allow") == "" {
			t.Errorf("%s /%s: 405 without Allow", c.method, c.path)
		}
	}
}

// nextEvent reads the event stream up to its next round event and
// returns the round it names.
func nextEvent(t testing.TB, r *bufio.Reader) int64 {
	t.Helper()
	event := ""
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the event stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "round":
			var d struct{ Round int64 }
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("event data %q: %v", line, err)
			}
			return d.Round
		}
	}
}

// roundAfter returns the round of the next event of r that names a round
// after last: events also say when a league run starts or stops.
func roundAfter(t testing.TB, r *bufio.Reader, last int64) int64 {
	t.Helper()
	for {
		if round := nextEvent(t, r); round > last {
			return round
		}
	}
}

// same checks that got has want's fields, with want's values.
func same(t testing.TB, what string, got, want map[string]any) {
	t.Helper()
	for k, w := range want {
		if g, ok := got[k]; !ok || !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s is %v (%T), want %v (%T)", what, k, g, g, w, w)
		}
	}
}

// gameWant is /api/game's answer, as the pages read it.
type gameWant struct {
	Name, Title, Move, Full   string
	Moves                     []string
	Rows, Cols                int
	Drop, Solved, Sets, Board bool
	Lines                     [][][2]int
}

// checkGame checks /api/game against want: its fields, by their JSON
// names, and its lines as a set (in any order, each line's cells in any
// order).
func checkGame(t *testing.T, url string, want gameWant) {
	t.Helper()
	var fields map[string]any
	getJSON(t, url+"api/game", &fields)
	if got, want := slices.Sorted(maps.Keys(fields)), []string{"board", "cols", "drop", "full", "lines", "move", "moves", "name", "rows", "sets", "solved", "title"}; !slices.Equal(got, want) {
		t.Errorf("/api/game has the fields %q, want %q", got, want)
	}
	var got gameWant
	getJSON(t, url+"api/game", &got)
	asSet := func(lines [][][2]int) []string {
		var out []string
		for _, l := range lines {
			cells := slices.Clone(l)
			slices.SortFunc(cells, func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
			out = append(out, fmt.Sprint(cells))
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(asSet(got.Lines), asSet(want.Lines)) {
		t.Errorf("/api/game's %d lines are %v, want the %d of %v", len(got.Lines), got.Lines, len(want.Lines), want.Lines)
	}
	got.Lines, want.Lines = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("/api/game says %+v, want %+v", got, want)
	}
}

// inRow returns every line of n cells in a row, across, down or
// diagonally, on a board of rows by cols, as [row, column] pairs.
func inRow(rows, cols, n int) [][][2]int {
	var lines [][][2]int
	for r := range rows {
		for c := range cols {
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				if end := [2]int{r + (n-1)*d[0], c + (n-1)*d[1]}; end[0] >= rows || end[1] < 0 || end[1] >= cols {
					continue
				}
				line := make([][2]int, n)
				for k := range line {
					line[k] = [2]int{r + k*d[0], c + k*d[1]}
				}
				lines = append(lines, line)
			}
		}
	}
	return lines
}
