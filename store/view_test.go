package store_test

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/store"
)

// The learning curve: a point for each round that made a snapshot, at
// the rating that round gave it, with the snapshot's method; thinned to
// rounds spread evenly from the first to the newest, both kept, each
// read by its key; in a league of several learners, with the rounds
// after it where each has its next point.
func TestCurve(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	if newest, err := db.NewestRound(ctx); err != nil || newest != 0 {
		t.Fatalf("a new league's newest round: %d %v", newest, err)
	}
	if curve, newest, err := db.Curve(ctx, 10); err != nil || curve != nil || newest != 0 {
		t.Fatalf("a new league's curve: %v %d %v", curve, newest, err)
	}
	// One learner: a point for each spread id that made a snapshot.
	one := mustOpen(t, filepath.Join(t.TempDir(), "one.db"))
	all := commitCurve(t, one, 10, func(round int64) *nn.Net { return testNet(3, uint64(round)) })
	for _, c := range []struct {
		points int
		want   []store.CurvePoint
	}{
		{100, all},
		{10, all},
		{9, pickRounds(all, 1, 2, 3, 4, 6, 7, 8, 10)}, // 1 + i*9/8: 1 2 3 4 5 6 7 8 10
		{4, pickRounds(all, 1, 4, 7, 10)},
		{3, pickRounds(all, 1, 10)}, // 1 5 10, and 5 made no snapshot
		{2, pickRounds(all, 1, 10)},
		{1, pickRounds(all, 1)},
	} {
		curve, newest, err := one.Curve(ctx, c.points)
		if err != nil || newest != 10 || !reflect.DeepEqual(curve, c.want) {
			t.Errorf("one learner: Curve(%d): %v, newest %d, %v\nwant %v", c.points, curve, newest, err, c.want)
		}
	}

	// Two learners taking turns, the odd rounds a policy net's, the even
	// a value net's.
	if err := db.SetSettings(ctx, map[string]string{"learners": "policy,tdlambda"}); err != nil {
		t.Fatal(err)
	}
	turns := func(round int64) *nn.Net {
		if round%2 == 0 {
			return nn.NewValue(tictactoe.Game, 3, rand.New(rand.NewPCG(uint64(round), 0)))
		}
		return testNet(3, uint64(round))
	}
	all = commitCurve(t, db, 10, turns)
	if newest, err := db.NewestRound(ctx); err != nil || newest != 10 {
		t.Errorf("newest round %d %v, want 10", newest, err)
	}
	for _, p := range all {
		if want := map[bool]string{true: "tdlambda", false: "policy"}[p.Round%2 == 0]; p.Method != want {
			t.Errorf("round %d's point is of %q, want %q", p.Round, p.Method, want)
		}
	}
	for _, c := range []struct {
		points int
		want   []store.CurvePoint
	}{
		{100, all},
		{10, all},
		{9, all},                                // 1 + i*9/8: 1 2 3 4 5 6 7 8 10, and the round after each
		{4, pickRounds(all, 1, 2, 4, 7, 8, 10)}, // 1 4 7 10: 4 has no policy net after it (5 made no snapshot)
		{3, pickRounds(all, 1, 2, 6, 10)},       // 1 5 10
		{2, pickRounds(all, 1, 2, 10)},          // 1 10
		{1, pickRounds(all, 1, 2)},              // 1
	} {
		curve, newest, err := db.Curve(ctx, c.points)
		if err != nil || newest != 10 || !reflect.DeepEqual(curve, c.want) {
			t.Errorf("two learners: Curve(%d): %v, newest %d, %v\nwant %v", c.points, curve, newest, err, c.want)
		}
	}
	// Spread ids four rounds apart are all odd, a policy net's rounds: the
	// value nets have their points from the rounds after them all the
	// same.
	all = commitCurve(t, db, 11, turns)
	if curve, _, err := db.Curve(ctx, 6); err != nil || !reflect.DeepEqual(curve, pickRounds(all, 1, 2, 6, 9, 10, 13, 14, 17, 18, 21)) {
		t.Errorf("Curve(6) of 21 rounds: %v, %v", curve, err)
	}
}

// commitCurve commits n more rounds to db, each with a snapshot of the
// net of its round (none for the fifth, a round robin's), rated ten Elo a
// round, and returns the whole curve.
func commitCurve(t *testing.T, db *store.DB, n int64, net func(round int64) *nn.Net) []store.CurvePoint {
	t.Helper()
	ctx := context.Background()
	first, err := db.NewestRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for round := first + 1; round <= first+n; round++ {
		r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now()}
		if round == 5 { // a round robin makes no snapshot
			r.Kind = store.RobinRound
		} else {
			elo := 10 * float64(round)
			r.Snapshot = network(store.Checkpoint, net(round), uint64(round))
			r.History = []store.HistoryRow{{Agent: 0, Elo: elo, Lo: elo - 5, Hi: elo + 5, Games: 144}}
			r.Updates = []store.Update{{Agent: 0, Played: game.Record{Wins: 144}, Ranked: true}}
		}
		if err := db.CommitRound(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	all, _, err := db.Curve(ctx, math.MaxInt32)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		if elo := 10 * float64(p.Round); p.Elo != elo || p.Lo != elo-5 || p.Hi != elo+5 || p.Games != 0 || p.Agent == 0 {
			t.Errorf("round %d's point: %+v", p.Round, p)
		}
	}
	return all
}

// pickRounds is the points of curve of the rounds given.
func pickRounds(curve []store.CurvePoint, rounds ...int64) (list []store.CurvePoint) {
	for _, p := range curve {
		if slices.Contains(rounds, p.Round) {
			list = append(list, p)
		}
	}
	return list
}

// A reader's connections refuse every write in SQLite itself (query_only),
// whatever runs on them, and still see what a writer commits after they
// opened, through the -wal; the last to close still folds the -wal into
// the file and empties it, as a writer's would.
func TestOpenReadIsQueryOnly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "league.db")
	writer, err := store.Open(ctx, path, twoBuiltins)
	if err != nil {
		t.Fatal(err)
	}
	addNets(t, writer, 1)
	reader, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// Two connections at once: the pragma is on each, not on one.
	raw := store.SQLOf(reader)
	var conns []*sql.Conn
	for range 2 {
		c, err := raw.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, q := range []string{
		"INSERT INTO settings (name, value) VALUES ('x', 'y')",
		"DELETE FROM agents",
		"CREATE TABLE t (x)",
		"PRAGMA user_version = 99",
	} {
		_, err := conns[i%2].ExecContext(ctx, q)
		if err == nil || !strings.Contains(err.Error(), "readonly") {
			t.Errorf("%s on a reader: %v, want SQLite's refusal to write", q, err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	addNets(t, writer, 1)
	if n, err := reader.Count(ctx); err != nil || n != 4 {
		t.Errorf("the reader counts %d agents (%v) after the writer's second commit, want 4", n, err)
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
	if err := reader.Close(); err != nil {
		t.Fatal(err)
	}
	if got := files(t, dir); got != "league.db league.db-shm league.db-wal" {
		t.Errorf("files after the last reader closed: %q, want the database and its -wal and -shm", got)
	}
	if wal := readFile(t, path+"-wal"); len(wal) != 0 {
		t.Errorf("the last reader to close left %d bytes in the -wal", len(wal))
	}
	db := mustOpen(t, path)
	if n, err := db.Count(ctx); err != nil || n != 4 {
		t.Errorf("%d agents (%v) in the file, want 4", n, err)
	}
}

// An agent's opponents come in id order, the older ones from its rows as
// the newer agent and the newer ones from their rows, with the record
// turned to its side, in pages that join up to the whole list whatever
// their size.
func TestOpponents(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t, filepath.Join(t.TempDir(), "league.db"))
	// Rounds 1 to 4 make agents 3 to 6 (1 and 2 are random and perfect);
	// each snapshot (0 in its round) plays the agents listed. A match's
	// record names both its agents, so that a record read the wrong way
	// round shows: its wins are a's id (set once the commit has given the
	// snapshot its id), its draws b's.
	var all []store.Match
	for _, pool := range [][]int64{{1, 2}, {1, 2, 3}, {1, 2, 3}, {2, 4}} {
		r := &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(),
			Snapshot: network(store.Checkpoint, testNet(3, uint64(len(all))), 1)}
		for _, b := range pool {
			r.Matches = append(r.Matches, store.Match{A: 0, B: b, Plies: 1, Seed: 7, Record: game.Record{Draws: int(b), Losses: 1}})
		}
		if err := db.CommitRound(ctx, r); err != nil {
			t.Fatal(err)
		}
		for i := range r.Matches {
			r.Matches[i].Wins = int(r.Matches[i].A)
		}
		all = append(all, r.Matches...)
	}
	if _, err := store.SQLOf(db).Exec("UPDATE matches SET wins = a"); err != nil {
		t.Fatal(err)
	}
	agents, err := db.Agents(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	name := map[int64]store.AgentName{}
	for _, a := range agents {
		name[a.ID] = store.AgentName{ID: a.ID, Name: a.Name, Kind: a.Kind}
	}

	for agent := int64(1); agent <= 7; agent++ { // 7: no such agent, no opponents
		var want []store.Opponent
		for _, m := range all {
			switch agent {
			case m.A:
				want = append(want, store.Opponent{AgentName: name[m.B], Record: m.Record})
			case m.B:
				want = append(want, store.Opponent{AgentName: name[m.A], Record: m.Record.Reversed()})
			}
		}
		slices.SortFunc(want, func(x, y store.Opponent) int { return int(x.ID - y.ID) })
		err := db.View(ctx, func(v *store.View) error {
			if n, err := v.OpponentCount(agent); err != nil || n != len(want) {
				t.Errorf("agent %d: OpponentCount %d %v, want %d", agent, n, err, len(want))
			}
			for limit := 1; limit <= 5; limit++ {
				var paged []store.Opponent
				for after := int64(0); ; {
					page, err := v.Opponents(agent, after, limit)
					if err != nil {
						return err
					}
					if len(page) > limit {
						t.Fatalf("agent %d, limit %d after %d: %d opponents", agent, limit, after, len(page))
					}
					paged = append(paged, page...)
					if len(page) < limit {
						break
					}
					after = page[len(page)-1].ID
				}
				if !slices.Equal(paged, want) {
					t.Errorf("agent %d in pages of %d:\n%v\nwant\n%v", agent, limit, paged, want)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A View reads one state of the league: a round committed while it reads
// shows only in the views after it. Name reads an agent's name and kind
// by any reference, without its network.
func TestView(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	writer := mustOpen(t, path)
	reader, err := store.OpenRead(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	round := func() *store.Round {
		return &store.Round{Kind: store.LeagueRound, Started: time.Now(), Finished: time.Now(),
			Snapshot: network(store.Checkpoint, testNet(3, 1), 1)}
	}
	if err := writer.CommitRound(ctx, round()); err != nil {
		t.Fatal(err)
	}
	err = reader.View(ctx, func(v *store.View) error {
		before, err := v.NewestRound()
		if err != nil {
			return err
		}
		if err := writer.CommitRound(ctx, round()); err != nil {
			return err
		}
		after, err := v.NewestRound()
		if before != 1 || after != 1 || err != nil {
			t.Errorf("in one view: round %d, then %d after a commit (%v); want 1 both times", before, after, err)
		}
		if latest, err := v.Name(store.Latest); err != nil || latest.ID != 3 {
			t.Errorf("latest in the view: %+v %v, want agent 3", latest, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = reader.View(ctx, func(v *store.View) error {
		if newest, err := v.NewestRound(); err != nil || newest != 2 {
			t.Errorf("the next view: round %d %v, want 2", newest, err)
		}
		for ref, want := range map[string]store.AgentName{
			"latest":       {ID: 4, Name: "checkpoint-4", Kind: store.Checkpoint},
			"2":            {ID: 2, Name: "perfect", Kind: agents.Perfect},
			"random":       {ID: 1, Name: "random", Kind: agents.Random},
			"checkpoint-3": {ID: 3, Name: "checkpoint-3", Kind: store.Checkpoint},
		} {
			if got, err := v.Name(ref); err != nil || got != want {
				t.Errorf("Name(%q): %+v %v, want %+v", ref, got, err, want)
			}
		}
		for _, ref := range []string{"99", "nobody", "best"} { // best is the league's to resolve
			if got, err := v.Name(ref); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Name(%q): %+v %v, want ErrNotFound", ref, got, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
