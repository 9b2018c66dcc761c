// Package agents holds the games ttt plays with what it knows of each
// (Kit): the players every league of a game has built in, the check that
// measures a player, and the compact form of a deterministic player where
// the game is small enough for one. UCT, the MCTS player of random
// playouts that every game has built in, lives here too.
//
// The rules of each game live in a sub-package of game; networks and
// their learning rule in nn; the checks in verify.
package agents

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/learn"
	"ttt/agents/train"
	"ttt/agents/verify"
)

// Kit is a game and what ttt knows of playing it.
type Kit struct {
	game.Game
	// Layout is how the board is drawn and where a move goes.
	Layout Layout
	// ReadBoard reads a position written as its cells, X, O or . each,
	// in the order of Layout, the top row first (tic-tac-toe's
	// X.O......), and checks that a game can reach it. Nil for a game
	// whose positions are given by their moves: where a stone lands
	// depends on the stones under it, and the moves say that in a few
	// characters.
	ReadBoard func(s string) (game.Position, error)
	// Solved: every position's value is known (tic-tac-toe's 5,478), so
	// a league can build exploiters and drills (Exploiter, Mistakes,
	// Optimal, Perfect), train against them, and compile players into
	// tables; a league check classes its players (perfect, beatable).
	Solved bool
	// Learner is the method a league of the game learns by, unless told
	// otherwise; League how that league runs.
	Learner *learn.Method
	League  LeagueDefaults
	// Builtins are the players every league of the game has from its
	// creation, random, the scale's 0, first.
	Builtins []Builtin
	// Check measures a deterministic player: the facts a league keeps of
	// it.
	Check func(p game.Player) game.Facts
	// Positions and Random are the fixed sets of solved positions that
	// Check plays, for a game too large to try every line (nil
	// otherwise): positions from games of tactical players, and
	// positions reached by random moves, which no player's games shape.
	Positions, Random func() []game.Solved
	// Analyze returns the exact outcome of every legal move in p, by
	// move, for the side to move. It may search for long on a large
	// game; stopped by ctx, it returns the outcomes it has, the likeliest
	// best moves first, with ctx's error.
	Analyze func(ctx context.Context, p game.Position) (map[int]game.Outcome, error)
	// Compile writes a deterministic player out as the table of its moves
	// in every position, which a league stores with a network and plays
	// in its place; Compiled reads a table back, refusing one that is not
	// a player's. Both nil where the game is too large for tables.
	Compile  func(p game.Player) []byte
	Compiled func(table []byte) (game.Player, error)

	// Training aids of a game whose every position is solved, nil
	// otherwise. Exploiter returns the opponent that wins wherever the
	// deterministic player target can be forced to lose, and plays at
	// random elsewhere; Mistakes the positions where target throws the
	// game's value away, on either side; Optimal whether move keeps the
	// value of p; Perfect the perfect player.
	Exploiter func(target game.Player, rng *rand.Rand) game.Player
	Mistakes  func(target game.Player) []game.Position
	Optimal   func(p game.Position, move int) bool
	Perfect   func() game.Player
}

// LeagueDefaults are how a league of a game runs where no flag says
// otherwise: rounds of GamesPerRound training games, evaluation over
// every opening of Openings moves against pools of Opponents members (of
// at most LadderOpenings moves against the slow built-in players, the
// MCTS players and the solver), and the shares of the training games
// against the learner itself, its exploiter and drills (the rest against
// random).
type LeagueDefaults struct {
	GamesPerRound, Openings, Opponents, LadderOpenings int
	SelfPlay, Exploit, Drill                           float64
}

// The kinds of built-in players, as a league stores them (Builtin.Kind):
// random in every game's league, perfect in tic-tac-toe's, the tactician
// and the solver in Connect Four's, and the MCTS ladder in both. A kind
// added here is added to the store's schema too, whose list of kinds a
// test holds these to.
const (
	Random    = "random"    // a uniformly random legal move: the scale's 0
	Perfect   = "perfect"   // exact minimax: the ceiling
	Tactician = "tactician" // wins at once, else blocks, else the centre
	MCTS      = "mcts"      // Monte Carlo tree search with random playouts
	Solver    = "solver"    // the exact solver, within a budget
)

// Builtin is a player that every league of a game has from its creation.
type Builtin struct {
	Kind string // one of the kinds above
	Name string
	// Elo is its rating on the game's scale, where every league of the
	// game anchors it: random at 0, the others where a long match among
	// the built-in players puts them (league's BenchmarkAnchors; docs/league.md,
	// "One scale per game"). Anchored players whose strength never changes are
	// what makes the ratings of two leagues of a game one scale, as the
	// anchored engines of the engine rating lists do.
	Elo float64
	// Fixed: every newcomer to the league plays it. The others are
	// played where a newcomer's rating comes near theirs.
	Fixed bool
	// New returns the player for one game, drawing on rng if it is not
	// deterministic.
	New func(rng *rand.Rand) game.Player
	// Random: its moves draw on rng.
	Random bool
	// Playouts: an MCTS player's playouts a move, which its moves cost
	// beside a move of random or of a network; 0 for the others.
	Playouts int
	// Checked: a league checks it when it is made (kit.Check), as it
	// checks its networks; the others, which take a while to move, are
	// checked by ttt verify.
	Checked bool
}

// Games are the games ttt plays, the default first. Adding a game is
// adding its Kit here (or calling Register from its package).
var Games = []*Kit{TicTacToe, ConnectFour}

// TicTacToe is ttt-rl's game, whose every position is known: its
// built-in players are random, the perfect player and a ladder of MCTS
// players at 10, 100 and 1,000 playouts a move, its check is the
// exhaustive one (every opponent line) and its players are tables.
//
// The built-in players' Elo is the scale, measured once by
// BenchmarkAnchors (BENCHMARKS.md, "The scale: a long match among the
// built-in players"). MCTS-1,000 rates a little above perfect, which
// never loses: it beats random more often. The ladder stops an order of
// magnitude below Connect Four's: MCTS-10,000 would play as perfect
// does, at ten times the cost, which a league paying it every round
// would feel.
var TicTacToe = &Kit{
	Game:      tictactoe.Game,
	Layout:    Layout{Rows: 3, Cols: 3},
	ReadBoard: func(s string) (game.Position, error) { b, err := tictactoe.ReadBoard(s); return b.Position(), err },
	Solved:    true,
	// ttt-rl's net, made perfect by the exploiter and the drills: the
	// mix that reached an unbeatable checkpoint fastest for every seed
	// measured (docs/learning.md, "How it learns").
	Learner: train.PolicyMethod,
	League:  LeagueDefaults{GamesPerRound: 20000, Openings: 2, Opponents: 32, LadderOpenings: 2, SelfPlay: 0.2, Exploit: 0.3, Drill: 0.2},
	Builtins: []Builtin{
		RandomBuiltin(tictactoe.Game),
		{Kind: Perfect, Name: "perfect", Elo: 494, Fixed: true, Checked: true,
			New: func(*rand.Rand) game.Player { return tictactoe.Perfect() }},
		MCTSBuiltin(tictactoe.Game, 10, 222),
		MCTSBuiltin(tictactoe.Game, 100, 440),
		MCTSBuiltin(tictactoe.Game, 1000, 503),
	},
	Check: func(p game.Player) game.Facts {
		x, o := verify.Check(p, game.X), verify.Check(p, game.O)
		return game.Facts{Verify: []game.Report{x, o}, Class: verify.Classify(x, o),
			VsRandom: []game.Expect{verify.Exact(p, game.X), verify.Exact(p, game.O)}}
	},
	Analyze: func(_ context.Context, p game.Position) (map[int]game.Outcome, error) {
		b, out := tictactoe.FromPosition(p), map[int]game.Outcome{}
		for m := b.Empty(); m != 0; m &= m - 1 {
			sq := bits.TrailingZeros16(m)
			out[sq] = tictactoe.Solve().Outcome(b, sq)
		}
		return out, nil
	},
	Compile:  tictactoe.Compile,
	Compiled: tictactoe.Compiled,
	Exploiter: func(target game.Player, rng *rand.Rand) game.Player {
		return tictactoe.NewExploiter(tictactoe.NewTable(target), rng)
	},
	Mistakes: func(target game.Player) []game.Position {
		var out []game.Position
		for _, side := range []game.Side{game.X, game.O} {
			for _, b := range verify.Mistakes(target, side) {
				out = append(out, b.Position())
			}
		}
		return out
	},
	Optimal: func(p game.Position, move int) bool {
		return tictactoe.Solve().Optimal(tictactoe.FromPosition(p), move)
	},
	Perfect: func() game.Player { return tictactoe.Perfect() },
}

// RandomBuiltin is the uniformly random player of g, the scale's 0.
func RandomBuiltin(g game.Game) Builtin {
	return Builtin{Kind: Random, Name: "random", Fixed: true, Random: true,
		New: func(rng *rand.Rand) game.Player { return game.Random{Game: g, Rand: rng} }}
}

// KitOf returns the kit of the game called name.
func KitOf(name string) (*Kit, error) {
	var names []string
	for _, k := range Games {
		if k.Name() == name {
			return k, nil
		}
		names = append(names, k.Name())
	}
	return nil, fmt.Errorf("unknown game %q: ttt plays %s", name, strings.Join(names, ", "))
}

// Builtin returns the built-in player called name, or false.
func (k *Kit) Builtin(name string) (Builtin, bool) {
	for _, b := range k.Builtins {
		if b.Name == name {
			return b, true
		}
	}
	return Builtin{}, false
}

// KitFor returns the kit of g, one of the games of Games (or their kits).
func KitFor(g game.Game) *Kit {
	if k, ok := g.(*Kit); ok {
		return k
	}
	for _, k := range Games {
		if k.Game == g {
			return k
		}
	}
	panic("ttt does not play " + g.Name())
}
