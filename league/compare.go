package league

import (
	"context"
	"math"
	"math/bits"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/store"
)

// Comparison is what ttt compare and serve's compare page say of two
// agents of one league: how they fared against each other, what their
// ratings say of that, and where their play differs.
type Comparison struct {
	A, B *Agent
	// Met: A and B have played; Record is then A's games against B.
	Met    bool
	Record game.Record
	// Rated: both have a rating; Diff is then A's Elo minus B's, within
	// [Lo, Hi] at 95%, and Expected A's expected score against B (a draw
	// half a win) by the ratings' model.
	Rated        bool
	Diff, Lo, Hi float64
	Expected     float64
	// Compared is how many positions the moves were compared in: every
	// position where a move is due in a game whose positions are all
	// solved (tic-tac-toe), else the game's position set. 0 when either
	// agent draws its moves at random, and has no fixed move to compare.
	Compared int
	// Differences are the compared positions where A and B move
	// differently, in the order of the walk or of the set.
	Differences []Difference
}

// Difference is a position where two agents move differently, with the
// exact value of each move for the side to move, and the position's
// value (its best move's). A move of a lower value is a mistake. In a
// position already lost, every move is a loss.
type Difference struct {
	Position       game.Position
	A, B           int
	AValue, BValue game.Value
	Best           game.Value
}

// Compare compares the ratings of agents a and b; record is a's games
// against b, met whether they have played. Moves compares their moves.
func Compare(a, b *Agent, record game.Record, met bool) *Comparison {
	c := &Comparison{A: a, B: b, Met: met, Record: record}
	if a.Standing != nil && b.Standing != nil {
		c.Rated = true
		c.Diff = a.Standing.Elo - b.Standing.Elo
		// The two ratings' standard errors, from their 95% intervals,
		// added as if independent: the fit's covariance between two
		// agents is not stored, and for agents that are not each other's
		// main opponents it is small.
		se := func(r store.HistoryRow) float64 { return (r.Hi - r.Lo) / (2 * 1.96) }
		half := 1.96 * math.Hypot(se(a.Standing.HistoryRow), se(b.Standing.HistoryRow))
		c.Lo, c.Hi = c.Diff-half, c.Diff+half
		c.Expected = 1 / (1 + math.Pow(10, -c.Diff/400))
	}
	return c
}

// Moves compares the moves of c's agents, of a league of kit's game,
// where both are deterministic. The agents are as Lookup reads them,
// with their networks. It sets c.Compared and c.Differences. A
// searched agent thinks limit a move at most (0: as deep as its search
// goes). It stops with ctx's error, within a move.
func (c *Comparison) Moves(ctx context.Context, kit *agents.Kit, limit time.Duration) error {
	pa, err := Deterministic(ctx, kit, c.A, limit)
	if err != nil {
		return err
	}
	pb, err := Deterministic(ctx, kit, c.B, limit)
	if err != nil || pa == nil || pb == nil {
		return err
	}
	// differ counts p, where A moves ma and B mb, and keeps it if they
	// differ, with the values of their moves.
	differ := func(p game.Position, ma, mb int, values func() (map[int]game.Value, error)) error {
		c.Compared++
		if ma == mb {
			return nil
		}
		v, err := values()
		if err != nil {
			return err
		}
		best := game.Loss
		for _, x := range v {
			best = max(best, x)
		}
		c.Differences = append(c.Differences, Difference{Position: p, A: ma, B: mb, AValue: v[ma], BValue: v[mb], Best: best})
		return nil
	}
	if kit.Positions != nil {
		for _, s := range kit.Positions() {
			if err := ctx.Err(); err != nil {
				return err
			}
			differ(s.Position, pa.Move(s.Position), pb.Move(s.Position), func() (map[int]game.Value, error) { return s.Values, nil })
		}
		return nil
	}
	// Every position where a move is due, each once, in the order a
	// walk of the game tree from the start first reaches it; the values
	// of the moves where they differ, from the game's solver.
	seen := map[game.Position]bool{}
	var walk func(p game.Position) error
	walk = func(p game.Position) error {
		if seen[p] || kit.Result(p) != game.Ongoing {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		seen[p] = true
		err := differ(p, pa.Move(p), pb.Move(p), func() (map[int]game.Value, error) {
			outcomes, err := kit.Analyze(ctx, p)
			values := map[int]game.Value{}
			for m, o := range outcomes {
				values[m] = o.Value
			}
			return values, err
		})
		if err != nil {
			return err
		}
		for legal := kit.Legal(p); legal != 0; legal &= legal - 1 {
			if err := walk(kit.Play(p, bits.TrailingZeros64(legal))); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(kit.Start())
}

// HeadToHead reads in v agent a's games against agent b, and whether
// they have played: one look-up of the pair's row.
func HeadToHead(v *store.View, a, b int64) (game.Record, bool, error) {
	// The first of a's opponents from b on is b, if they have played.
	list, err := v.Opponents(a, b-1, 1)
	if err != nil || len(list) == 0 || list[0].ID != b {
		return game.Record{}, false, err
	}
	return list[0].Record, true, nil
}
