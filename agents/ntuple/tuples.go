package ntuple

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"ttt/agents/game"
)

// RandomWalks returns n tuples of length cells, each a random walk on
// the board from a random cell to one of its eight neighbours at each
// step, never twice on a cell: the tuples of Thill, Koch and Konen. No
// two tuples hold the same cells, nor the same cells under a symmetry of
// the board. A small board may not hold n such tuples: after a thousand
// walks for each tuple asked, it says how many it found.
func RandomWalks(b game.Board, n, length int, rng *rand.Rand) ([][]int, error) {
	rows := b.Cells / b.Width
	seen := map[string]bool{}
	var out [][]int
	for tries := 0; len(out) < n; tries++ {
		if tries == 1000*n {
			return nil, fmt.Errorf("the board holds %d different tuples of %d cells, not %d", len(out), length, n)
		}
		walk := []int{rng.IntN(b.Cells)}
		for len(walk) < length {
			var next []int
			c := walk[len(walk)-1]
			for dr := -1; dr <= 1; dr++ {
				for dc := -1; dc <= 1; dc++ {
					r, col := c/b.Width+dr, c%b.Width+dc
					if (dr != 0 || dc != 0) && r >= 0 && r < rows && col >= 0 && col < b.Width && !slices.Contains(walk, r*b.Width+col) {
						next = append(next, r*b.Width+col)
					}
				}
			}
			if len(next) == 0 {
				break // a dead end: walk again
			}
			walk = append(walk, next[rng.IntN(len(next))])
		}
		if len(walk) < length {
			continue
		}
		fresh := true
		for _, sym := range b.Symmetries {
			if seen[key(walk, sym)] {
				fresh = false
			}
		}
		if fresh {
			seen[key(walk, b.Symmetries[0])] = true
			out = append(out, walk)
		}
	}
	return out, nil
}

// key names the set of cells of t under sym.
func key(t []int, sym []int) string {
	cells := make([]byte, len(t))
	for i, c := range t {
		cells[i] = byte(sym[c])
	}
	slices.Sort(cells)
	return string(cells)
}

// Lines returns a tuple for each winning line of the board (one of
// each line and its images under the symmetries), of length cells: the
// line's cells, then cells next to the tuple drawn at random until it
// is long enough. Every line is then read whole by some table, so that
// "three in a line and the fourth cell playable" is one entry.
func Lines(b game.Board, length int, rng *rand.Rand) [][]int {
	rows := b.Cells / b.Width
	seen := map[string]bool{}
	var out [][]int
	for _, line := range b.Lines {
		fresh := true
		for _, sym := range b.Symmetries {
			if seen[key(line, sym)] {
				fresh = false
			}
		}
		if !fresh {
			continue
		}
		seen[key(line, b.Symmetries[0])] = true
		t := slices.Clone(line)
		for len(t) < length {
			var next []int
			for _, c := range t {
				for dr := -1; dr <= 1; dr++ {
					for dc := -1; dc <= 1; dc++ {
						r, col := c/b.Width+dr, c%b.Width+dc
						n := r*b.Width + col
						if r >= 0 && r < rows && col >= 0 && col < b.Width && !slices.Contains(t, n) && !slices.Contains(next, n) {
							next = append(next, n)
						}
					}
				}
			}
			if len(next) == 0 {
				break
			}
			t = append(t, next[rng.IntN(len(next))])
		}
		out = append(out, t)
	}
	return out
}
