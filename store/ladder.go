package store

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"ttt/agents/game"
)

// EncodeGames returns a match's games as the league stores them
// (Match.Moves), given in the order the match played them: for each
// opening of plies moves, the game where A moved first, then the one
// where B did. Each game's moves, the opening's included, must be legal
// and end the game.
//
// The openings follow from plies and the end of a game from its moves, so
// only the moves after the opening are kept, each as its place among the
// legal moves of its position (the third of five legal squares is 2), and
// the whole match as one number in mixed radix: the first move its lowest
// digit, in base the number of moves it chose from. That is the fewest
// bytes that tell every sequence of legal moves apart, far fewer than a
// byte a move (BENCHMARKS.md, "The games against the ladder, back to
// their size (schema 13)"). The number is written little-endian,
// without its high zero bytes.
func EncodeGames(g game.Game, plies int, games [][]int) []byte {
	var digits, radices []uint8
	for _, moves := range games {
		p := g.Start()
		for i, m := range moves {
			if i >= plies {
				legal := g.Legal(p)
				digits = append(digits, uint8(bits.OnesCount64(legal&(1<<m-1))))
				radices = append(radices, uint8(bits.OnesCount64(legal)))
			}
			p = g.Play(p, m)
		}
	}
	// Horner's rule from the last move: n = (...(d_k r_k-1 + d_k-1)...) r_1 + d_1.
	var n []uint32 // little-endian limbs
	for i := len(digits) - 1; i >= 0; i-- {
		carry := uint64(digits[i])
		for k := range n {
			v := uint64(n[k])*uint64(radices[i]) + carry
			n[k], carry = uint32(v), v>>32
		}
		if carry > 0 {
			n = append(n, uint32(carry))
		}
	}
	out := make([]byte, 0, 4*len(n))
	for _, limb := range n {
		out = append(out, byte(limb), byte(limb>>8), byte(limb>>16), byte(limb>>24))
	}
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// MatchGames hands each of m's stored games (m.Moves, as EncodeGames
// wrote them) to each, with its moves, whether A played X, and how it
// ended, once it has read all of them: two for each opening of m.Plies
// moves of g, nothing of the number left over, and A's record m's.
func MatchGames(g game.Game, m Match, each func(moves []int, aIsX bool, r game.Result) error) error {
	// The number, as limbs, most significant first: dividing it goes
	// from the top.
	n := make([]uint32, (len(m.Moves)+3)/4)
	for i, b := range m.Moves {
		n[len(n)-1-i/4] |= uint32(b) << (8 * (i % 4))
	}
	next := func(radix int) int {
		for len(n) > 0 && n[0] == 0 {
			n = n[1:]
		}
		var rem uint64
		for k := range n {
			v := rem<<32 | uint64(n[k])
			n[k], rem = uint32(v/uint64(radix)), v%uint64(radix)
		}
		return int(rem)
	}

	type played struct {
		moves []int
		r     game.Result
	}
	openings := game.Openings(g, m.Plies)
	games := make([]played, 0, 2*len(openings))
	var rec game.Record
	for i := range 2 * len(openings) {
		moves := slices.Clone(openings[i/2])
		p, err := game.Replay(g, moves)
		if err != nil {
			return fmt.Errorf("opening of game %d: %w", i+1, err)
		}
		for g.Result(p) == game.Ongoing {
			legal := g.Legal(p)
			d := next(bits.OnesCount64(legal))
			for range d {
				legal &= legal - 1 // the d lowest legal moves are not it
			}
			move := bits.TrailingZeros64(legal)
			moves = append(moves, move)
			p = g.Play(p, move)
		}
		r := g.Result(p)
		side := game.X
		if i%2 == 1 {
			side = game.O
		}
		rec.Add(r, side)
		games = append(games, played{moves, r})
	}
	if slices.ContainsFunc(n, func(limb uint32) bool { return limb != 0 }) {
		return errors.New("its stored games hold more than the games of its openings")
	}
	if rec != m.Record {
		return fmt.Errorf("its stored games make the record %v, stored as %v", rec, m.Record)
	}
	for i, pg := range games {
		if err := each(pg.moves, i%2 == 0, pg.r); err != nil {
			return err
		}
	}
	return nil
}
