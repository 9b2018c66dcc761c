// Package game is the seam between ttt and the games it plays: what every
// two-player board game with alternating moves and no chance looks like to
// the learners, the players and the league. Each game is a sub-package
// (tictactoe, connect4) that implements Game; nothing above this package
// asks which game it plays.
//
// The split is OpenSpiel's: a Game holds the rules and sizes, a Position
// is a state of play. A position of any game is two 64-bit words whose
// meaning is the game's own (one mask per side for tic-tac-toe, the
// stones of the side to move and a mask of all stones for Connect Four),
// so that positions are values: they are copied, compared and used as map
// keys without allocating, and a game of 64 cells or fewer fits.
package game

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
)

// Side is a player: X, who moves first, or O. Connect Four's first and
// second players are X and O too.
type Side int8

// The two sides.
const (
	X Side = iota
	O
)

// Other returns the opponent of s.
func (s Side) Other() Side { return 1 - s }

// String returns "X" or "O".
func (s Side) String() string {
	if s == X {
		return "X"
	}
	return "O"
}

// ParseSide reads "X" or "O" (either case).
func ParseSide(s string) (Side, error) {
	switch strings.ToUpper(s) {
	case "X":
		return X, nil
	case "O":
		return O, nil
	}
	return X, fmt.Errorf("side must be X or O, not %q", s)
}

// Result is the state of a game: still going, won by one side, or a tie.
type Result int8

// The possible results.
const (
	Ongoing Result = iota
	XWins
	OWins
	Tie
)

// String returns a short name for r.
func (r Result) String() string {
	return [...]string{"ongoing", "X wins", "O wins", "tie"}[r]
}

// Win returns the result in which s wins.
func Win(s Side) Result { return XWins + Result(s) }

// Value is the game-theoretic outcome of a position for the side to move
// when both sides play perfectly: +1 a win, 0 a draw, -1 a loss.
type Value int8

// The three values.
const (
	Loss Value = -1
	Draw Value = 0
	Won  Value = 1
)

// String names v.
func (v Value) String() string {
	return [...]string{"loss", "draw", "win"}[v+1]
}

// registered are the games whose packages are loaded, by name. Each
// game's package registers its Game as it is initialised (Register), as
// database/sql's drivers do, so that what keeps a game's name (the league
// database) reads it back without a list of every game.
var registered = map[string]Game{}

// Register makes g known by its name. Two games of one name panic: a
// name is what a league file stores.
func Register(g Game) {
	if _, taken := registered[g.Name()]; taken {
		panic("game: two games named " + g.Name())
	}
	registered[g.Name()] = g
}

// Named returns the registered game called name.
func Named(name string) (Game, error) {
	if g, ok := registered[name]; ok {
		return g, nil
	}
	names := make([]string, 0, len(registered))
	for n := range registered {
		names = append(names, n)
	}
	slices.Sort(names)
	return nil, fmt.Errorf("unknown game %q: this ttt plays %s", name, strings.Join(names, ", "))
}

// Position is a state of play of some game, in the game's own encoding.
// The zero Position is not the start of every game: ask Game.Start.
type Position struct{ A, B uint64 }

// Game is the rules of one game. Moves are numbered 0..Moves()-1 (the
// squares of tic-tac-toe, the columns of Connect Four), which are also the
// network's outputs. The methods that take a position expect one the game
// made; Play expects a legal move of a game that is not over.
type Game interface {
	Name() string  // the name a league stores and --game takes: tictactoe, connect4
	Title() string // the name people read: tic-tac-toe, Connect Four
	Start() Position
	Moves() int    // how many moves there are: the network's outputs
	MaxPlies() int // the longest game
	Legal(p Position) uint64
	Play(p Position, move int) Position
	Result(p Position) Result
	ToMove(p Position) Side
	Plies(p Position) int // the moves played to reach p

	// Inputs is the size of the network's input, whose last input is
	// the side to move: 1 when X is to move. Encode appends to on the
	// inputs that are 1 in p, the side input first when it is on and
	// then the others in increasing order (a network sums their weight
	// rows in that order, so that folding the side input into the
	// biases gives bit-identical activations).
	Inputs() int
	Encode(p Position, on []int32) []int32

	// Board describes the cells an n-tuple network reads; CellStates
	// writes the state of each cell of p into dst (Board().Cells
	// long), numbered as Board says. Changes appends to dst the cells
	// that move changes in p, with their states before and after: what
	// CellStates of the two positions differ by, without reading the
	// cells that stay (an n-tuple net looks at every move of every
	// position it plays, and a move changes one cell or two of 42).
	Board() Board
	CellStates(p Position, dst []uint8)
	Changes(p Position, move int, dst []Change) []Change

	// Format draws p as text rows; FormatMove and ParseMove turn a move
	// into the form people type (a square 0-8, a column 1-7) and back;
	// MoveName is what a move is called: square, column.
	Format(p Position) string
	MoveName() string
	FormatMove(move int) string
	ParseMove(s string) (int, error)
}

// Board is a game's board as an n-tuple network reads it: Cells cells in
// rows of Width, numbered row by row, each in one of States states (0 is always an empty cell, 1 a stone of X
// and 2 one of O; a game may add states, as Connect Four tells an empty
// cell where a stone can be dropped now from one it cannot reach yet),
// and the symmetries of the board, each a permutation of the cells
// (cell i goes to Symmetries[s][i]) that maps every position to one of
// the same value: the identity first.
type Board struct {
	Cells, Width, States int
	Symmetries           [][]int
	// Lines are the lines of cells that win the game, each as its cells.
	Lines [][]int
}

// Change is a cell that a move changes, from one state to another.
type Change struct {
	Cell     int
	From, To uint8
}

// Player chooses a move for the side to move in a position whose game is
// not over. The move must be legal.
type Player interface {
	Move(p Position) int
}

// Play plays the game on from p, x moving for X and o for O, and returns
// how it ended.
func Play(g Game, p Position, x, o Player) Result {
	players := [2]Player{x, o}
	for g.Result(p) == Ongoing {
		p = g.Play(p, players[g.ToMove(p)].Move(p))
	}
	return g.Result(p)
}

// Replay returns the position after moves from the start of g, or an
// error that names the first move that cannot be played.
func Replay(g Game, moves []int) (Position, error) {
	p := g.Start()
	for i, m := range moves {
		if err := CheckMove(g, p, m); err != nil {
			return p, fmt.Errorf("move %d (%s): %w", i+1, g.FormatMove(m), err)
		}
		p = g.Play(p, m)
	}
	return p, nil
}

// CheckMove explains why move cannot be played in p, or returns nil.
func CheckMove(g Game, p Position, move int) error {
	switch {
	case g.Result(p) != Ongoing:
		return fmt.Errorf("the game is over")
	case move < 0 || move >= g.Moves():
		return fmt.Errorf("%s %s is off the board", g.MoveName(), g.FormatMove(move))
	case g.Legal(p)&(1<<move) == 0:
		return fmt.Errorf("%s %s cannot be played", g.MoveName(), g.FormatMove(move))
	}
	return nil
}

// Openings returns every opening of the given number of plies, as the
// moves played in order (moves tried in increasing order at each ply): one
// empty opening for 0 plies, a game's Moves() for 1 (fewer where a move
// ends the game). Greedy agents are deterministic, so without openings two
// of them would play one game over and over; a fixed set of openings in
// both colours makes their match say something, the same way for every
// pair.
func Openings(g Game, plies int) [][]int {
	var out [][]int
	var walk func(p Position, moves []int)
	walk = func(p Position, moves []int) {
		if len(moves) == plies {
			out = append(out, append([]int(nil), moves...))
			return
		}
		if g.Result(p) != Ongoing {
			return
		}
		for legal := g.Legal(p); legal != 0; legal &= legal - 1 {
			m := bits.TrailingZeros64(legal)
			walk(g.Play(p, m), append(moves, m))
		}
	}
	walk(g.Start(), nil)
	return out
}

// RandomMove returns a uniformly random legal move in p.
func RandomMove(g Game, p Position, rng *rand.Rand) int {
	legal := g.Legal(p)
	for k := rng.IntN(bits.OnesCount64(legal)); k > 0; k-- {
		legal &= legal - 1 // drop the lowest legal move
	}
	return bits.TrailingZeros64(legal)
}

// Random plays a uniformly random legal move: the scale's 0 in every
// game. It is not safe for concurrent use: give each game its own,
// seeded per game, so that results do not depend on scheduling.
type Random struct {
	Game Game
	Rand *rand.Rand
}

// Move implements Player.
func (r Random) Move(p Position) int { return RandomMove(r.Game, p, r.Rand) }

// PlayerFunc is a function used as a Player.
type PlayerFunc func(Position) int

// Move implements Player.
func (f PlayerFunc) Move(p Position) int { return f(p) }

// Outcome is the exact value of a move for the side that plays it, with
// perfect play from both sides after it, and in how many plies of the
// game, that move included, a won or lost game ends: the quickest win the
// winner can force against the slowest loss. Plies is 0 for a draw.
type Outcome struct {
	Value Value
	Plies int
}

// Solved is a position with the exact value of each of its legal moves
// for the side to move: an item of a fixed set of positions that measures
// a player where the game is too large to try every line.
type Solved struct {
	Position Position
	Plies    int           // the moves played to reach it
	Values   map[int]Value // by legal move
}

// Best is the position's value: the best value of its moves.
func (s Solved) Best() Value {
	best := Loss
	for _, v := range s.Values {
		best = max(best, v)
	}
	return best
}

// ParseValues reads the values of the moves of p, one character a move
// in the order of the moves: W win, D draw, L loss, - a move that cannot
// be played.
func ParseValues(g Game, p Position, values string) (map[int]Value, error) {
	if len(values) != g.Moves() {
		return nil, fmt.Errorf("%d values for %d moves", len(values), g.Moves())
	}
	out := map[int]Value{}
	legal := g.Legal(p)
	for m, v := range values {
		ok := legal&(1<<m) != 0
		switch {
		case v == '-' && !ok:
		case v == 'W' && ok:
			out[m] = Won
		case v == 'D' && ok:
			out[m] = Draw
		case v == 'L' && ok:
			out[m] = Loss
		default:
			return nil, fmt.Errorf("%s %s is %q", g.MoveName(), g.FormatMove(m), v)
		}
	}
	return out, nil
}
