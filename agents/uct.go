package agents

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"ttt/agents/game"
)

// UCT is Monte Carlo tree search with random playouts: the built-in MCTS
// players of the ladder (mcts-10, mcts-100, ...). For each move it grows
// a tree of the positions ahead by Playouts iterations. Each walks down
// the tree by the UCB1 rule, adds one position, plays a uniformly random
// game from it and counts the result up the path. It plays the move it
// visited most. It learns nothing and knows nothing of the game but its
// rules, so its strength is set by Playouts alone: a ladder of fixed
// strengths that means the same in every league.
//
// It is not the MCTS of package search, which grows its tree with a
// model's values (PUCT) and draws nothing. The two share only the idea:
// this one must stay the textbook player the ladder was rated as, and
// that one changes with the models it searches.
//
// Its moves depend on its generator: seeded per game, a match with it is
// reproducible. It is not safe for concurrent use.
type UCT struct {
	Game     game.Game
	Playouts int
	Rand     *rand.Rand

	nodes []uctNode // the tree of the move being searched, reused
}

// uctNode is a position of UCT's tree, reached by move from its parent.
type uctNode struct {
	pos      game.Position
	move     int8
	parent   int32
	children []int32
	untried  uint64  // legal moves not yet expanded
	visits   float64 // playouts through this node
	score    float64 // their points for the side that played move: 1 a win, 1/2 a draw
}

// MCTSBuiltin is the MCTS player of g (UCT) at playouts a move, named
// mcts-PLAYOUTS, at elo on g's scale.
func MCTSBuiltin(g game.Game, playouts int, elo float64) Builtin {
	return Builtin{Kind: MCTS, Name: fmt.Sprintf("mcts-%d", playouts), Elo: elo, Random: true, Playouts: playouts,
		New: func(rng *rand.Rand) game.Player { return &UCT{Game: g, Playouts: playouts, Rand: rng} }}
}

// explore is UCB1's exploration constant, sqrt(2) for rewards in [0, 1]:
// the textbook choice, which keeps the ladder a plain, well-known player.
var explore = math.Sqrt2

// Move implements game.Player.
func (m *UCT) Move(root game.Position) int {
	g := m.Game
	// moves is what a node may expand: none in a finished game.
	moves := func(p game.Position) uint64 {
		if g.Result(p) != game.Ongoing {
			return 0
		}
		return g.Legal(p)
	}
	m.nodes = append(m.nodes[:0], uctNode{pos: root, move: -1, parent: -1, untried: moves(root)})
	for range max(m.Playouts, 1) {
		// STEP 1: select, down the tree while every move is expanded.
		n := int32(0)
		for m.nodes[n].untried == 0 && len(m.nodes[n].children) > 0 {
			n = m.descend(n)
		}
		// STEP 2: expand one untried move, chosen at random.
		if u := m.nodes[n].untried; u != 0 {
			k := m.Rand.IntN(bits.OnesCount64(u))
			for ; k > 0; k-- {
				u &= u - 1
			}
			move := bits.TrailingZeros64(u)
			m.nodes[n].untried &^= 1 << move
			pos := g.Play(m.nodes[n].pos, move)
			child := int32(len(m.nodes))
			m.nodes = append(m.nodes, uctNode{pos: pos, move: int8(move), parent: n, untried: moves(pos)})
			m.nodes[n].children = append(m.nodes[n].children, child)
			n = child
		}
		// STEP 3: a random game from there.
		pos := m.nodes[n].pos
		for g.Result(pos) == game.Ongoing {
			pos = g.Play(pos, game.RandomMove(g, pos, m.Rand))
		}
		result := g.Result(pos)
		// STEP 4: count the result up the path, for the side that moved
		// into each node.
		for ; n > 0; n = m.nodes[n].parent {
			nd := &m.nodes[n]
			nd.visits++
			switch mover := g.ToMove(m.nodes[nd.parent].pos); result {
			case game.Tie:
				nd.score += 0.5
			case game.Win(mover):
				nd.score++
			}
		}
		m.nodes[0].visits++
	}
	best := int32(-1)
	for _, c := range m.nodes[0].children {
		if best < 0 || m.nodes[c].visits > m.nodes[best].visits ||
			(m.nodes[c].visits == m.nodes[best].visits && m.nodes[c].move < m.nodes[best].move) {
			best = c
		}
	}
	return int(m.nodes[best].move)
}

// descend returns the child of n with the highest UCB1 bound, the first
// expanded on a tie.
func (m *UCT) descend(n int32) int32 {
	logN := math.Log(m.nodes[n].visits)
	best, bestU := int32(-1), math.Inf(-1)
	for _, c := range m.nodes[n].children {
		ch := &m.nodes[c]
		u := ch.score/ch.visits + explore*math.Sqrt(logN/ch.visits)
		if u > bestU {
			best, bestU = c, u
		}
	}
	return best
}
