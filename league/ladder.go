package league

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/league/elo"
	"ttt/store"
)

// A network's ladder rating is its rating from its games against the
// game's built-in players alone, each held at its value (the game's
// scale): no checkpoint of its league counts in it. The league's Elo
// answers "is it better than my other checkpoints": it rests mostly on
// thousands of games within the league's own line, which drifts against
// the ladder, since Elo is not transitive between a self-play line and
// fixed players. The ladder rating answers "how strong is it": the same
// number in every league of the game, as the rating lists of chess
// engines rate against anchored engines.

// LadderHalf is the widest the best's ladder interval may be, either side
// of its rating, unless a run says otherwise (Config.LadderInterval): a
// network that becomes the best plays extra games against the ladder
// until it is this narrow.
const LadderHalf = 30.0

// maxLadderGames bounds the extra games a network plays in one go for its
// ladder rating. Against built-in players far below or above it a game
// says little, and a network beyond every one that draws on a generator
// would otherwise play on for long; it goes on the next time it is
// asked.
const maxLadderGames = 5000

// ladderStep is the most extra games (in whole matches, at least one) a
// network plays before its rating is fitted again and its games shared
// out again.
const ladderStep = 64

// LadderRating is a network's ladder rating, and the extra games it
// played for it just now.
type LadderRating struct {
	Agent  int64
	Rating elo.Rating // Agent's; Games its games against the built-in players
	Rated  bool       // false: it has not played a built-in player
	// Extra are the games played now, in Took, most of them against
	// Opponent.
	Extra    int
	Opponent string
	Took     time.Duration
}

// Half is the half width of the ladder interval; +Inf unrated.
func (l LadderRating) Half() float64 {
	if !l.Rated {
		return math.Inf(1)
	}
	return (l.Rating.Hi - l.Rating.Lo) / 2
}

// LadderRatings returns the ladder ratings of the agents ids that have
// played a built-in player, by id.
func LadderRatings(v *store.View, ids []int64) (map[int64]elo.Rating, error) {
	results, err := v.LadderResults(ids)
	if err != nil {
		return nil, err
	}
	kit := agents.KitFor(v.Game())
	out := make(map[int64]elo.Rating, len(results))
	for id, rs := range results {
		if r, ok := ladderFit(kit, rs); ok {
			r.Agent = id
			out[id] = r
		}
	}
	return out, nil
}

// DBLadderRatings is LadderRatings on its own.
func DBLadderRatings(ctx context.Context, db *store.DB, ids []int64) (out map[int64]elo.Rating, err error) {
	err = db.View(ctx, func(v *store.View) error {
		out, err = LadderRatings(v, ids)
		return err
	})
	return out, err
}

// Ladders are ladder ratings as a reader shows them, read in one state
// of the league: each agent's rating, and which of them are provisional.
type Ladders struct {
	Ratings map[int64]elo.Rating // by agent, of those that have played a built-in player
	// Owed are the networks among them that owe extra games against the
	// ladder (store.View.LadderOwed), each with the round after which:
	// the league run that committed that round was stopped or killed
	// before it stored them, or is playing them now. Their ratings are
	// provisional: the next run plays the games first.
	Owed map[int64]int64
}

// Provisional says, for a reader, whether agent id's ladder rating is
// provisional and why: "provisional: its extra games after round 20 are
// still to be played", or "".
func (l Ladders) Provisional(id int64) string {
	round, ok := l.Owed[id]
	if !ok {
		return ""
	}
	return fmt.Sprintf("provisional: its extra games against the ladder after round %d are still to be played, and a league run plays them first", round)
}

// LaddersOf returns the ladder ratings of the agents ids, and which of
// them are provisional.
func LaddersOf(v *store.View, ids []int64) (Ladders, error) {
	ratings, err := LadderRatings(v, ids)
	if err != nil {
		return Ladders{}, err
	}
	owed, err := v.LadderOwed()
	if err != nil {
		return Ladders{}, err
	}
	for id := range owed {
		if _, ok := ratings[id]; !ok {
			delete(owed, id)
		}
	}
	return Ladders{Ratings: ratings, Owed: owed}, nil
}

// DBLadders is LaddersOf on its own.
func DBLadders(ctx context.Context, db *store.DB, ids []int64) (out Ladders, err error) {
	err = db.View(ctx, func(v *store.View) error {
		out, err = LaddersOf(v, ids)
		return err
	})
	return out, err
}

// ladderFit fits one agent's records against built-in players, each
// anchored at its value: agent 0 against anchors 1, 2, ...
func ladderFit(kit *agents.Kit, rs []store.LadderResult) (elo.Rating, bool) {
	var pairs []elo.Pair
	var anchors []elo.Anchor
	for _, r := range rs {
		b, ok := kit.Builtin(r.Builtin)
		if !ok || r.Games() == 0 {
			continue
		}
		id := int64(len(anchors) + 1)
		pairs = append(pairs, elo.Pair{A: 0, B: id, Record: r.Record})
		anchors = append(anchors, elo.Anchor{ID: id, Elo: b.Elo})
	}
	if len(pairs) == 0 {
		return elo.Rating{}, false
	}
	fitted, err := elo.Fit(pairs, anchors)
	if err != nil {
		return elo.Rating{}, false // one agent, every pair with an anchor: not reached
	}
	return fitted[0], true // agent 0 sorts first
}

// ladderPlayer plays a network's extra games against the ladder.
type ladderPlayer struct {
	half    float64 // the widest the interval may be, either side
	db      *store.DB
	kit     *agents.Kit
	cons    *contestants
	match   *match
	plies   int
	seed    uint64
	workers int
	// tell, if not nil, hears after each match the games played so far
	// and about how many there will be.
	tell func(done, about int)
}

// settle plays extra matches of network id against the ladder and
// stores them, after round. First one match against each built-in player
// it has not met, so that every network's ladder rating rests on the
// same players, whichever its league paired it with (a rating against
// mcts-10 alone is not one against the whole ladder: Elo is not
// transitive among them either). Then, while its ladder interval is
// wider than ±lp.half, in steps of up to ladderStep games, matches
// against the built-in players that draw on a generator (a deterministic
// pair would only repeat its games), shared out among them as ladderShares
// says.
func (lp *ladderPlayer) settle(ctx context.Context, id, round int64) (LadderRating, error) {
	begun := time.Now()
	results, err := lp.db.LadderResults(ctx, []int64{id})
	if err != nil {
		return LadderRating{}, err
	}
	rs := results[id]
	owed, err := lp.db.LadderOwed(ctx)
	if err != nil {
		return LadderRating{}, err
	}
	_, owes := owed[id]
	l := LadderRating{Agent: id}
	var played []store.Match
	perRung := map[string]int{} // the games played now, by built-in player
	add := func(ms []store.Match) {
		for _, m := range ms {
			name := lp.cons.builtins[m.B].Name
			rs = addResult(rs, id, name, m.Record)
			l.Extra += m.Games()
			perRung[name] += m.Games()
		}
		played = append(played, ms...)
	}
	perMatch := 2 * len(lp.match.openings[lp.plies])
	about := 0 // the games the progress told of expects in all
	first := lp.unmet(rs)
	about = len(first) * perMatch
	ms, err := lp.play(ctx, id, first, round, l.Extra, about)
	if err != nil {
		return LadderRating{}, err
	}
	add(ms)
	l.Rating, l.Rated = ladderFit(lp.kit, rs)
	for l.Rated && l.Half() > lp.half && l.Extra < maxLadderGames {
		shares, info := lp.ladderShares(l.Rating.Elo)
		if len(shares) == 0 {
			break // no built-in player draws on a generator
		}
		// The matches the interval asks for, within the bound; this
		// step plays up to ladderStep games of them.
		left := min(int(math.Ceil(elo.GamesFor(l.Half(), lp.half, info)/float64(perMatch))), (maxLadderGames-l.Extra+perMatch-1)/perMatch)
		n := max(1, min(left, (ladderStep+perMatch-1)/perMatch))
		about = l.Extra + max(left, n)*perMatch
		ms, err := lp.play(ctx, id, lp.deal(rs, shares, n, perMatch), round, l.Extra, about)
		if err != nil {
			return LadderRating{}, err
		}
		add(ms)
		l.Rating, l.Rated = ladderFit(lp.kit, rs)
	}
	// The games, and the end of the debt the round's commit recorded
	// (store.Round.Owes), in one transaction. A debt with no games to
	// pay it (a run that allows a wider interval than the one that
	// recorded it) ends too: the rating is what this run leaves.
	if len(played) > 0 || owes {
		if err := lp.db.AddLadderMatches(ctx, id, played); err != nil {
			return LadderRating{}, err
		}
	}
	for name, n := range perRung {
		if n > perRung[l.Opponent] || (n == perRung[l.Opponent] && name < l.Opponent) {
			l.Opponent = name
		}
	}
	l.Rating.Agent, l.Took = id, time.Since(begun)
	return l, nil
}

// unmet returns the first extra matches of a network whose results
// against the built-in players are rs: one against each built-in player
// it has not met.
func (lp *ladderPlayer) unmet(rs []store.LadderResult) []extraMatch {
	var first []extraMatch
	for _, b := range slices.Sorted(maps.Keys(lp.cons.builtins)) {
		if name := lp.cons.builtins[b].Name; !slices.ContainsFunc(rs, func(r store.LadderResult) bool { return r.Builtin == name }) {
			first = append(first, extraMatch{b, 1})
		}
	}
	return first
}

// owes reports whether settle would play extra games for a network whose
// results against the built-in players are rs: it has a built-in player
// to meet, or its interval is wider than lp.half and a built-in player
// draws on a generator.
func (lp *ladderPlayer) owes(rs []store.LadderResult) bool {
	if len(lp.unmet(rs)) > 0 {
		return true
	}
	r, rated := ladderFit(lp.kit, rs)
	if l := (LadderRating{Rating: r, Rated: rated}); !rated || l.Half() <= lp.half {
		return false
	}
	shares, _ := lp.ladderShares(r.Elo)
	return len(shares) > 0
}

// ladderShares returns, for a network rated at, the share of its games
// each built-in player that draws on a generator should have (by id),
// and what a game of that mix says on average: p(1-p) at its expected
// score p against each, the information a game adds to its rating. Each
// one's share is that information, so the games go mostly to the players
// near it, but never all to one.
//
// Its scores against two built-in players need not agree with their
// values, since Elo is not transitive among them: one Connect Four
// network scored as a 1,321 against mcts-1000 and as a 1,412 against
// mcts-10000. Its rating then depends on whom its games were against.
// Sent all to the one that said most for its cost, chosen on the few
// games of its first matches, the same network was rated 94 Elo apart
// in two leagues: a coin toss chose which of the two it met. Shares that
// move smoothly with the rating give every league nearly the same mix,
// and so nearly the same rating.
func (lp *ladderPlayer) ladderShares(at float64) (map[int64]float64, float64) {
	shares := map[int64]float64{}
	total, info := 0.0, 0.0
	for _, id := range slices.Sorted(maps.Keys(lp.cons.builtins)) { // in order: the sums are the same in every run
		b := lp.cons.builtins[id]
		if !b.Random {
			continue
		}
		p := 1 / (1 + math.Pow(10, (b.Elo-at)/400))
		shares[id] = p * (1 - p)
		total += p * (1 - p)
		info += p * (1 - p) * p * (1 - p)
	}
	if total == 0 {
		return nil, 0
	}
	for id := range shares {
		shares[id] /= total
	}
	return shares, info / total
}

// extraMatch is an extra match to play: against built-in player b, the
// pair's extra match number n (its seed's).
type extraMatch struct {
	b int64
	n int
}

// deal shares n matches of perMatch games out among the built-in players
// of shares, each to the one furthest below its share of all the
// network's games against them (rs, and the matches dealt before it), and
// numbers each among its pair's extra matches.
func (lp *ladderPlayer) deal(rs []store.LadderResult, shares map[int64]float64, n, perMatch int) []extraMatch {
	games := map[int64]int{}
	extra := map[int64]int{}
	total := 0
	for id := range shares {
		for _, r := range rs {
			if r.Builtin == lp.cons.builtins[id].Name {
				games[id], extra[id] = r.Games(), r.Extra
				total += r.Games()
			}
		}
	}
	ids := slices.Sorted(maps.Keys(shares))
	var out []extraMatch
	for range n {
		total += perMatch
		var pick int64
		most := math.Inf(-1)
		for _, id := range ids {
			if d := shares[id]*float64(total) - float64(games[id]); d > most {
				pick, most = id, d
			}
		}
		games[pick] += perMatch
		extra[pick]++
		out = append(out, extraMatch{pick, extra[pick]})
	}
	return out
}

// play plays the extra matches of network id in pairs, on lp.workers
// goroutines, each with a seed of its own. After each match it tells
// lp.tell the games played, done before these, and about in all.
func (lp *ladderPlayer) play(ctx context.Context, id int64, pairs []extraMatch, round int64, done, about int) ([]store.Match, error) {
	ids := []int64{id}
	for _, p := range pairs {
		ids = append(ids, p.b)
	}
	cons, err := lp.cons.get(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]store.Match, len(pairs))
	var mu sync.Mutex // keeps done, and the order of what tell hears
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(lp.workers)
	for i, p := range pairs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			seed := mix(lp.seed, uint64(id), uint64(p.b), uint64(p.n))
			var games [][]int
			sides := lp.match.play(ctx, cons[id], cons[p.b], lp.plies, seed, func(m []int, _ bool, _ game.Result) { games = append(games, m) })
			if err := ctx.Err(); err != nil { // a match cut short is not kept
				return err
			}
			out[i] = store.Match{Round: round, A: id, B: p.b, Plies: lp.plies, Seed: seed, Record: sides[game.X].Plus(sides[game.O]),
				Moves: store.EncodeGames(lp.match.game, lp.plies, games)}
			if lp.tell != nil {
				mu.Lock()
				done += out[i].Games()
				lp.tell(done, max(about, done))
				mu.Unlock()
			}
			return nil
		})
	}
	return out, g.Wait()
}

// addResult adds rec, a network's record against the built-in player
// called name in one extra match, to its results rs.
func addResult(rs []store.LadderResult, id int64, name string, rec game.Record) []store.LadderResult {
	for i := range rs {
		if rs[i].Builtin == name {
			rs[i].Record = rs[i].Record.Plus(rec)
			rs[i].Extra++
			return rs
		}
	}
	return append(rs, store.LadderResult{Agent: id, Builtin: name, Record: rec, Extra: 1})
}

// settleSalt sets the seeds of SettleLadder apart from a league's.
const settleSalt = 0x6c6164646572 // "ladder"

// SettleLadder plays the extra games of network ref against the ladder
// (see ladderPlayer.settle) outside a league round: ttt import and ttt
// roundrobin give a network they bring in the treatment a league gives
// its best. cfg gives the seed, the openings and the workers.
func SettleLadder(ctx context.Context, db *store.DB, ref string, cfg Config) (LadderRating, error) {
	kit := agents.KitFor(db.Game())
	a, err := db.Agent(ctx, ref)
	if err != nil {
		return LadderRating{}, err
	}
	cons, err := newContestants(ctx, db, kit)
	if err != nil {
		return LadderRating{}, err
	}
	if _, builtin := cons.builtins[a.ID]; builtin {
		return LadderRating{}, fmt.Errorf("%s is a built-in player: its rating is its value on the scale", a.Name)
	}
	round, _, err := db.LastRound(ctx)
	if err != nil && !errors.Is(err, store.ErrNoRounds) {
		return LadderRating{}, err
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	// Seeded apart from a league's extra games, which a league run may
	// play for the same network meanwhile (ttt import takes no lock): two
	// such matches never repeat each other's games.
	lp := &ladderPlayer{half: cfg.ladderHalf(), db: db, kit: kit, cons: cons, match: newMatch(kit.Game), seed: mix(cfg.Seed, settleSalt), workers: cfg.Workers,
		plies: min(cfg.Openings, kit.League.LadderOpenings)}
	return lp.settle(ctx, a.ID, round)
}

// ladderPlayer returns the player of the best's extra games in a round.
func (lg *league) ladderPlayer() *ladderPlayer {
	return &ladderPlayer{half: lg.cfg.ladderHalf(), db: lg.db, kit: lg.kit, cons: lg.contestants, match: lg.match, seed: lg.cfg.Seed,
		workers: lg.cfg.Workers, plies: min(lg.cfg.Openings, lg.kit.League.LadderOpenings)}
}

// owes is a league round's store.Round.Owes: in the round's commit, the
// best after it, if it is to play extra games against the ladder now
// (ladderPlayer.owes), which the round's line does not wait for.
func (lg *league) owes(v *store.View) (int64, error) {
	best, err := BestName(v)
	if errors.Is(err, store.ErrNoCheckpoints) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	results, err := v.LadderResults([]int64{best.ID})
	if err != nil || !lg.ladderPlayer().owes(results[best.ID]) {
		return 0, err
	}
	return best.ID, nil
}

// settleOwed plays the extra games that networks owe, by the league's
// record of them (store.View.LadderOwed), before a run's first round: a
// run killed between a round's commit and its best's extra games left
// them owed, and this plays them as that round would have.
func (lg *league) settleOwed(ctx context.Context, hooks Hooks) error {
	owed, err := lg.db.LadderOwed(ctx)
	if err != nil {
		return err
	}
	for _, id := range slices.Sorted(maps.Keys(owed)) {
		a, err := lg.db.Agent(ctx, strconv.FormatInt(id, 10))
		if err != nil && !errors.Is(err, store.ErrPruned) {
			return err
		}
		if !a.Kind.Learned() { // ttt check names it too
			return fmt.Errorf("%w: agent %d (%s) owes extra games against the ladder, but is no network the league has learned", store.ErrCorrupt, a.ID, a.Name)
		}
		if err := lg.settle(ctx, a, owed[id], hooks); err != nil {
			return err
		}
	}
	return nil
}

// ladderRound is a league round's part in the ladder, after its commit:
// the best, if it is a network whose ladder interval is wider than the
// run allows, plays its extra games (settleBest). A run stopped meanwhile
// leaves them to the next round: the round is in already.
func (lg *league) ladderRound(ctx context.Context, round int64, hooks Hooks) error {
	err := lg.settleBest(ctx, round, hooks)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// settleBest plays the best's extra games against the ladder, if its ladder
// interval is wider than the run allows, as games of round, and tells
// hooks of them as they go and when they end.
func (lg *league) settleBest(ctx context.Context, round int64, hooks Hooks) error {
	best, err := Lookup(ctx, lg.db, store.Best)
	if errors.Is(err, store.ErrNoCheckpoints) {
		return nil // no network yet
	}
	if err != nil {
		return err
	}
	return lg.settle(ctx, best.Agent, round, hooks)
}

// settle plays the extra games of network a against the ladder, as
// games of round, and tells hooks of them as they go and when they end.
func (lg *league) settle(ctx context.Context, a *store.Agent, round int64, hooks Hooks) error {
	id := a.ID
	lp := lg.ladderPlayer()
	if hooks.Laddering != nil {
		lp.tell = func(done, about int) { hooks.Laddering(round, a.Name, done, about) }
	}
	l, err := lp.settle(ctx, id, round)
	if err != nil {
		return fmt.Errorf("the ladder games of the best, %s: %w", a.Name, err)
	}
	if l.Extra > 0 && hooks.Ladder != nil {
		hooks.Ladder(Laddered{Round: round, Best: a, Ladder: l})
	}
	return nil
}

// Float is how far a network's league Elo has drifted from its ladder
// rating: league minus ladder, in Elo. The league's line of checkpoints
// floats against the ladder by about this much near the network.
func Float(a *store.Agent, ladder elo.Rating) float64 {
	return a.Standing.Elo - ladder.Elo
}
