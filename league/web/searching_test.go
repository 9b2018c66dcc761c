package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"ttt/league/commands/clitest"
)

// Thirty searches at once, each the largest a request may ask (a
// million simulations, alpha-beta to 42 plies): every one is answered
// before the server's timeouts cut it off (a transport error here), with
// its move or with 503 and Retry-After where the server's slots were all
// taken, and the slots serve a search again once they are done.
func TestSearchesUnderLoad(t *testing.T) {
	t.Parallel()
	_, path := newLeague(t, 2, c4Flags...)
	_, url := serve(t, path)
	const n = 30
	var wg sync.WaitGroup
	statuses := make([]int, n)
	for i := range n {
		wg.Go(func() {
			ref := "best@mcts1000000"
			if i%2 == 1 {
				ref = "best@ab42"
			}
			res, err := http.Get(url + "api/agents/" + ref + "/move?moves=4,4")
			if err != nil {
				t.Errorf("search %d (%s): %v", i, ref, err)
				return
			}
			defer res.Body.Close()
			statuses[i] = res.StatusCode
			var body struct{ Move, Message string }
			if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
				t.Errorf("search %d (%s): %d, %v", i, ref, res.StatusCode, err)
			}
			switch {
			case res.StatusCode == http.StatusOK && body.Move != "":
			case res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != "":
			default:
				t.Errorf("search %d (%s): %d, Retry-After %q, %+v", i, ref, res.StatusCode, res.Header.Get("Retry-After"), body)
			}
		})
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == http.StatusOK {
			ok++
		}
	}
	if ok == 0 {
		t.Errorf("none of %d searches was answered with its move: %v", n, statuses)
	}
	var move struct{ Move string }
	getJSON(t, url+"api/agents/best@mcts1000000/move?moves=4,4", &move)
}

// A searched agent the league has not stored is described at once, its
// figures null and measuring true; they come, measured once in the
// background, and every later answer has them.
func TestMeasuredInTheBackground(t *testing.T) {
	t.Parallel()
	_, path := newLeague(t, 2, c4Flags...)
	_, url := serve(t, path)
	type facts struct {
		Name      string
		Measuring bool
		Shares    *struct{ All struct{ Positions int } }
	}
	var first facts
	getJSON(t, url+"api/agents/best@ab2", &first)
	if !first.Measuring || first.Shares != nil {
		t.Fatalf("the first answer: %+v, want measuring and no figures", first)
	}
	for a := first; a.Measuring; time.Sleep(20 * time.Millisecond) {
		getJSON(t, url+"api/agents/best@ab2", &a)
		if !a.Measuring && (a.Shares == nil || a.Shares.All.Positions == 0) {
			t.Fatalf("measured: %+v, want its shares", a)
		}
	}
	var again facts
	getJSON(t, url+"api/agents/best@ab2", &again)
	if again.Measuring || again.Shares == nil {
		t.Errorf("asked again: %+v", again)
	}
}

// A damaged file's error says where to look, as the commands' do: a
// network whose stored checksum does not match answers 500 with the
// pointer to ttt check.
func TestDamagedPointsAtCheck(t *testing.T) {
	t.Parallel()
	_, path := newLeague(t, 2)
	db := clitest.SQL(t, path)
	if _, err := db.Exec("UPDATE agents SET weights_crc = weights_crc + 1 WHERE id = (SELECT max(id) FROM agents)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, url := serve(t, path)
	status, body, _ := get(t, url+"api/agents/latest/move?board=.........")
	if status != http.StatusInternalServerError || !strings.Contains(string(body), "damaged: its checksum does not match (ttt check says what is damaged)") {
		t.Errorf("a move of a damaged network: %d %s", status, body)
	}
}
