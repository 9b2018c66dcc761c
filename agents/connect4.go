package agents

import (
	"context"
	"math/rand/v2"
	"sync"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
	"ttt/agents/ntuple"
	"ttt/agents/verify"
)

// ConnectFour is a game too large to try every line of: its built-in
// players are random, the tactician (the first rung a learner must pass),
// a ladder of MCTS players at 100, 1,000 and 10,000 playouts a move
// (fixed points whose strength means the same in every league) and the
// solver; its check is the share of a fixed set of solved positions where
// a player's move keeps the value.
//
// The built-in players' Elo is the scale, measured once by
// BenchmarkAnchors (BENCHMARKS.md, "The scale: a long match among the
// built-in players", with the records behind it).
var ConnectFour = &Kit{
	Game:   connect4.Game,
	Layout: Layout{Rows: connect4.Height, Cols: connect4.Width, Drop: true},
	// The n-tuple network in self-play, its only opponent: no exploiter
	// or drills without a solved game, and games against the tactician
	// taught the value net more slowly than its own. Its games are cheap
	// and its grown network's checkpoints are not (BENCHMARKS.md, "The
	// curve of a network that grows"): rounds of fewer games would spend
	// the night writing checkpoints rather than learning, and fill the
	// file.
	Learner: ntuple.Method,
	League:  LeagueDefaults{GamesPerRound: 5_000_000, Openings: 2, Opponents: 32, LadderOpenings: 1, SelfPlay: 1},
	Builtins: []Builtin{
		RandomBuiltin(connect4.Game),
		{Kind: Tactician, Name: "tactician", Elo: 714, Fixed: true, Checked: true,
			New: func(*rand.Rand) game.Player { return tactician }},
		MCTSBuiltin(connect4.Game, 100, 802),
		MCTSBuiltin(connect4.Game, 1000, 1229),
		MCTSBuiltin(connect4.Game, 10000, 1436),
		{Kind: Solver, Name: "solver", Elo: 1487, New: func(*rand.Rand) game.Player { return solverPlayer{} }},
	},
	Positions: connect4.PositionSet,
	Random:    connect4.RandomSet,
	Check: func(p game.Player) game.Facts {
		s := verify.CheckSet(p, connect4.PositionSet())
		r := verify.CheckSet(p, connect4.RandomSet()).All
		return game.Facts{Class: game.Beatable, Shares: &s, Random: &r}
	},
	Analyze: func(ctx context.Context, p game.Position) (map[int]game.Outcome, error) {
		b := connect4.FromPosition(p)
		scores, err := connect4.NewSolver(24).Analyze(ctx, b, false)
		out := map[int]game.Outcome{}
		for col, sc := range scores {
			out[col] = connect4.Outcome(sc, b.Plies())
		}
		return out, err
	},
}

// tactician is connect4.Tactician as a player.
var tactician = game.PlayerFunc(func(p game.Position) int { return connect4.Tactician(connect4.FromPosition(p)) })

// solverBudget is the nodes the solver player searches for each move's
// value, a couple of milliseconds: from about 18 stones on most positions
// solve within it, and the solver plays perfectly there. A match of 98
// games against it takes some seconds.
const solverBudget = 10_000

// solverPlayer plays the solver's move wherever the position's moves
// solve within solverBudget nodes each (the quickest win, else a draw,
// else the slowest loss); elsewhere the best move the budget showed: a
// move known to win, else one not known to lose, the tactician's among
// those, so that it never plays a move it has seen to lose while another
// may not. Its answers depend on nodes searched, not time, so it plays
// the same on every machine.
type solverPlayer struct{}

// solvers keeps the solver player's solvers, one per game under way: a
// table of 2^16 entries each, emptied before every search.
var solvers = sync.Pool{New: func() any { return connect4.NewSolver(16) }}

// Move implements game.Player.
func (solverPlayer) Move(p game.Position) int {
	b := connect4.FromPosition(p)
	if w := b.WinningMoves(); w != 0 {
		return connect4.Tactician(b)
	}
	s := solvers.Get().(*connect4.Solver)
	defer solvers.Put(s)
	scores := map[int]int{}
	var unknown uint8
	for col := range connect4.Width {
		if !b.CanPlay(col) {
			continue
		}
		if sc, ok := s.SolveBudget(b.Play(col), false, solverBudget); ok {
			scores[col] = -sc
		} else {
			unknown |= 1 << col
		}
	}
	if unknown == 0 {
		return connect4.BestMove(scores)
	}
	best := connect4.BestMove(scores)
	if best >= 0 && scores[best] > 0 {
		return best // a known win
	}
	// Not all is known: the tactician's choice among the moves not
	// known to lose, where a known draw counts as not losing too.
	for col, sc := range scores {
		if sc >= 0 {
			unknown |= 1 << col
		}
	}
	if unknown == 0 {
		return best // every move loses: the slowest loss
	}
	return connect4.TacticianAmong(b, unknown)
}
