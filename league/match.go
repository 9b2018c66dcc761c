package league

import (
	"context"
	"math/rand/v2"
	"slices"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
)

// MaxOpening bounds the opening sets: three plies of tic-tac-toe would
// already be 504 openings, and a lost position for one side among many of
// them; two plies of Connect Four are 49.
const MaxOpening = 2

// contestant is an agent as evaluation plays it. Its players come from
// player, one per game: a frozen network keeps scratch space while it
// plays, and random and MCTS players draw on the game's generator. A
// compiled move table is its own player for every game.
type contestant struct {
	player func(rng *rand.Rand) game.Player
	random bool // its moves draw on the generator
	// model is a model's, nil for a built-in player: a match plays a
	// searched model stopped by the match's context (in), since a search
	// may take minutes a move.
	model learn.Model
}

// in returns c's player for a game of a match that ctx stops.
func (c contestant) in(ctx context.Context, rng *rand.Rand) game.Player {
	if c.model != nil {
		return search.Bound(ctx, c.model, 0).Player()
	}
	return c.player(rng)
}

// fixed is the contestant that plays p in every game: a deterministic
// player that is safe for concurrent use.
func fixed(p game.Player) contestant {
	return contestant{player: func(*rand.Rand) game.Player { return p }}
}

// match is a game's opening set, the same for every pairing of a league.
type match struct {
	game     game.Game
	openings [MaxOpening + 1][][]int
	starts   [MaxOpening + 1][]game.Position // the position after each opening
}

// newMatch returns the openings of g.
func newMatch(g game.Game) *match {
	m := &match{game: g}
	for plies := range m.openings {
		m.openings[plies] = game.Openings(g, plies)
		for _, o := range m.openings[plies] {
			p, _ := game.Replay(g, o) // the openings are legal
			m.starts[plies] = append(m.starts[plies], p)
		}
	}
	return m
}

// play plays a against b over every opening of plies moves, each once
// with a as X and once as O, in that order. Players that draw on a
// generator get one seeded with (seed, game number), so every game can be
// replayed on its own. It returns a's record by side, as X and as O, and
// hands each game to record when record is not nil: its moves in order,
// the opening included, whether a played X, and how it ended. Once ctx
// is done, it plays no more games, and a searched player's game ends at
// once: the caller, seeing ctx done, keeps nothing of the match.
func (m *match) play(ctx context.Context, a, b contestant, plies int, seed uint64, record func(moves []int, aIsX bool, r game.Result)) (sides [2]game.Record) {
	var pcg rand.PCG
	rng := rand.New(&pcg)
	for i, start := range m.starts[plies] {
		for colour := range 2 {
			if ctx.Err() != nil {
				return sides
			}
			x, o := a, b
			if colour == 1 {
				x, o = b, a
			}
			// The generator rand.NewPCG(seed, game) would be, without
			// allocating one per game.
			pcg.Seed(seed, uint64(2*i+colour))
			var moves []int
			if record != nil {
				moves = append(make([]int, 0, m.game.MaxPlies()), m.openings[plies][i]...)
			}
			res, moves := m.playGame(start, x.in(ctx, rng), o.in(ctx, rng), moves)
			sides[colour].Add(res, game.Side(colour))
			if record != nil {
				record(moves, colour == 0, res)
			}
		}
	}
	return sides
}

// playGame plays on from p, x moving for X and o for O, and returns how
// the game ended. When moves is not nil, it returns moves with the moves
// played added.
func (m *match) playGame(p game.Position, x, o game.Player, moves []int) (game.Result, []int) {
	g := m.game
	players := [2]game.Player{x, o}
	for g.Result(p) == game.Ongoing {
		mv := players[g.ToMove(p)].Move(p)
		if moves != nil {
			moves = append(moves, mv)
		}
		p = g.Play(p, mv)
	}
	return g.Result(p), moves
}

// modelContestant plays a frozen model: a player of its own per game, for
// its scratch space.
func modelContestant(m learn.Model) contestant {
	return contestant{player: func(*rand.Rand) game.Player { return m.Player() }, model: m}
}

// Ladder plays m against each built-in player of kit named in names
// (all for none) over every opening of plies moves in both colours
// (seeded from seed, as a league seeds a match), calls played (if not
// nil) after every game, and hands each's name and m's records as X and
// as O to each. It stops with ctx's error.
func Ladder(ctx context.Context, kit *agents.Kit, m learn.Model, names []string, plies int, seed uint64, played func(), each func(name string, asX, asO game.Record)) error {
	mt := newMatch(kit.Game)
	for i, b := range kit.Builtins {
		if len(names) > 0 && !slices.Contains(names, b.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		var record func([]int, bool, game.Result)
		if played != nil {
			record = func([]int, bool, game.Result) { played() }
		}
		sides := mt.play(ctx, modelContestant(m), contestant{player: b.New, random: b.Random}, plies, mix(seed, uint64(i)), record)
		if err := ctx.Err(); err != nil {
			return err
		}
		each(b.Name, sides[game.X], sides[game.O])
	}
	return nil
}
