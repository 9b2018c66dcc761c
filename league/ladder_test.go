package league_test

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"ttt/agents"
	"ttt/league"
	"ttt/league/elo"
	"ttt/store"
)

// ladderFitOf fits agent id's games against the built-in players, the
// league's match and its extra ones, read as stored, each built-in player
// anchored at its value: what the ladder rating must be.
func ladderFitOf(t *testing.T, db *store.DB, id int64) elo.Rating {
	t.Helper()
	ctx := context.Background()
	names, err := db.Builtins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var pairs []elo.Pair
	add := func(m store.Match) error {
		if _, ok := names[m.B]; ok && m.A == id {
			pairs = append(pairs, elo.Pair{A: m.A, B: m.B, Record: m.Record})
		}
		return nil
	}
	if err := db.Matches(ctx, store.MatchFilter{Agent: id}, add); err != nil {
		t.Fatal(err)
	}
	if err := db.LadderMatches(ctx, store.MatchFilter{Agent: id}, add); err != nil {
		t.Fatal(err)
	}
	var anchors []elo.Anchor
	for b, name := range names {
		builtin, _ := agents.TicTacToe.Builtin(name)
		anchors = append(anchors, elo.Anchor{ID: b, Elo: builtin.Elo})
	}
	fitted, err := elo.Fit(pairs, anchors)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range fitted {
		if r.Agent == id {
			return r
		}
	}
	t.Fatalf("agent %d has no games against the built-in players", id)
	return elo.Rating{}
}

// The best of a league has its ladder rating within ±30 Elo: the games
// it played against the built-in players, the extra ones its round added
// among them, fitted alone with the anchors at their values. Its extra
// games are stored, exported with its other games against the ladder,
// and checked.
func TestLadderRatingOfTheBest(t *testing.T) {
	t.Parallel()
	_, db := smallLeague(t, 4)
	ctx := context.Background()
	best, err := league.Lookup(ctx, db, store.Best)
	if err != nil {
		t.Fatal(err)
	}
	ratings, err := league.DBLadderRatings(ctx, db, []int64{best.ID})
	if err != nil {
		t.Fatal(err)
	}
	got, ok := ratings[best.ID]
	if !ok || (got.Hi-got.Lo)/2 > league.LadderHalf {
		t.Fatalf("the best's ladder rating %+v (rated %v), want one within ±%v", got, ok, league.LadderHalf)
	}
	want := ladderFitOf(t, db, best.ID)
	if math.Abs(got.Elo-want.Elo) > 1e-9 || math.Abs(got.Lo-want.Lo) > 1e-9 || got.Games != want.Games {
		t.Errorf("the best's ladder rating %+v, want the fit of its games against the built-in players %+v", got, want)
	}
	extra := 0
	if err := db.LadderMatches(ctx, store.MatchFilter{Agent: best.ID}, func(m store.Match) error {
		extra += m.Games()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if extra == 0 {
		t.Fatalf("the best played no extra games against the ladder: its matches alone gave ±%.1f", (got.Hi-got.Lo)/2)
	}
	exported := 0
	if err := league.Games(ctx, db, store.MatchFilter{Agent: best.ID, Ladder: true}, func(league.StoredGame) error {
		exported++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if exported != got.Games {
		t.Errorf("games export --ladder wrote %d games of the best, want the %d of its ladder rating", exported, got.Games)
	}
	var found []string
	if _, err := db.Check(ctx, func(s string) { found = append(found, s) }); err != nil || len(found) > 0 {
		t.Errorf("check: %v (%v), want nothing found", found, err)
	}
}

// leagueWithVisitor returns a small league of two rounds and its latest
// network imported into it again as "visitor", not yet rated.
func leagueWithVisitor(t *testing.T) (*store.DB, *store.Agent) {
	t.Helper()
	_, db := smallLeague(t, 2)
	ctx := context.Background()
	latest, err := db.Agent(ctx, store.Latest)
	if err != nil {
		t.Fatal(err)
	}
	visitor := &store.Agent{Kind: store.Imported, Name: "visitor", Method: latest.Method, Weights: latest.Weights, Hidden: latest.Hidden}
	m, err := league.ModelOf(agents.TicTacToe, &league.Agent{Agent: visitor})
	if err != nil {
		t.Fatal(err)
	}
	league.Measure(agents.TicTacToe, visitor, m)
	if err := db.AddAgent(ctx, visitor); err != nil {
		t.Fatal(err)
	}
	return db, visitor
}

// An imported network gets its ladder rating at once, as a best does,
// before the league has rated it; asked again, it plays no more.
func TestSettleLadderOfAnImport(t *testing.T) {
	t.Parallel()
	db, visitor := leagueWithVisitor(t)
	ctx := context.Background()
	ref := strconv.FormatInt(visitor.ID, 10)
	l, err := league.SettleLadder(ctx, db, ref, small())
	if err != nil {
		t.Fatal(err)
	}
	if !l.Rated || l.Half() > league.LadderHalf || l.Extra == 0 || l.Rating.Games != l.Extra {
		t.Fatalf("an import's ladder rating %+v, want one within ±%v from its extra games alone", l, league.LadderHalf)
	}
	if want := ladderFitOf(t, db, visitor.ID); math.Abs(l.Rating.Elo-want.Elo) > 1e-9 {
		t.Errorf("an import's ladder rating %.3f, want %.3f", l.Rating.Elo, want.Elo)
	}
	again, err := league.SettleLadder(ctx, db, ref, small())
	if err != nil || again.Extra != 0 || again.Rating != l.Rating {
		t.Errorf("asked again: %+v (%v), want no more games and the same rating %+v", again, err, l.Rating)
	}
	if _, err := league.SettleLadder(ctx, db, "random", small()); err == nil {
		t.Error("a built-in player was given a ladder rating")
	}
}

// An import whose first matches leave its interval wide plays its extra
// games against every built-in player that draws on a generator, each
// getting a share of them by what a game against it says about a network
// of its rating, p(1-p) at its expected score p: not all against one,
// whose value its scores need not agree with.
func TestLadderSharesItsExtraGames(t *testing.T) {
	t.Parallel()
	db, visitor := leagueWithVisitor(t)
	ctx := context.Background()
	// Matches over the openings of one move, 18 games: the first match
	// against each built-in player leaves the interval near ±70.
	cfg := small()
	cfg.Openings = 1
	l, err := league.SettleLadder(ctx, db, strconv.FormatInt(visitor.ID, 10), cfg)
	if err != nil {
		t.Fatal(err)
	}
	names, err := db.Builtins(ctx)
	if err != nil {
		t.Fatal(err)
	}
	games := map[string]int{}
	if err := db.LadderMatches(ctx, store.MatchFilter{Agent: visitor.ID}, func(m store.Match) error {
		games[names[m.B]] += m.Games()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	total, sum := 0, 0.0
	for _, name := range names {
		b, _ := agents.TicTacToe.Builtin(name)
		if !b.Random {
			continue
		}
		p := 1 / (1 + math.Pow(10, (b.Elo-l.Rating.Elo)/400))
		want[name] = p * (1 - p)
		sum += p * (1 - p)
		total += games[name]
	}
	if total <= 18*len(want) {
		t.Fatalf("%d games against the built-in players that draw on a generator: no more than their first matches (%+v)", total, l)
	}
	for name, w := range want {
		share := float64(games[name]) / float64(total)
		if math.Abs(share-w/sum) > 0.1 {
			t.Errorf("%s: %d of the %d games against the built-in players that draw on a generator (%.2f), want about %.2f at the rating %.1f",
				name, games[name], total, share, w/sum, l.Rating.Elo)
		}
	}
}

// A run's --ladder-interval is how narrow the extra games make a
// network's ladder interval: at ±60 they stop short of ±30, and a run at
// the default plays on from there to ±30.
func TestLadderInterval(t *testing.T) {
	t.Parallel()
	db, visitor := leagueWithVisitor(t)
	ctx := context.Background()
	cfg := small()
	cfg.Openings = 1
	cfg.LadderInterval = 60
	wide, err := league.SettleLadder(ctx, db, strconv.FormatInt(visitor.ID, 10), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !wide.Rated || wide.Half() > 60 || wide.Half() <= league.LadderHalf || wide.Extra == 0 {
		t.Fatalf("at --ladder-interval 60: %+v (±%.1f), want extra games that stop within ±60, short of ±%v", wide, wide.Half(), league.LadderHalf)
	}
	cfg.LadderInterval = 0
	narrow, err := league.SettleLadder(ctx, db, strconv.FormatInt(visitor.ID, 10), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if narrow.Half() > league.LadderHalf || narrow.Extra == 0 {
		t.Errorf("then at the default: %+v (±%.1f), want more extra games, to within ±%v", narrow, narrow.Half(), league.LadderHalf)
	}
}

// A run stopped while its best plays its extra games against the ladder
// (here by a cancel at the first of them: no timing) has committed the
// round, and owes those games: the best's ladder rating reads as
// provisional, and only the best's. The next run plays them before its
// first round, as the stopped run would have: after it the extra games
// and every ladder rating are those of a league that never stopped, and
// nothing is owed.
func TestStoppedLadderGamesAreOwed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := small()
	cfg.GamesPerRound = 500
	cfg.Workers = 1

	whole := open(t, filepath.Join(t.TempDir(), "whole.db"))
	cfg.Rounds = 1
	if _, err := league.Run(ctx, whole, cfg, league.Hooks{}); err != nil {
		t.Fatal(err)
	}

	db := open(t, filepath.Join(t.TempDir(), "league.db"))
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	laddering := false
	last, err := league.Run(stop, db, cfg, league.Hooks{Laddering: func(round int64, best string, done, about int) {
		laddering = true
		cancel()
	}})
	if !laddering || err != nil || last != 1 {
		t.Fatalf("a run stopped in its best's extra games: laddered %v, round %d, %v", laddering, last, err)
	}
	best, err := league.Lookup(ctx, db, store.Best)
	if err != nil {
		t.Fatal(err)
	}
	ids := []int64{best.ID, best.ID - 1}
	ladders, err := league.DBLadders(ctx, db, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(ladders.Owed) != 1 || ladders.Owed[best.ID] != 1 || ladders.Provisional(best.ID) == "" {
		t.Errorf("after the stop, owed %v, want the best, %d, after round 1 alone", ladders.Owed, best.ID)
	}

	// The next run starts no round (its duration is up at once): it
	// plays what is owed, and that alone.
	cfg.Rounds, cfg.Duration = 0, time.Nanosecond
	if last, err := league.Run(ctx, db, cfg, league.Hooks{}); err != nil || last != 1 {
		t.Fatalf("the run after the stop: round %d, %v", last, err)
	}
	after, err := league.DBLadders(ctx, db, ids)
	if err != nil {
		t.Fatal(err)
	}
	want, err := league.DBLadders(ctx, whole, ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Owed) > 0 || !reflect.DeepEqual(after.Ratings, want.Ratings) {
		t.Errorf("after the next run: ladder ratings %v, owed %v; a league that never stopped: %v", after.Ratings, after.Owed, want.Ratings)
	}
	if got, want := withExtra(t, db, store.MatchFilter{Ladder: true}), withExtra(t, whole, store.MatchFilter{Ladder: true}); !reflect.DeepEqual(got, want) {
		t.Errorf("after the next run: %d matches with the extra ones, a league that never stopped %d", len(got), len(want))
	}
}
