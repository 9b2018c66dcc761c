package main_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ttt/agents/testkit"
	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/league/web"
	"ttt/store"
)

// TestKillAfterARound kills `ttt league run` with SIGKILL 0 to 2 seconds
// after a round line, 20 times, the delays spread evenly: some kills
// come while the new best plays its extra games against the ladder,
// which are stored after the round's commit, others in the rounds after.
// After each kill every reader (ttt ratings, as a table and CSV; ttt
// show; ttt league show; ttt check; ttt serve's leaderboard, agent and
// health answers) shows each network's ladder rating either as the
// final one, which the next run leaves as it is, or marked provisional.
// The next run, which plays what a kill left owed before its first
// round, is one that starts no round (--duration 1ms): what it leaves
// is the league as the killed run would have left it.
//
// It belongs to the long tier; TestKillAfterARoundTwice is its quick
// sibling.
func TestKillAfterARound(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "20 kills 0-2 s after a round line; TestKillAfterARoundTwice kills twice")
	killAfterRounds(t, 20)
}

// TestKillAfterARoundTwice is TestKillAfterARound with two kills: the
// first at once after a round line, where a best's extra games are
// under way if that round made a new best, the second a second later.
func TestKillAfterARoundTwice(t *testing.T) {
	t.Parallel()
	killAfterRounds(t, 2)
}

// ladderShown is a network's ladder rating as a reader shows it.
type ladderShown struct {
	elo         float64
	text        string // as the reader printed it, where it rounds
	provisional bool
}

// killAfterRounds kills a league run kills times, each i*2s/kills after
// the first round line of its run, and checks the readers after each.
func killAfterRounds(t *testing.T, kills int) {
	p := built(t)
	path := filepath.Join(p.Dir, "league.db")
	// One worker: the extra games of a tic-tac-toe best take some
	// hundreds of milliseconds, a target within the two seconds.
	flags := []string{"--db", "league.db", "--games-per-round", "300", "--hidden", "8", "--seed", "11", "--workers", "1"}
	provisional := 0
	for i := range kills {
		r := start(t, p, append([]string{"league", "run"}, flags...)...)
		var l clitest.Line
		for {
			var ok bool
			if l, ok = r.Line(t, r.next); !ok {
				_, stderr, code := r.Wait(t)
				t.Fatalf("ttt league run ended with %d before a round: %s", code, stderr)
			}
			r.next++
			if roundLineRE.MatchString(l.Text) && !asideRE.MatchString(l.Text) {
				break
			}
		}
		// The pause is the point: it aims the kill at a moment after the
		// round, with no hook in the program.
		delay := time.Duration(i) * 2 * time.Second / time.Duration(kills)
		time.Sleep(time.Until(l.At.Add(delay)))
		r.kill(t)

		shown := readLadders(t, p, path)
		owed := map[int64]bool{}
		for reader, ladders := range shown {
			for id, l := range ladders {
				if l.provisional {
					owed[id] = true
					if reader == "ratings" {
						provisional++
					}
				}
			}
		}
		// Only the best after the last round can owe games, and every
		// reader that shows it says so.
		if len(owed) > 1 {
			t.Errorf("kill %d: %d networks' ladder ratings provisional, want the best's at most", i, len(owed))
		}
		for reader, ladders := range shown {
			for id, l := range ladders {
				if owed[id] && !l.provisional {
					t.Errorf("kill %d: %s shows agent %d's ladder rating %s as final; another reader calls it provisional", i, reader, id, l.text)
				}
			}
		}

		// The next run plays what is owed, and starts no round.
		out := p.OK(t, "league", "run", "--db", "league.db", "--workers", "1", "--duration", "1ms")
		final := finalLadders(t, path)
		for reader, ladders := range shown {
			for id, l := range ladders {
				f, ok := final[id]
				switch {
				case !ok:
					t.Errorf("kill %d: agent %d has no final ladder rating after the next run; %s showed %s:\n%s", i, id, reader, l.text, out)
				case l.provisional:
				case l.text == fmt.Sprintf("%.1f", f) || l.elo == f: // rounded as the reader prints, or exact
				default:
					t.Errorf("kill %d: %s showed agent %d's ladder rating %s as final; after the next run it is %v", i, reader, id, l.text, f)
				}
			}
		}
		t.Logf("kill %2d, %v after round line %q: provisional %v", i, delay, strings.Fields(l.Text)[:2], owed)
	}
	if kills >= 10 && provisional == 0 {
		t.Errorf("none of %d kills left a provisional ladder rating: none came while a best played its extra games", kills)
	}
	t.Logf("%d of %d kills left a provisional ladder rating", provisional, kills)
}

// readLadders reads the networks' ladder ratings from every reader, in
// process, by the reader's name: the agent's id, its rating, and whether
// the reader calls it provisional. ttt check must find the league healthy,
// and name each provisional rating.
func readLadders(t *testing.T, p clitest.TTT, path string) map[string]map[int64]ladderShown {
	t.Helper()
	in := clitest.TTT{Dir: p.Dir} // in-process: no kill is the point here
	out := map[string]map[int64]ladderShown{}
	add := func(reader string, id int64, l ladderShown) {
		if out[reader] == nil {
			out[reader] = map[int64]ladderShown{}
		}
		out[reader][id] = l
	}

	// ttt ratings --format csv: every rated agent.
	rows, err := csv.NewReader(strings.NewReader(in.OK(t, "ratings", "--all", "--format", "csv"))).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("ratings --format csv: %d rows (%v)", len(rows), err)
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	var best int64
	for _, row := range rows[1:] {
		if row[col["kind"]] != "checkpoint" || row[col["ladder_elo"]] == "" {
			continue
		}
		id, _ := strconv.ParseInt(row[col["id"]], 10, 64)
		elo, _ := strconv.ParseFloat(row[col["ladder_elo"]], 64)
		add("ratings", id, ladderShown{elo: elo, text: row[col["ladder_elo"]], provisional: row[col["ladder_provisional"]] == "true"})
		if row[col["best"]] == "true" {
			best = id
		}
	}
	if best == 0 {
		t.Fatal("ratings --format csv names no best with a ladder rating")
	}

	// ttt ratings: the best's line under the table.
	table := in.OK(t, "ratings")
	i := strings.Index(table, "; ladder ")
	if i < 0 {
		t.Fatalf("ratings: no ladder rating of the best:\n%s", table)
	}
	text := strings.Fields(table[i+len("; ladder "):])[0]
	elo, _ := strconv.ParseFloat(text, 64)
	add("ratings table", best, ladderShown{elo: elo, text: text, provisional: strings.Contains(table[i:], "(provisional: ")})

	// ttt show best and ttt league show, as JSON.
	var show struct {
		ID          int64   `json:"id"`
		Ladder      float64 `json:"ladder_elo"`
		Provisional bool    `json:"ladder_provisional"`
	}
	in.OKJSON(t, &show, "show", "best", "--format", "json")
	add("show", show.ID, ladderShown{elo: show.Ladder, text: fmt.Sprint(show.Ladder), provisional: show.Provisional})
	var leagueShow struct {
		Ladder      float64 `json:"best_ladder"`
		Provisional bool    `json:"best_ladder_provisional"`
	}
	in.OKJSON(t, &leagueShow, "league", "show", "--format", "json")
	add("league show", show.ID, ladderShown{elo: leagueShow.Ladder, text: fmt.Sprint(leagueShow.Ladder), provisional: leagueShow.Provisional})

	// ttt check: healthy, with a line for each provisional rating.
	check := in.OK(t, "check")
	if !strings.Contains(check, " is healthy: ") {
		t.Errorf("check after a kill:\n%s", check)
	}
	for _, line := range strings.Split(strings.TrimSpace(check), "\n") {
		var id int64
		if _, err := fmt.Sscanf(line, "agent %d ", &id); err == nil && strings.Contains(line, " is provisional: ") {
			l := out["ratings"][id]
			add("check", id, ladderShown{elo: l.elo, text: l.text, provisional: true})
		}
	}
	for id, l := range out["ratings"] {
		if _, said := out["check"][id]; l.provisional && !said {
			t.Errorf("ratings calls agent %d's ladder rating provisional, check does not:\n%s", id, check)
		}
	}

	// ttt serve's answers: the leaderboard, the best's page and the
	// health line.
	h, err := web.New(path, func() (*store.DB, error) { return store.OpenRead(context.Background(), path) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	type ladder struct {
		Elo         float64 `json:"elo"`
		Provisional bool    `json:"provisional"`
	}
	var board struct {
		Agents []struct {
			ID     int64   `json:"id"`
			Ladder *ladder `json:"ladder"`
		} `json:"agents"`
	}
	getJSON(t, srv.URL+"/api/leaderboard?limit=1000", &board)
	for _, r := range board.Agents {
		if r.Ladder != nil {
			add("serve leaderboard", r.ID, ladderShown{elo: r.Ladder.Elo, text: fmt.Sprint(r.Ladder.Elo), provisional: r.Ladder.Provisional})
		}
	}
	var agent struct {
		ID     int64   `json:"id"`
		Ladder *ladder `json:"ladder"`
	}
	getJSON(t, srv.URL+"/api/agents/best", &agent)
	if agent.Ladder != nil {
		add("serve agent", agent.ID, ladderShown{elo: agent.Ladder.Elo, text: fmt.Sprint(agent.Ladder.Elo), provisional: agent.Ladder.Provisional})
	}
	var health struct {
		Best struct {
			ID     int64   `json:"id"`
			Ladder *ladder `json:"ladder"`
		} `json:"best"`
	}
	getJSON(t, srv.URL+"/api/health", &health)
	if l := health.Best.Ladder; l != nil {
		add("serve health", health.Best.ID, ladderShown{elo: l.Elo, text: fmt.Sprint(l.Elo), provisional: l.Provisional})
	}
	return out
}

// finalLadders returns the ladder ratings of every network of the league
// at path, which must owe no extra games.
func finalLadders(t *testing.T, path string) map[int64]float64 {
	t.Helper()
	ctx := context.Background()
	db, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.Agents(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, a := range list {
		ids = append(ids, a.ID)
	}
	ladders, err := league.DBLadders(ctx, db, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(ladders.Owed) > 0 {
		t.Errorf("after a run that played what was owed, owed: %v", ladders.Owed)
	}
	out := map[int64]float64{}
	for id, r := range ladders.Ratings {
		out[id] = r.Elo
	}
	return out
}

// getJSON fetches url and decodes its JSON answer into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s (%v)", url, res.StatusCode, data, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("GET %s: %v in %s", url, err, data)
	}
}
