package main_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/testkit"
	"ttt/league"
	"ttt/league/commands/clitest"
	"ttt/store"
)

// TestKillAtAnyMoment kills `ttt league run` with SIGKILL again and again
// and after each kill checks the database it left: SQLite's own integrity
// check, only whole rounds, a rating history that a fresh refit of the
// stored results reproduces, and a next run that resumes from the last
// committed round. At the end the league, finished after all its kills,
// must equal one that never stopped. Its league has two learners, a
// network and a table, taking turns.
//
// No hook in the program aims the kills. The first comes while the
// database is being made; each later one at a share of a round after a
// round line, the length of a round measured from the two lines before,
// aimed by what a round spends where (aims). A noisy machine scatters
// them further; the log says where each was aimed.
//
// It belongs to the long tier (13 kills, each followed by a refit of the
// whole league); TestKillInTheCommit is its quick sibling.
func TestKillAtAnyMoment(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "13 kills at every phase of a round; TestKillInTheCommit kills once in the commit")
	killLeague(t, aims)
}

// TestKillInTheCommit is TestKillAtAnyMoment with one kill aimed at a
// round, in its commit's transaction, the one place where a kill could
// leave part of a round behind (after the kill at the league's
// creation), and the same checks after it and at the end.
func TestKillInTheCommit(t *testing.T) {
	t.Parallel()
	killLeague(t, []aim{{0.87, "commit"}})
}

// killLeague kills a league run at its creation, then once at each of
// aims, checks what each kill left, and finishes the league, which must
// equal one that never stopped.
func killLeague(t *testing.T, aims []aim) {
	p := built(t)
	path := filepath.Join(p.Dir, "league.db")
	flags := []string{"--games-per-round", "100", "--hidden", "2", "--seed", "7", "--opponents", strconv.Itoa(opponents), "--learners", "policy,table,ntuple",
		"--grow-at", "200", "--grow-length", "7"} // the n-tuple net grows at its third round, among the kills
	var last int64 // the last committed round
	for i := range len(aims) + 1 {
		// One worker here makes the evaluation a larger target; the league
		// run without a stop below uses two, which must not change a thing.
		r := start(t, p, append([]string{"league", "run", "--db", "league.db", "--workers", "1"}, flags...)...)
		aim := "start"
		// The pauses are the point: they aim each kill at a moment of
		// the run, with no hook in the program.
		if i == 0 {
			time.Sleep(10 * time.Millisecond)
		} else {
			r.roundLine(t, last+1)
			r.roundLine(t, last+2)
			a := aims[i-1]
			aim = fmt.Sprintf("%s, %.0f%% into a round", a.phase, 100*a.share)
			time.Sleep(time.Until(r.last.Add(time.Duration(a.share * float64(r.period)))))
		}
		r.kill(t)
		got := checkLeague(t, path, last)
		t.Logf("kill %2d (%s): %d rounds committed", i, aim, got)
		if got < r.reported {
			t.Fatalf("kill %d: %d rounds committed after round %d was reported", i, got, r.reported)
		}
		last = got
	}

	// Finish the league, then play the same rounds without a stop.
	const more = 2
	out := p.OK(t, append([]string{"league", "run", "--db", "league.db", "--rounds", strconv.Itoa(more)}, flags...)...)
	// Its first line says where it resumes; its first round follows.
	if want := fmt.Sprintf("after round %d, with ", last); !strings.HasPrefix(out, "resuming the ") || !strings.Contains(out, want+"--drill") ||
		!strings.Contains(out, fmt.Sprintf("\nround %d ", last+1)) {
		t.Errorf("the run after the last kill began %.200q, want it to resume %q, then round %d", out, want, last+1)
	}
	total := last + more
	if got := checkLeague(t, path, last); got != total {
		t.Errorf("%d rounds after the last run, want %d", got, total)
	}
	// A kill during the creation leaves the league being made, which the
	// next run removes.
	if left, _ := filepath.Glob(path + ".*.new*"); len(left) > 0 {
		t.Errorf("after the kills: %v", left)
	}
	p.OK(t, append([]string{"league", "run", "--db", "whole.db", "--workers", "2", "--rounds", strconv.FormatInt(total, 10)}, flags...)...)
	if !reflect.DeepEqual(leagueOf(t, path), leagueOf(t, filepath.Join(p.Dir, "whole.db"))) {
		t.Errorf("after %d kills the league differs from one run without a stop", len(aims)+1)
	}
}

// opponents is the pool of TestKillAtAnyMoment's leagues: small, so that
// the league outgrows it after a few rounds. Its learners take turns on
// lines of their own.
const (
	opponents = 6
	lines     = 3
)

// aims are where in a round TestKillAtAnyMoment kills, as shares of its
// length, and what the round is doing there. Measured with its flags, a
// round of about 10 ms spends 30% training, 20% building the snapshot's
// move table, 4% evaluating the snapshot, 21% on its exhaustive check and
// the last 25% in the commit's transaction (the refit and the writes),
// the one place where a kill could leave part of a round behind.
var aims = []aim{
	{0.10, "training"}, {0.25, "training"}, {0.40, "move table"},
	{0.51, "evaluation"}, {0.53, "evaluation"}, {0.62, "exhaustive check"}, {0.70, "exhaustive check"},
	{0.77, "commit"}, {0.82, "commit"}, {0.87, "commit"}, {0.92, "commit"}, {0.97, "commit"},
}

// aim is where in a round a kill is aimed: a share of its length, and
// what the round is doing there.
type aim struct {
	share float64
	phase string
}

// running is a ttt league run under way, whose round lines the test
// reads as they come.
type running struct {
	*clitest.Background
	next     int           // the next line to read
	reported int64         // the last round a line reported
	last     time.Time     // when that line came
	period   time.Duration // since the line before
}

// start starts ttt with args.
func start(t *testing.T, p clitest.TTT, args ...string) *running {
	t.Helper()
	// Its first line says which league it makes or resumes: the round
	// lines follow.
	return &running{Background: p.Start(t, args...), next: 1}
}

// roundLineRE reads the round of a round line of ttt league run.
var roundLineRE = regexp.MustCompile(`^round (\d+) `)

// asideRE reads the lines between round lines: a best's ladder games,
// and the heartbeat's news of what runs.
var asideRE = regexp.MustCompile(`^round \d+(  best |: )`)

// roundLine waits for the next round line, which must report round n,
// and notes when it came.
func (r *running) roundLine(t *testing.T, n int64) {
	t.Helper()
	var l clitest.Line
	for {
		var ok bool
		if l, ok = r.Line(t, r.next); !ok {
			_, stderr, code := r.Wait(t)
			t.Fatalf("ttt league run ended with %d before round %d: %s", code, n, stderr)
		}
		r.next++
		if !asideRE.MatchString(l.Text) {
			break
		}
	}
	m := roundLineRE.FindStringSubmatch(l.Text)
	if m == nil || m[1] != strconv.FormatInt(n, 10) {
		t.Fatalf("got line %q, want round %d", l.Text, n)
	}
	r.reported, r.period, r.last = n, l.At.Sub(r.last), l.At
}

// kill sends SIGKILL and waits for the process to go, noting the last
// round it reported.
func (r *running) kill(t *testing.T) {
	t.Helper()
	stdout, _, _ := r.Stop(t, syscall.SIGKILL)
	if n := clitest.LastReported(stdout); n > 0 {
		r.reported = n
	}
}

// checkLeague checks the database a kill left behind and returns its last
// round. Rounds up to checked were checked before; their ratings are not
// refitted again.
func checkLeague(t *testing.T, path string, checked int64) int64 {
	t.Helper()
	db := clitest.SQL(t, path)
	defer db.Close()
	var integrity string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("integrity_check: %q, %v", integrity, err)
	}
	if n := count(t, db, "SELECT count(*) FROM pragma_foreign_key_check"); n != 0 {
		t.Fatalf("%d rows break a foreign key", n)
	}
	if count(t, db, "SELECT user_version FROM pragma_user_version") == 0 {
		// Killed before the schema was committed: nothing may be there.
		if n := count(t, db, "SELECT count(*) FROM sqlite_schema"); n != 0 {
			t.Fatalf("no schema version, yet %d tables", n)
		}
		return 0
	}

	// The rest through the store, as ttt reads it.
	ctx := context.Background()
	st, err := store.Open(ctx, path, func() store.Setup { return league.Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	list, err := st.Agents(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var matches []store.Match
	if err := st.Matches(ctx, store.MatchFilter{}, func(m store.Match) error { matches = append(matches, m); return nil }); err != nil {
		t.Fatal(err)
	}

	// Rounds 1..n, the last with the learner's state to resume from.
	n := int64(count(t, db, "SELECT count(*) FROM rounds"))
	if n > 0 {
		last, learner, err := st.LastRound(ctx)
		if err != nil || last != n || learner == nil {
			t.Fatalf("%d rounds, the last numbered %d with %d bytes of learner state (%v)", n, last, len(learner), err)
		}
	}

	// Agents: the built-in players, then one snapshot per round and no
	// other.
	var got, want []string
	for _, a := range list {
		got = append(got, fmt.Sprintf("%d %s %d", a.ID, a.Kind, a.Generation))
	}
	builtins := int64(len(agents.TicTacToe.Builtins))
	for i, b := range agents.TicTacToe.Builtins {
		want = append(want, fmt.Sprintf("%d %s 0", i+1, b.Kind))
	}
	for r := int64(1); r <= n; r++ {
		want = append(want, fmt.Sprintf("%d checkpoint %d", r+builtins, r))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d rounds, but agents (id kind generation) %q", n, got)
	}

	// Matches: each round's snapshot (agent round+builtins) against a
	// whole pool of older networks, random, perfect, its parent (its
	// line's snapshot of `lines` rounds before) and one or two rungs of
	// the MCTS ladder among them, in that round; no pair twice.
	type pair struct{ a, b int64 }
	seen := map[pair]bool{}
	pools := map[int64][]int64{}
	for _, m := range matches {
		if seen[pair{m.A, m.B}] {
			t.Fatalf("match %d-%d played twice", m.A, m.B)
		}
		seen[pair{m.A, m.B}] = true
		if m.A != m.Round+builtins || m.B >= m.A {
			t.Fatalf("match %d-%d in round %d: not the round's snapshot against an older agent", m.A, m.B, m.Round)
		}
		pools[m.Round] = append(pools[m.Round], m.B)
	}
	for r := int64(1); r <= n; r++ {
		pool := pools[r]
		rungs := int64(0)
		for _, b := range pool {
			if b > 2 && b <= builtins {
				rungs++
			}
		}
		if want := min(r+1+rungs, opponents); int64(len(pool)) != want || rungs < 1 || rungs > 2 || !slices.Contains(pool, 1) ||
			!slices.Contains(pool, 2) || (r > lines && !slices.Contains(pool, r+builtins-lines)) {
			t.Fatalf("round %d: pool %v, want %d agents with random, perfect, the parent and one or two rungs", r, pool, want)
		}
	}
	if len(pools) != int(n) {
		t.Fatalf("matches of %d rounds, want %d", len(pools), n)
	}

	// Ratings: every agent that played has a standing whose games are its
	// matches', whose rating is the fit's (within store.StandingStep),
	// within a history step of its
	// last history row, and within league.RefitBound of a refit of the
	// stored results (ttt check --ratings); each round's snapshot has its
	// first row in its round.
	games := map[int64]int{}
	for _, m := range matches {
		games[m.A] += m.Games()
		games[m.B] += m.Games()
	}
	fits, _, err := st.Fits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refit, err := league.CheckRatings(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(refit.Beyond) > 0 || len(refit.Missing) > 0 {
		t.Fatalf("ratings more than %g Elo from a refit of the stored results: %+v, %+v", league.RefitBound, refit.Beyond, refit.Missing)
	}
	for _, a := range list {
		s := a.Standing
		if (s != nil) != (games[a.ID] > 0) {
			t.Fatalf("agent %d: standing %+v, %d games", a.ID, s, games[a.ID])
		}
		if s == nil {
			continue
		}
		history, err := st.History(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := history[len(history)-1]
		if s.Games != games[a.ID] || math.Abs(s.Elo-fits[a.ID]) > store.StandingStep || s.MovedFrom(last) || last.Round != s.Round {
			t.Fatalf("agent %d: standing %+v, %d games, the fit's %v, last history row %+v", a.ID, s, games[a.ID], fits[a.ID], last)
		}
		if a.Kind == store.Checkpoint && history[0].Round != int64(a.Generation) {
			t.Fatalf("agent %d of round %d: first rated in round %d", a.ID, a.Generation, history[0].Round)
		}
	}
	return n
}

// count runs a query that returns one integer.
func count(t *testing.T, db *sql.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// leagueOf reads what a league's run decides: its matches, the rating
// history and standing of every agent, and its networks.
func leagueOf(t *testing.T, path string) []any {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path, func() store.Setup { return league.Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var matches []store.Match
	if err := db.Matches(ctx, store.MatchFilter{}, func(m store.Match) error { matches = append(matches, m); return nil }); err != nil {
		t.Fatal(err)
	}
	list, err := db.Agents(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var history [][]store.HistoryRow
	var standings []store.Standing
	weights := map[int64][]byte{} // a network's weights, a table's file
	for _, a := range list {
		h, err := db.History(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, h)
		if a.Standing != nil {
			standings = append(standings, *a.Standing)
		}
		if !a.Kind.Learned() {
			continue
		}
		full, err := db.Agent(ctx, strconv.FormatInt(a.ID, 10))
		if err != nil {
			t.Fatal(err)
		}
		weights[a.ID] = full.Weights
	}
	fits, _, err := db.Fits(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return []any{matches, history, standings, fits, weights}
}
