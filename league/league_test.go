package league_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/nn"
	"ttt/agents/ntuple"
	"ttt/agents/testkit"
	"ttt/agents/train"
	"ttt/league"
	"ttt/store"
)

// small is a league of quick rounds and small pools, so that a few dozen
// rounds already outgrow the pool.
func small() league.Config {
	cfg := league.Default(agents.TicTacToe)
	cfg.GamesPerRound = 1000
	cfg.Settings = cfg.With("hidden", 20)
	cfg.Opponents = 8
	return cfg
}

// stored is what a league's run decides, as the database holds it.
type stored struct {
	matches   []store.Match
	sides     map[int64][]store.Opponent // each agent's records by side
	history   map[int64][]store.HistoryRow
	standings map[int64]store.Standing
	fits      map[int64]float64
	weights   map[int64][]byte
}

// builtins is the number of a tic-tac-toe league's built-in players,
// the agents before its first snapshot: the snapshot of round N is agent
// builtins+N.
var builtins = int64(len(agents.TicTacToe.Builtins))

// open opens the database at path, closed when the test ends, making a
// tic-tac-toe league there if there is none.
func open(t *testing.T, path string) *store.DB { return openGame(t, path, agents.TicTacToe) }

// openGame is open, making a league of kit's game.
func openGame(t *testing.T, path string, kit *agents.Kit) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path, func() store.Setup { return league.Setup(kit) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// run plays rounds on the database at path and returns what it holds.
func run(t *testing.T, path string, cfg league.Config) stored {
	t.Helper()
	db := open(t, path)
	if _, err := league.Run(context.Background(), db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	return read(t, db)
}

// read reads what a league holds.
func read(t *testing.T, db *store.DB) stored {
	t.Helper()
	ctx := context.Background()
	s := stored{sides: map[int64][]store.Opponent{}, history: map[int64][]store.HistoryRow{}, standings: map[int64]store.Standing{}, weights: map[int64][]byte{}}
	var err error
	if s.fits, _, err = db.Fits(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Matches(ctx, store.MatchFilter{}, func(m store.Match) error { s.matches = append(s.matches, m); return nil }); err != nil {
		t.Fatal(err)
	}
	list, err := db.Agents(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if a.Standing != nil {
			s.standings[a.ID] = *a.Standing
		}
		if s.history[a.ID], err = db.History(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := db.View(ctx, func(v *store.View) (err error) {
			s.sides[a.ID], err = v.Sides(a.ID)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if a.Kind.Learned() {
			full, err := db.Agent(ctx, a.Name)
			if err != nil {
				t.Fatal(err)
			}
			s.weights[a.ID] = full.Weights
		}
	}
	return s
}

func TestSameResultsForAnyWorkers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := small()
	cfg.Rounds = 12
	cfg.Workers = 1
	one := run(t, filepath.Join(dir, "one.db"), cfg)
	cfg.Workers = 2
	two := run(t, filepath.Join(dir, "two.db"), cfg)
	if !reflect.DeepEqual(one, two) {
		t.Error("1 and 2 workers gave different matches, ratings or networks")
	}
	t.Run("ThreeLearners", func(t *testing.T) {
		cfg := small()
		cfg.Learners = []*learn.Method{train.PolicyMethod, train.TableMethod, train.TDLambdaMethod}
		cfg.Rounds = 9
		cfg.Workers = 1
		one := run(t, filepath.Join(dir, "three1.db"), cfg)
		cfg.Workers = 2
		two := run(t, filepath.Join(dir, "three2.db"), cfg)
		if !reflect.DeepEqual(one, two) {
			t.Error("1 and 2 workers gave different matches, ratings, networks or tables")
		}
	})
	for _, r := range one.history[1] {
		if r.Elo != 0 || r.Lo != 0 || r.Hi != 0 {
			t.Errorf("random rated %+v in round %d, want 0", r, r.Round)
		}
	}
}

func TestResumeGoesOnAsIfNeverStopped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := small()
	cfg.Rounds = 14
	whole := run(t, filepath.Join(dir, "whole.db"), cfg)
	cfg.Rounds = 7
	run(t, filepath.Join(dir, "split.db"), cfg)
	split := run(t, filepath.Join(dir, "split.db"), cfg)
	if !reflect.DeepEqual(whole, split) {
		t.Error("7 + 7 rounds differ from 14 rounds")
	}
	// Stopped in the middle of the lines' turn, a league of several
	// learners goes on with the line whose turn it was, each line as it
	// was.
	t.Run("FourLearners", func(t *testing.T) {
		cfg := small()
		cfg.Learners = agents.Methods
		cfg.Rounds = 10
		whole := run(t, filepath.Join(dir, "fourwhole.db"), cfg)
		cfg.Rounds = 5
		run(t, filepath.Join(dir, "foursplit.db"), cfg)
		split := run(t, filepath.Join(dir, "foursplit.db"), cfg)
		if !reflect.DeepEqual(whole, split) {
			t.Error("5 + 5 rounds differ from 10 rounds")
		}
	})
}

// The lines of a league of several learners take turns, a round each;
// each snapshot is its line's, with the method that made it, a network or
// a table as the method keeps, and its parent is the line's previous
// snapshot.
func TestLearnersTakeTurns(t *testing.T) {
	t.Parallel()
	cfg := small()
	cfg.Learners = []*learn.Method{train.TableMethod, train.PolicyMethod, train.SelfPlayTableMethod, train.TDLambdaMethod, ntuple.Method}
	cfg.Rounds = 8
	db := open(t, filepath.Join(t.TempDir(), "league.db"))
	if _, err := league.Run(context.Background(), db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	parent := map[string]int64{}
	for round := int64(1); round <= int64(cfg.Rounds); round++ {
		id := builtins + round
		a, err := db.Agent(context.Background(), strconv.FormatInt(id, 10))
		if err != nil {
			t.Fatal(err)
		}
		want := cfg.Learners[(round-1)%int64(len(cfg.Learners))]
		method := want.Name
		if a.Method != method || int64(a.Generation) != round {
			t.Errorf("agent %d: method %q of round %d, want %q of round %d", id, a.Method, a.Generation, method, round)
		}
		m, err := league.ModelOf(agents.TicTacToe, &league.Agent{Agent: a})
		if err != nil || !strings.Contains(m.Describe(), want.Model) {
			t.Errorf("agent %d (%s): its model %v (%v), want a %s", id, method, m, err, want.Model)
		}
		if a.ParentID != parent[method] {
			t.Errorf("agent %d (%s): parent %d, want %d", id, method, a.ParentID, parent[method])
		}
		if want := int64(cfg.GamesPerRound) * ((round-1)/int64(len(cfg.Learners)) + 1); a.TrainGames != want {
			t.Errorf("agent %d (%s): %d training games, want %d", id, method, a.TrainGames, want)
		}
		parent[method] = id
	}
}

// Each snapshot plays a pool of at most cfg.Opponents, with random,
// perfect, its parent and one or two rungs of the MCTS ladder in it, and
// no pair plays twice; a league younger than its pools plays every
// network.
func TestPools(t *testing.T) {
	t.Parallel()
	cfg := small()
	cfg.Rounds = 30
	s := run(t, filepath.Join(t.TempDir(), "league.db"), cfg)
	type pair struct{ a, b int64 }
	seen := map[pair]bool{}
	pools := map[int64][]int64{}
	for _, m := range s.matches {
		if seen[pair{m.A, m.B}] || m.A <= m.B {
			t.Fatalf("match %d v %d: played twice, or the older agent first", m.A, m.B)
		}
		seen[pair{m.A, m.B}] = true
		pools[m.A] = append(pools[m.A], m.B)
	}
	for round := int64(1); round <= 30; round++ {
		snap := round + builtins // random and perfect are 1 and 2, the ladder the rest
		pool := pools[snap]
		rungs := 0
		for _, b := range pool {
			if b > 2 && b <= builtins {
				rungs++
			}
		}
		// the networks before it, random and perfect, and the rungs
		if want := min(round-1+2+int64(rungs), int64(cfg.Opponents)); int64(len(pool)) != want || rungs < 1 || rungs > 2 {
			t.Errorf("round %d: a pool of %d with %d rungs, want %d with one or two", round, len(pool), rungs, want)
		}
		if !slices.Contains(pool, 1) || !slices.Contains(pool, 2) || (round > 1 && !slices.Contains(pool, snap-1)) {
			t.Errorf("round %d: pool %v lacks random, perfect or the parent", round, pool)
		}
	}
}

// The ratings the league shows are its fit's, kept one round at a time,
// within store.StandingStep, and a fit of every stored result from
// scratch agrees with them within league.RefitBound (README), as ttt
// check --ratings checks. 200 rounds,
// so that history rows lag: when the standings showed the last history
// row, which the league writes when the fit has moved by more than
// store.HistoryStep, they were up to 0.50 Elo from a refit.
func TestIncrementalEqualsColdFit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := small()
	cfg.Rounds = 200
	db := open(t, filepath.Join(t.TempDir(), "league.db"))
	if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	s := read(t, db)
	for id, st := range s.standings {
		if math.Abs(st.Elo-s.fits[id]) > store.StandingStep {
			t.Errorf("agent %d: shown %v, the fit holds %v", id, st.Elo, s.fits[id])
		}
	}
	refit, err := league.CheckRatings(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if refit.Agents != len(s.standings) || refit.Results != len(s.matches) {
		t.Errorf("refit %d agents of %d matches, the league rates %d of %d", refit.Agents, refit.Results, len(s.standings), len(s.matches))
	}
	for _, g := range append(refit.Beyond, refit.Missing...) {
		t.Errorf("agent %d: shown %.3f, a refit says %.3f", g.Agent, g.Stored, g.Refit)
	}
	t.Logf("largest difference from a refit: %.4f Elo (agent %d), median %.4f", refit.Largest.Diff(), refit.Largest.Agent, refit.Median)
}

// A network added between runs, or while a league runs, plays its pool in
// the next round and is rated like any member.
func TestNewcomersPlay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "league.db")
	db := open(t, path)
	cfg := small()
	cfg.Rounds = 3
	if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	add := func(name string) int64 {
		t.Helper()
		a := netAgent(store.Imported, name, nn.New(tictactoe.Game, 8, rand.New(rand.NewPCG(uint64(len(name)), 0))))
		if err := db.AddAgent(ctx, a); err != nil {
			t.Fatal(err)
		}
		return a.ID
	}
	between := add("between")
	var during int64
	cfg.Rounds = 3
	_, err := league.Run(ctx, db, cfg, league.Hooks{Round: func(r league.Report) {
		if r.Round == 4 {
			during = add("during") // comes after round 4's snapshot
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{between, during} {
		a, err := db.Agent(ctx, strconv.FormatInt(id, 10))
		if err != nil {
			t.Fatal(err)
		}
		if a.Standing == nil || a.Standing.Games < 4*144 {
			t.Errorf("%s: standing %+v, want rated over its pool", a.Name, a.Standing)
		}
	}
}

// A round-robin plays the pairs that have not played, once: a second
// one finds nothing to play.
func TestRoundRobin(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, filepath.Join(t.TempDir(), "league.db"))
	cfg := small()
	cfg.Rounds = 20
	if _, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}
	before := read(t, db)
	ids := []int64{1, 2, 3, 10, 20, 21, 22}
	round, err := league.RoundRobin(ctx, db, ids, cfg)
	if err != nil || round != 21 {
		t.Fatalf("round-robin: round %d, %v", round, err)
	}
	after := read(t, db)
	played := map[[2]int64]int{}
	for _, m := range after.matches {
		played[[2]int64{m.A, m.B}]++
	}
	for i, a := range ids {
		for _, b := range ids[:i] {
			if played[[2]int64{a, b}] != 1 {
				t.Errorf("%d v %d played %d times", a, b, played[[2]int64{a, b}])
			}
		}
	}
	if len(after.matches) <= len(before.matches) {
		t.Error("the round-robin played nothing new")
	}
	if round, err := league.RoundRobin(ctx, db, ids, cfg); round != 0 || err != nil {
		t.Errorf("a second round-robin: round %d, %v; want nothing to play", round, err)
	}
}

func TestCancelAbandonsTheRound(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	db := open(t, filepath.Join(t.TempDir(), "l.db"))
	cfg := small()
	cfg.Rounds = 5
	rounds := 0
	last, err := league.Run(ctx, db, cfg, league.Hooks{
		Round: func(league.Report) { rounds++ },
		Training: func(round int64, done, total int) {
			if round == 2 && done == 1000 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || last != 1 || rounds != 1 {
		t.Errorf("after cancel in round 2: last %d, %d rounds reported, err %v", last, rounds, err)
	}
	if all, _ := db.Count(context.Background()); int64(all) != builtins+1 {
		t.Errorf("%d agents after one round, want the built-in players and one snapshot", all)
	}
}

// A run that a stop condition ends (Hooks.Stop, as --patience does)
// cancels the round that trains ahead of the last one rather than waiting
// for it, and names it; the rounds committed are all kept. Round 2's
// training waits for the stop before it trains past its first thousand
// games, so that it is under way when the run ends: it must never report
// all its games.
func TestStopAbandonsTheRoundAhead(t *testing.T) {
	t.Parallel()
	db := openGame(t, filepath.Join(t.TempDir(), "l.db"), agents.ConnectFour)
	cfg := league.Default(agents.ConnectFour)
	// Evaluated from the empty board alone: the point is the training.
	cfg.GamesPerRound, cfg.Opponents, cfg.Openings, cfg.LadderInterval = 20_000, 6, 0, 200
	cfg.Settings = cfg.With("tuples", 8).With("tuple_length", 5)
	stopped := make(chan struct{})
	var mu sync.Mutex
	var done2, abandoned int64
	last, err := league.Run(context.Background(), db, cfg, league.Hooks{
		Training: func(round int64, done, total int) {
			if round != 2 {
				return
			}
			if done == 1000 {
				<-stopped
			}
			mu.Lock()
			done2 = int64(done)
			mu.Unlock()
		},
		Stop: func(r league.Report) bool {
			close(stopped)
			return true
		},
		Abandoned: func(round int64) { abandoned = round },
	})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || last != 1 || abandoned != 2 {
		t.Fatalf("stopped after round 1: last %d, abandoned %d, %v; want 1, 2", last, abandoned, err)
	}
	if done2 == int64(cfg.GamesPerRound) {
		t.Errorf("round 2, abandoned, trained all its %d games", done2)
	}
	if n, _, err := db.LastRound(context.Background()); err != nil || n != 1 {
		t.Errorf("the last round stored: %d (%v), want 1", n, err)
	}
}

// --duration starts no round after it has passed, and keeps every round
// that started: in Connect Four the next round trains while the last is
// evaluated, and a round trained so far ahead is committed, never
// thrown away. Whenever the duration runs out (in training, in an
// evaluation, between rounds), the rounds that trained are the rounds
// committed.
//
// It belongs to the long tier: three leagues at the default openings and
// ladder interval, whose evaluations are long. TestDurationKeepsItsRound
// is its quick sibling.
func TestDurationKeepsEveryRoundItStarts(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "three Connect Four leagues evaluated in full; TestDurationKeepsItsRound runs one, evaluated briefly")
	durationKeepsEveryRound(t, []time.Duration{50 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}, func(*league.Config) {})
}

// TestDurationKeepsItsRound is TestDurationKeepsEveryRoundItStarts with
// one duration, and a briefer evaluation (--openings 0
// --ladder-interval 200: from the empty board alone): wherever the
// duration runs out, the rounds trained are the rounds committed.
func TestDurationKeepsItsRound(t *testing.T) {
	t.Parallel()
	durationKeepsEveryRound(t, []time.Duration{200 * time.Millisecond}, func(cfg *league.Config) {
		cfg.Openings, cfg.LadderInterval = 0, 200
	})
}

// durationKeepsEveryRound runs a Connect Four league of each duration,
// its settings changed by set, and checks that the rounds trained are
// the rounds committed.
func durationKeepsEveryRound(t *testing.T, durations []time.Duration, set func(*league.Config)) {
	for i, d := range durations {
		db := openGame(t, filepath.Join(t.TempDir(), fmt.Sprintf("d%d.db", i)), agents.ConnectFour)
		cfg := league.Default(agents.ConnectFour)
		cfg.GamesPerRound, cfg.Opponents, cfg.Duration = 1500, 6, d
		cfg.Settings = cfg.With("tuples", 8).With("tuple_length", 5)
		set(&cfg)
		var mu sync.Mutex
		trained, committed := map[int64]bool{}, map[int64]bool{}
		last, err := league.Run(context.Background(), db, cfg, league.Hooks{
			Training: func(round int64, done, total int) { mu.Lock(); trained[round] = true; mu.Unlock() },
			Round:    func(r league.Report) { mu.Lock(); committed[r.Round] = true; mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(trained, committed) || int64(len(committed)) != last {
			t.Errorf("--duration %v: rounds trained %v, committed %v, last %d", d, slices.Sorted(maps.Keys(trained)), slices.Sorted(maps.Keys(committed)), last)
		}
	}
}

// A line with a learning rate of its own (Config.LRByMethod) learns at
// it, and the other lines as before; the rates are stored as one setting
// that reads back as it was written.
func TestLearningRateOfALine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := small()
	cfg.Learners = []*learn.Method{train.PolicyMethod, train.TDLambdaMethod}
	cfg.Rounds = 2
	shared := run(t, filepath.Join(dir, "shared.db"), cfg)
	cfg.LRByMethod = map[string]float64{"tdlambda": cfg.LR / 10}
	own := run(t, filepath.Join(dir, "own.db"), cfg)
	policy, td := builtins+1, builtins+2
	if !slices.Equal(shared.weights[policy], own.weights[policy]) {
		t.Error("the policy line learned differently when only tdlambda's rate changed")
	}
	if slices.Equal(shared.weights[td], own.weights[td]) {
		t.Error("the tdlambda line learned the same at a tenth of the rate")
	}

	lr, byMethod, err := league.ParseLR(cfg.Stored()["lr"])
	if err != nil || lr != cfg.LR || !reflect.DeepEqual(byMethod, cfg.LRByMethod) {
		t.Errorf("lr %q reads back as %v, %v (%v)", cfg.Stored()["lr"], lr, byMethod, err)
	}
	for _, bad := range []string{"", "policy=0.1", "0.1,0.2", "0.1,policy=x", "0.1,policy=0.1,policy=0.2", "NaN"} {
		if _, _, err := league.ParseLR(bad); err == nil {
			t.Errorf("ParseLR(%q) took it", bad)
		}
	}
}

// netAgent is net as an agent of kind called name, with the facts a
// league computes before it stores one.
func netAgent(kind store.Kind, name string, net *nn.Net) *store.Agent {
	method := "policy"
	if net.IsValue() {
		method = "tdlambda"
	}
	return league.Measure(agents.TicTacToe, &store.Agent{Kind: kind, Name: name, Method: method, Weights: net.Bytes(), Hidden: net.Hidden}, net)
}
