package league

import (
	"bytes"
	"context"
	"encoding/binary"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"ttt/agents"
	"ttt/agents/conv"
	"ttt/agents/learn"
	"ttt/agents/lines"
	"ttt/agents/ntuple"
	"ttt/agents/testkit"
	"ttt/agents/train"
	"ttt/store"
)

// A line whose network diverges is retired in a league of several
// learners: the next line trains in its place, the round reports it, and
// a resumed league keeps it retired. A league of one learner stops there.
func TestDivergedLineRetires(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := Default(agents.TicTacToe)
	cfg.GamesPerRound, cfg.Opponents, cfg.Workers = 200, 6, 1
	cfg.Settings = cfg.With("hidden", 8)
	cfg.Learners = []*learn.Method{train.PolicyMethod, train.TDLambdaMethod}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "league.db"), func() store.Setup { return Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lg, tr, err := open(ctx, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lg.checkpoints.Wait()
	// A hidden unit's bias past what a forward pass may add up: the
	// policy line has diverged, whatever its games teach it.
	tr.lines[0].learner.(*train.Policy).Net.BH[0] = 2 * 1e30
	for round := range 2 {
		r, err := oneRound(ctx, lg, tr)
		if err != nil {
			t.Fatal(err)
		}
		if r.Snapshot.Method != train.TDLambdaMethod.Name {
			t.Errorf("round %d: a snapshot of %s, want tdlambda's", r.Round, r.Snapshot.Method)
		}
		// The round trained both lines, the one that diverged too.
		if want := cfg.GamesPerRound * (1 + len(r.Diverged)); r.TrainGames != want {
			t.Errorf("round %d: %d training games, want %d", r.Round, r.TrainGames, want)
		}
		if wantReport := round == 0; (len(r.Diverged) == 1 && strings.Contains(r.Diverged[0], "policy learner has diverged")) != wantReport {
			t.Errorf("round %d: diverged %q", r.Round, r.Diverged)
		}
	}
	_, again, err := open(ctx, db, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !again.lines[0].retired || again.lines[1].retired || again.next != 1 {
		t.Errorf("resumed: policy retired %v, tdlambda retired %v, next line %d", again.lines[0].retired, again.lines[1].retired, again.next)
	}

	// Alone, the line stops the run.
	cfg.Learners = cfg.Learners[:1]
	alone, err := store.Open(ctx, filepath.Join(t.TempDir(), "alone.db"), func() store.Setup { return Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	defer alone.Close()
	lg, tr, err = open(ctx, alone, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr.lines[0].learner.(*train.Policy).Net.BH[0] = 2 * 1e30
	if _, err := oneRound(ctx, lg, tr); err == nil || !strings.Contains(err.Error(), "round 1: the policy learner has diverged") {
		t.Errorf("a league of one diverged learner: %v", err)
	}
}

// A Connect Four league is the same league however it is played: its
// rounds one after the other on one worker, or on three workers with
// each round training while the round before it is evaluated, stopped
// after two rounds and resumed. The same snapshots, matches, ratings and
// rating histories. One test for the three, and two leagues for it,
// because such a league spends most of its time in the games against the
// solver and the MCTS players, which would be the same in each.
//
// It belongs to the long tier: leagues of 4 rounds of 2,500 games, whose
// new bests play extra ladder games to an interval of ±100.
// TestConnectFourLeagueHoweverPlayedSmall is its quick sibling.
func TestConnectFourLeagueHoweverPlayed(t *testing.T) {
	t.Parallel()
	testkit.Long(t, "Connect Four leagues of 4 rounds of 2,500 games; TestConnectFourLeagueHoweverPlayedSmall plays 2 of 500")
	connectFourLeagueHoweverPlayed(t, 4, 2500, 1, 100)
}

// TestConnectFourLeagueHoweverPlayedSmall is
// TestConnectFourLeagueHoweverPlayed in leagues of 2 rounds of 500
// games, stopped and resumed after the first, evaluated from the empty
// board alone, whose bests play no extra ladder games (a ladder interval
// of ±200).
func TestConnectFourLeagueHoweverPlayedSmall(t *testing.T) {
	t.Parallel()
	connectFourLeagueHoweverPlayed(t, 2, 500, 0, 200)
}

// connectFourLeagueHoweverPlayed is TestConnectFourLeagueHoweverPlayed
// with leagues of rounds rounds (even: the overlapped league stops half
// way) of games games, evaluated over the openings of openings moves,
// their new bests' ladder intervals ±interval.
func connectFourLeagueHoweverPlayed(t *testing.T, rounds, games, openings int, interval float64) {
	ctx := context.Background()
	cfg := Default(agents.ConnectFour)
	// Rounds of several batches of the actors, each learned from while
	// the next is played, and a last batch cut short.
	cfg.GamesPerRound, cfg.Opponents, cfg.Rounds = games, 8, rounds
	// The openings of one move in each colour, or the empty board alone:
	// the games against the solver and the MCTS players, most of such a
	// league's time, are 14 a player, or 2, not 98.
	cfg.Openings = openings
	cfg.LadderInterval = interval
	// The net grows at the first round of the resumed run: by the same
	// tuples as in the run that never stopped.
	cfg.Settings = cfg.With("tuples", 12).With("tuple_length", 6).With("grow_at", float64(games*rounds/2))
	if !(&trainer{cfg: cfg}).independent() {
		t.Fatal("a Connect Four league's rounds do not overlap")
	}
	dir := t.TempDir()
	described := map[int]string{} // each round's snapshot's model, as the overlapped league has it last
	leagueOf := func(name string, play func(*store.DB)) (weights map[string][]byte, history map[string][]store.HistoryRow, matches []store.Match, fits map[int64]float64) {
		db, err := store.Open(ctx, filepath.Join(dir, name), func() store.Setup { return Setup(agents.ConnectFour) })
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		play(db)
		list, err := db.Agents(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		weights, history = map[string][]byte{}, map[string][]store.HistoryRow{}
		for _, a := range list {
			full, err := db.Agent(ctx, a.Name)
			if err != nil {
				t.Fatal(err)
			}
			weights[a.Name] = full.Weights
			if full.Kind == store.Checkpoint {
				m, err := ModelOf(agents.ConnectFour, &Agent{Agent: full})
				if err != nil {
					t.Fatal(err)
				}
				described[full.Generation] = m.Describe()
			}
			if history[a.Name], err = db.History(ctx, a.ID); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Matches(ctx, store.MatchFilter{}, func(m store.Match) error { matches = append(matches, m); return nil }); err != nil {
			t.Fatal(err)
		}
		if fits, _, err = db.Fits(ctx); err != nil {
			t.Fatal(err)
		}
		return weights, history, matches, fits
	}
	sw, sh, sm, sf := leagueOf("sequential.db", func(db *store.DB) {
		cfg := cfg
		cfg.Workers = 1
		lg, tr, err := open(ctx, db, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer lg.checkpoints.Wait()
		for range cfg.Rounds {
			if _, err := oneRound(ctx, lg, tr); err != nil {
				t.Fatal(err)
			}
		}
	})
	ow, oh, om, of := leagueOf("overlapped.db", func(db *store.DB) {
		cfg := cfg
		cfg.Workers, cfg.Rounds = 3, rounds/2
		for range 2 {
			if _, err := Run(ctx, db, cfg, Hooks{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	if len(sm) == 0 || len(sw) != rounds+len(agents.ConnectFour.Builtins) {
		t.Errorf("%d matches, %d agents: want matches, and the built-in players and %d snapshots", len(sm), len(sw), rounds)
	}
	if !reflect.DeepEqual(ow, sw) || !reflect.DeepEqual(oh, sh) || !reflect.DeepEqual(om, sm) || !reflect.DeepEqual(of, sf) {
		t.Errorf("overlapped on 3 workers, %d + %d rounds: %d agents, %d matches; one after the other on 1 worker: %d agents, %d matches, or other weights, ratings or histories",
			rounds/2, rounds/2, len(ow), len(om), len(sw), len(sm))
	}
	// 12 walks and 36 lines of 6 cells, then the lines again, of 8.
	for round := 1; round <= rounds; round++ {
		tuples := "48 tuples"
		if round > rounds/2 {
			tuples = "84 tuples"
		}
		if !strings.Contains(described[round], tuples) {
			t.Errorf("round %d's snapshot: %q, want %s", round, described[round], tuples)
		}
	}
}

// oneRound plays a round of lg with trainer tr, training then
// evaluating, as Run does when the rounds take turns.
func oneRound(ctx context.Context, lg *league, tr *trainer) (Report, error) {
	return oneRoundHooks(ctx, lg, tr, Hooks{})
}

// oneRoundHooks is oneRound, telling hooks.
func oneRoundHooks(ctx context.Context, lg *league, tr *trainer, hooks Hooks) (Report, error) {
	opp, err := lg.opponents(ctx, tr.turn())
	if err != nil {
		return Report{}, err
	}
	t := tr.round(ctx, lg.lastRound+1, opp, hooks.Training)
	if t.err != nil {
		return Report{}, t.err
	}
	r, player, err := lg.finish(ctx, &t, hooks, time.Now())
	if err == nil && !tr.independent() {
		tr.keep(t.line, player)
	}
	return r, err
}

// A taught line (expert iteration) is the same however its league is
// played: on one worker round after round, or on three with rounds
// trained ahead and the run stopped and resumed halfway. Its teacher is
// the n-tuple line's network while its own does not beat it, and its
// rounds are its method's length, not the league's.
func TestTaughtLineHoweverPlayed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		method *learn.Method
		small  map[string]float64 // a small network and short rounds
	}{
		{conv.Method, map[string]float64{"conv_games": 30, "conv_layers": 1, "channels": 4, "conv_hidden": 8}},
		{lines.Method, map[string]float64{"lines_games": 30, "line_features": 4, "lines_hidden": 4}},
	} {
		t.Run(c.method.Name, func(t *testing.T) {
			if c.method == conv.Method {
				testkit.Long(t, "the convolutional line, whose league and learner are the lines network's (the quick tier runs that)")
			}
			t.Parallel()
			taughtLineHoweverPlayed(t, c.method, c.small)
		})
	}
}

func taughtLineHoweverPlayed(t *testing.T, method *learn.Method, small map[string]float64) {
	ctx := context.Background()
	cfg := Default(agents.ConnectFour)
	cfg.Learners = []*learn.Method{ntuple.Method, method}
	// Evaluated from the empty board alone: the games against the solver
	// and the MCTS players from every opening of one move were most of
	// the test's CPU, and its point is the training.
	cfg.GamesPerRound, cfg.Opponents, cfg.Rounds, cfg.Openings, cfg.LadderInterval = 3000, 6, 4, 0, 200
	cfg.Settings = cfg.With("tuples", 8).With("line_tuples", 0).With("tuple_length", 4).With("grow_at", 0).With("teacher_depth", 2).With("buffer", 300)
	for name, v := range small {
		cfg.Settings = cfg.With(name, v)
	}
	dir := t.TempDir()
	leagueOf := func(name string, play func(*store.DB)) (weights map[string][]byte, games map[int64]int) {
		db, err := store.Open(ctx, filepath.Join(dir, name), func() store.Setup { return Setup(agents.ConnectFour) })
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		play(db)
		list, err := db.Agents(ctx, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		weights = map[string][]byte{}
		for _, a := range list {
			full, err := db.Agent(ctx, a.Name)
			if err != nil {
				t.Fatal(err)
			}
			weights[a.Name] = full.Weights
		}
		rounds, err := db.Rounds(ctx, 1, int64(cfg.Rounds))
		if err != nil {
			t.Fatal(err)
		}
		games = map[int64]int{}
		for _, r := range rounds {
			games[r.ID] = r.Stats.TrainGames
		}
		return weights, games
	}
	var taught []learn.Model // the teacher of each of the taught line's rounds, one worker
	sw, sg := leagueOf("sequential.db", func(db *store.DB) {
		cfg := cfg
		cfg.Workers = 1
		lg, tr, err := open(ctx, db, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer lg.checkpoints.Wait()
		for range cfg.Rounds {
			if tr.turn() == method.Name {
				taught = append(taught, tr.teacher(tr.lines[1]))
			}
			if _, err := oneRound(ctx, lg, tr); err != nil {
				t.Fatal(err)
			}
		}
	})
	ow, og := leagueOf("overlapped.db", func(db *store.DB) {
		cfg := cfg
		cfg.Workers, cfg.Rounds = 3, 2
		for range 2 {
			if _, err := Run(ctx, db, cfg, Hooks{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	if !reflect.DeepEqual(ow, sw) {
		t.Errorf("overlapped on 3 workers, 2 + 2 rounds: %d agents; one after the other on 1 worker: %d agents, or other weights", len(ow), len(sw))
	}
	if want := map[int64]int{1: 3000, 2: 30, 3: 3000, 4: 30}; !reflect.DeepEqual(sg, want) || !reflect.DeepEqual(og, want) {
		t.Errorf("training games by round: %v one after the other, %v overlapped; want %v", sg, og, want)
	}
	if len(taught) != 2 || taught[0] == nil {
		t.Fatalf("the %s line's teachers: %v, want the n-tuple network first", method.Name, taught)
	}
	if _, ok := taught[0].(*ntuple.Net); !ok {
		t.Errorf("the %s line's first teacher is %s, want the n-tuple network", method.Name, taught[0].Describe())
	}
}

// The learners' state as the first ttt of several learners stored it,
// under the third version's magic but with no retired byte after each
// line's method, reads as the lines it holds: the leagues that ttt made
// resume. The state in the current form still reads as itself.
func TestLearnersWithoutRetiredByte(t *testing.T) {
	t.Parallel()
	kit := agents.TicTacToe
	cfg := Default(kit)
	settings := func(m *learn.Method) learn.Settings { return cfg.settings(kit.Game, m) }
	var lines []*learner
	for i, name := range []string{"policy", "tdlambda"} {
		m, err := agents.MethodOf(name)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := newLearner(kit.Game, m, settings(m), 7, i)
		if err != nil {
			t.Fatal(err)
		}
		ln.games = int64(300 * (i + 1))
		lines = append(lines, ln)
	}
	state, err := marshalLearners(lines, 1)
	if err != nil {
		t.Fatal(err)
	}
	// The old form: the same, less the byte after each method's name.
	old := append([]byte(nil), state[:len(stateMagic)+8]...)
	for rest := state[len(stateMagic)+8:]; len(rest) > 0; {
		n := int(rest[0])
		old = append(old, rest[:1+n]...)
		rest = rest[1+n+1:] // the retired byte
		end := 8
		for range 2 { // the generator's state and the learner's, each behind its length
			end += 4 + int(binary.LittleEndian.Uint32(rest[end:]))
		}
		old, rest = append(old, rest[:end]...), rest[end:]
	}
	for form, data := range map[string][]byte{"current": state, "without retired bytes": old} {
		got, next, err := unmarshalLearners(kit.Game, data, settings)
		if err != nil || next != 1 || len(got) != 2 {
			t.Fatalf("%s: %d lines, next %d, %v", form, len(got), next, err)
		}
		again, err := marshalLearners(got, next)
		if err != nil || !bytes.Equal(again, state) {
			t.Errorf("%s: read back and stored again, %d bytes differ from the state's %d (%v)", form, len(again), len(state), err)
		}
	}
}
