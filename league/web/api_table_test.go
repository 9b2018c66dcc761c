package web_test

import (
	"bytes"
	"mime"
	"net/http"
	"strconv"
	"testing"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/table"
	"ttt/league"
	"ttt/store"
)

// tableFlags make a small league of a table learner and a policy net,
// taking turns: round 1's checkpoint, agent 6, is a table of values.
var tableFlags = []string{"--learners", "table,policy", "--games-per-round", "2000", "--hidden", "16", "--seed", "5"}

// The API of a table agent: its facts say so and count its values, its
// download is its table file, and its move is the table's, with the
// value it puts on the position after each square.
func TestTableAgentAPI(t *testing.T) {
	t.Parallel()
	_, path := newLeague(t, 2, tableFlags...)
	_, url := serve(t, path)
	db, err := store.OpenRead(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a, err := db.Agent(t.Context(), "6")
	if err != nil {
		t.Fatal(err)
	}
	m, err := league.ModelOf(agents.TicTacToe, &league.Agent{Agent: a})
	tab, ok := m.(*table.Table)
	if err != nil || !ok || a.Method != "table" {
		t.Fatalf("agent 6 is method %q, model %v: want round 1's table", a.Method, m)
	}
	ref := url + "api/agents/" + strconv.FormatInt(a.ID, 10)

	t.Run("facts", func(t *testing.T) {
		var facts struct {
			Method                              *string
			Table                               *int
			Inputs, Hidden, Outputs, Parameters *int
		}
		getJSON(t, ref, &facts)
		if facts.Method == nil || *facts.Method != "table" || facts.Table == nil || *facts.Table != tab.Len() ||
			facts.Inputs != nil || facts.Hidden != nil || facts.Outputs != nil || facts.Parameters == nil || *facts.Parameters != tab.Len() {
			t.Errorf("GET %s: %+v; want method table, table %d and no network", ref, facts, tab.Len())
		}
	})

	t.Run("download", func(t *testing.T) {
		status, body, h := get(t, ref+"/weights")
		_, params, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
		if status != http.StatusOK || !bytes.Equal(body, tab.Bytes()) || params["filename"] != a.Name+"-table.bin" {
			t.Errorf("GET weights: %d, %d bytes, file %q; want the %d bytes of its table file as %s-table.bin",
				status, len(body), params["filename"], len(tab.Bytes()), a.Name)
		}
		// A table of one side holds that side's values, as ttt export
		// --side writes it.
		if status, body, _ := get(t, ref+"/weights?side=X"); status != http.StatusOK || !bytes.Equal(body, tab.FileFor(game.X)) {
			t.Errorf("GET weights?side=X: %d, %d bytes; want the %d of its X values", status, len(body), len(tab.FileFor(game.X)))
		}
	})

	t.Run("move", func(t *testing.T) {
		// Every position of up to three moves where a move is due.
		for _, b := range tictactoe.Solve().Positions() {
			if b.Result() != game.Ongoing || b.Moves() > 3 {
				continue
			}
			var ans struct {
				Move          string
				Probabilities []float32
				TableValues   []*float64 `json:"table_values"`
			}
			getJSON(t, ref+"/move?board="+b.Compact(), &ans)
			if want := strconv.Itoa(tab.Move(b.Position())); ans.Move != want || ans.Probabilities != nil || len(ans.TableValues) != 9 {
				t.Fatalf("%s: %+v; want square %s and nine table values", b.Compact(), ans, want)
			}
			for sq, v := range ans.TableValues {
				switch {
				case !b.IsEmpty(sq) && v != nil:
					t.Errorf("%s: a value %v for the taken square %d", b.Compact(), *v, sq)
				case b.IsEmpty(sq) && (v == nil || *v != tab.Value(b.ToMove(), b.Play(sq))):
					t.Errorf("%s: square %d: %v; want %v", b.Compact(), sq, v, tab.Value(b.ToMove(), b.Play(sq)))
				}
			}
		}
	})
}
