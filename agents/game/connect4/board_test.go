package connect4_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ttt/agents/game"
	"ttt/agents/game/connect4"
)

// naive is the game as a plain grid, checked cell by cell: the reference
// the bitboards are compared with.
type naive struct {
	cell  [connect4.Height][connect4.Width]byte // row 0 the bottom
	plies int
}

func (n *naive) play(col int) {
	for row := range connect4.Height {
		if n.cell[row][col] == 0 {
			n.cell[row][col] = "XO"[n.plies%2]
			n.plies++
			return
		}
	}
	panic("full column")
}

// winner returns 'X' or 'O' for four in a row, or 0.
func (n *naive) winner() byte {
	for row := range connect4.Height {
		for col := range connect4.Width {
			c := n.cell[row][col]
			if c == 0 {
				continue
			}
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				k := 1
				for ; k < 4; k++ {
					r, cc := row+k*d[0], col+k*d[1]
					if r < 0 || r >= connect4.Height || cc < 0 || cc >= connect4.Width || n.cell[r][cc] != c {
						break
					}
				}
				if k == 4 {
					return c
				}
			}
		}
	}
	return 0
}

// The bitboards agree with the grid at every ply of thousands of random
// games: legal columns, cells, wins, full boards, the network's inputs.
func TestBoardMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	g := connect4.Game
	for range 3000 {
		var b connect4.Board
		var n naive
		moves := ""
		for {
			var legal uint8
			for col := range connect4.Width {
				if n.cell[connect4.Height-1][col] == 0 {
					legal |= 1 << col
				}
			}
			if got := b.Legal(); got != legal {
				t.Fatalf("%s: legal %07b, want %07b", moves, got, legal)
			}
			var on []int32
			for row := range connect4.Height {
				for col := range connect4.Width {
					want := n.cell[row][col]
					if want == 0 {
						want = '.'
					}
					if got := b.At(row, col); got != want {
						t.Fatalf("%s: cell %d,%d is %c, want %c", moves, row, col, got, want)
					}
					switch want {
					case 'X':
						on = append(on, int32(2*(row*7+col)))
					case 'O':
						on = append(on, int32(2*(row*7+col)+1))
					}
				}
			}
			if n.plies%2 == 0 {
				on = append([]int32{connect4.Inputs - 1}, on...)
			}
			if got := g.Encode(b.Position(), nil); !slices.Equal(got, on) {
				t.Fatalf("%s: inputs %v, want %v", moves, got, on)
			}
			w := n.winner()
			if got := b.LastMoverWon(); got != (w != 0) {
				t.Fatalf("%s: won %v, want %c", moves, got, w)
			}
			wantResult := game.Ongoing
			switch {
			case w == 'X':
				wantResult = game.XWins
			case w == 'O':
				wantResult = game.OWins
			case n.plies == 42:
				wantResult = game.Tie
			}
			if got := g.Result(b.Position()); got != wantResult {
				t.Fatalf("%s: result %v, want %v", moves, got, wantResult)
			}
			if wantResult != game.Ongoing {
				break
			}
			// Every column that wins at once, by trying it on the grid.
			var wins uint8
			for col := range connect4.Width {
				if legal&(1<<col) != 0 {
					m := n
					m.play(col)
					if m.winner() != 0 {
						wins |= 1 << col
					}
				}
			}
			if got := b.WinningMoves(); got != wins {
				t.Fatalf("%s: winning moves %07b, want %07b", moves, got, wins)
			}
			col := game.RandomMove(connect4.Game, b.Position(), rng)
			b, moves = b.Play(col), moves+string(rune('1'+col))
			n.play(col)
		}
		if again, err := connect4.Parse(moves); err != nil || again != b {
			t.Fatalf("Parse(%q) = %v, %v", moves, again, err)
		}
		if _, err := connect4.Parse(moves + "1234567"[:1]); err == nil {
			t.Fatalf("Parse(%q) went on after the end of the game", moves+"1")
		}
		m := b.Mirror()
		for row := range connect4.Height {
			for col := range connect4.Width {
				if m.At(row, col) != b.At(row, 6-col) {
					t.Fatalf("%s: the mirror differs at %d,%d", moves, row, col)
				}
			}
		}
		if m.Mirror() != b {
			t.Fatalf("%s: mirrored twice is another board", moves)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, moves := range []string{"8", "0", "4x", "4444444", "12121212"} {
		if _, err := connect4.Parse(moves); err == nil {
			t.Errorf("Parse(%q) accepted", moves)
		}
	}
}

// The tactician wins when it can, else blocks, else takes the centre.
func TestTactician(t *testing.T) {
	for _, tt := range []struct {
		moves string
		want  int // the column, 1-7
	}{
		{"", 4},
		{"4", 4},
		{"4455", 4},   // nothing to win or block: the centre
		{"112233", 4}, // X has 1, 2, 3 on the bottom row and wins at 4
		{"121212", 1}, // X wins on top of its three in column 1
		{"12131", 1},  // O blocks X's three in column 1
		{"445566", 3}, // X wins at 3 or 7: the centre-most
	} {
		b, err := connect4.Parse(tt.moves)
		if err != nil {
			t.Fatal(err)
		}
		if got := connect4.Tactician(b) + 1; got != tt.want {
			t.Errorf("after %q the tactician plays %d, want %d\n%s", tt.moves, got, tt.want, b)
		}
	}
}
