package web

import (
	"errors"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/verify"
	"ttt/league"
	"ttt/store"
)

// The types below are the API's answers and their parts, as JSON writes
// them, each named for what it holds (agentRef, record, verifyFigures,
// opponentRow): every one is JSON, so none says so in its name.

// agentRef names an agent.
type agentRef struct {
	ID   int64      `json:"id"`
	Name string     `json:"name"`
	Kind store.Kind `json:"kind"`
}

func refOf(a *store.Agent) *agentRef { return &agentRef{ID: a.ID, Name: a.Name, Kind: a.Kind} }

// isPruned reports whether a, as the store read it, is a network or a
// table whose weights ttt prune dropped: the store read neither.
func isPruned(a *store.Agent) bool { return a.Kind.Learned() && len(a.Weights) == 0 }

// bestOf is the league's best in v (league.BestName), nil in a
// league without networks.
func bestOf(v *store.View) (*agentRef, error) {
	n, err := league.BestName(v)
	switch {
	case errors.Is(err, store.ErrNoCheckpoints):
		return nil, nil
	case err != nil:
		return nil, err
	}
	ref := agentRef(n)
	return &ref, nil
}

// interval is a rating with its 95% interval, as every answer gives it.
type interval struct {
	Elo float64 `json:"elo"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
}

func intervalOf(r store.HistoryRow) interval { return interval{Elo: r.Elo, Lo: r.Lo, Hi: r.Hi} }

// ladderRating is a network's ladder rating as every answer gives it:
// provisional while the network owes extra games against the ladder
// (league.Ladders), which a league run plays after the round that made
// it the best, or first thing when it was killed before; owed_after is
// then that round.
type ladderRating struct {
	interval
	Provisional bool   `json:"provisional"`
	OwedAfter   *int64 `json:"owed_after,omitempty"`
}

// laddersOf returns the ladder ratings (league.LaddersOf) of the
// networks of list, by id: a built-in player's rating is its value.
func laddersOf(v *store.View, list ...*store.Agent) (map[int64]*ladderRating, error) {
	var ids []int64
	for _, a := range list {
		if a != nil && a.Kind.PlaysModel() {
			ids = append(ids, a.ID)
		}
	}
	ladders, err := league.LaddersOf(v, ids)
	out := make(map[int64]*ladderRating, len(ladders.Ratings))
	for id, r := range ladders.Ratings {
		l := &ladderRating{interval: interval{Elo: r.Elo, Lo: r.Lo, Hi: r.Hi}}
		if round, ok := ladders.Owed[id]; ok {
			l.Provisional, l.OwedAfter = true, &round
		}
		out[id] = l
	}
	return out, err
}

// floatOf is how far a's league Elo is from its ladder rating l (league
// minus ladder), nil unless both are known.
func floatOf(a *store.Agent, l *ladderRating) *float64 {
	if a == nil || a.Standing == nil || l == nil {
		return nil
	}
	f := a.Standing.Elo - l.Elo
	return &f
}

// record is a win/draw/loss record, from the side of the agent it is
// about.
type record struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

func recordOf(r game.Record) record { return record(r) }

// sides holds a figure as X and as O.
type sides[T any] struct {
	X T `json:"x"`
	O T `json:"o"`
}

// verifyFigures is the exhaustive check of one side (ttt verify): the worst
// result an opponent can force, the opponent lines that beat the agent
// out of all lines, and the positions where its move keeps the game's
// value out of those it reaches.
type verifyFigures struct {
	Worst      string  `json:"worst"`
	Lost       int     `json:"lost"`
	Lines      int     `json:"lines"`
	Optimal    int     `json:"optimal"`
	Positions  int     `json:"positions"`
	OptimalPct float64 `json:"optimal_pct"`
}

// verifyOf is a's exhaustive check, nil for random.
func verifyOf(a *store.Agent) *sides[verifyFigures] {
	if len(a.Verify) < 2 {
		return nil
	}
	v := func(r game.Report) verifyFigures {
		return verifyFigures{Worst: r.Worst.String(), Lost: r.LostLines, Lines: r.Lines,
			Optimal: r.Optimal, Positions: r.Positions, OptimalPct: r.OptimalPercent()}
	}
	return &sides[verifyFigures]{X: v(a.Verify[0]), O: v(a.Verify[1])}
}

// classOf is a's class (perfect, unbeatable, beatable), nil for random,
// whose play has no fixed line to check.
func classOf(a *store.Agent) *string {
	if len(a.Verify) == 0 {
		return nil
	}
	c := a.Class.String()
	return &c
}

// methodOf is how a learned (store.Agent.Method), nil for a built-in
// player.
func methodOf(a *store.Agent) *string {
	if a.Method == "" {
		return nil
	}
	return &a.Method
}

// shareFigure is a score on a game's position set: the positions where the
// agent's move keeps the value, of those it moved in, and their share in
// percent.
type shareFigure struct {
	Optimal   int     `json:"optimal"`
	Positions int     `json:"positions"`
	Pct       float64 `json:"pct"`
}

// curveShares reads the position-set shares of the agents of curve, by
// agent; none for a game without a position set.
func curveShares(v *store.View, kit *agents.Kit, curve []store.CurvePoint) (map[int64]store.SetShares, error) {
	if kit.Positions == nil {
		return nil, nil
	}
	ids := make([]int64, len(curve))
	for i, c := range curve {
		ids[i] = c.Agent
	}
	return v.Shares(ids)
}

// shareFigures is the position-set check (Connect Four's): the share of
// optimal moves overall and by phase of the game.
type shareFigures struct {
	// Random is the share of the set of positions reached by random
	// moves, absent for an agent measured before that set; the others
	// are the tactical set's.
	Random *shareFigure `json:"random,omitempty"`
	All    shareFigure  `json:"all"`
	Early  shareFigure  `json:"early"`
	Middle shareFigure  `json:"middle"`
	Late   shareFigure  `json:"late"`
}

// sharesOf is a's position-set check, nil where its game has none or it
// was not measured.
func sharesOf(a *store.Agent) *shareFigures {
	if a.Shares == nil {
		return nil
	}
	sc := func(s game.Score) shareFigure {
		return shareFigure{Optimal: s.Optimal, Positions: s.Positions, Pct: s.Percent()}
	}
	out := &shareFigures{All: sc(a.Shares.All), Early: sc(a.Shares.Early), Middle: sc(a.Shares.Middle), Late: sc(a.Shares.Late)}
	if a.Random != nil {
		r := sc(*a.Random)
		out.Random = &r
	}
	return out
}

// floorFigures is what a uniformly random player is expected to keep of the
// position sets, in percent: the floor of the shares, as shareFigures
// has them.
type floorFigures struct {
	Random *float64 `json:"random,omitempty"` // absent for a game without a random-ply set
	All    float64  `json:"all"`
	Early  float64  `json:"early"`
	Middle float64  `json:"middle"`
	Late   float64  `json:"late"`
}

// floorOf is the floor of kit's position sets, nil for a game without
// one.
func floorOf(kit *agents.Kit) *floorFigures {
	if kit.Positions == nil {
		return nil
	}
	all, ph := verify.RandomShare(kit.Positions())
	out := &floorFigures{All: 100 * all, Early: 100 * ph[0], Middle: 100 * ph[1], Late: 100 * ph[2]}
	if kit.Random != nil {
		random, _ := verify.RandomShare(kit.Random())
		random *= 100
		out.Random = &random
	}
	return out
}
