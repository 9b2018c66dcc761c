package agents

import (
	"context"
	"fmt"
	"strings"
	"time"

	"ttt/agents/game"
)

// ParsePositions reads a file of positions of kit's game, one a line:
// the moves from the start, one character each (columns 1-7, squares
// 0-8; spaces and commas between them are allowed), then optionally,
// after a space, the value of each move for the side to move, one
// character a move in the order of the moves (W win, D draw, L loss, -
// a move that cannot be played), as ttt's built-in sets write them.
// Blank lines and lines from # on are skipped. A line without values is
// labelled by kit.Analyze, the solver, which may take long on a position
// of few stones; labelled (if not nil) is told how many lines are done.
// A line's values are checked against the solver, LabelCheck at most a
// line: one that disagrees is refused, and unchecked counts the lines
// whose values the solver did not finish in time, taken as given. It
// stops with ctx's error.
func ParsePositions(ctx context.Context, kit *Kit, text string, labelled func(done int)) (set []game.Solved, unchecked int, err error) {
	n := 0
	for line := range strings.Lines(text) {
		n++
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); len(line) > maxPositionLine {
			return nil, 0, fmt.Errorf("line %d: %d characters before any comment, where a position takes at most %d", n, len(line), maxPositionLine)
		}
		if line == "" {
			continue
		}
		moves, values := line, ""
		// A last word of the values' letters alone is the values: no
		// move is written with them.
		if i := strings.LastIndexByte(line, ' '); i >= 0 && strings.Trim(line[i+1:], "WDL-") == "" {
			moves, values = line[:i], line[i+1:]
			if len(values) != kit.Moves() {
				return nil, 0, fmt.Errorf("line %d: the values %q are %d characters; a position of %s takes %d, one a %s (W, D, L, or - where it cannot be played)",
					n, values, len(values), kit.Title(), kit.Moves(), kit.MoveName())
			}
		}
		var list []int
		for _, r := range strings.NewReplacer(" ", "", ",", "").Replace(moves) {
			m, err := kit.ParseMove(string(r))
			if err != nil {
				return nil, 0, fmt.Errorf("line %d: %w", n, err)
			}
			list = append(list, m)
		}
		p, err := game.Replay(kit.Game, list)
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: %w", n, err)
		}
		if kit.Result(p) != game.Ongoing {
			return nil, 0, fmt.Errorf("line %d: the game is over: no move to make", n)
		}
		s := game.Solved{Position: p, Plies: kit.Plies(p), Values: map[int]game.Value{}}
		if values != "" {
			if s.Values, err = game.ParseValues(kit.Game, p, values); err != nil {
				return nil, 0, fmt.Errorf("line %d: %w", n, err)
			}
			checked, err := checkLabel(ctx, kit, p, s.Values)
			if err != nil {
				return nil, 0, fmt.Errorf("line %d: %w", n, err)
			}
			if !checked {
				unchecked++
			}
		} else {
			outcomes, err := kit.Analyze(ctx, p)
			if err != nil {
				return nil, 0, fmt.Errorf("line %d: %w", n, err)
			}
			for m, o := range outcomes {
				s.Values[m] = o.Value
			}
		}
		set = append(set, s)
		if labelled != nil {
			labelled(len(set))
		}
	}
	if len(set) == 0 {
		return nil, 0, fmt.Errorf("no positions")
	}
	return set, unchecked, nil
}

// maxPositionLine is the longest position ParsePositions reads, a line
// without its comment: its moves with a space and a comma between each
// (a Connect Four game has 42) and its values, with room to spare. A
// longer one is no position, and is refused with its line's number
// before its moves are read.
const maxPositionLine = 4096

// LabelCheck is how long the solver checks a line's values: tic-tac-toe's
// are looked up, and Connect Four's solve within it from about 18
// stones on. A label that it cannot check in time is taken as given.
const LabelCheck = 100 * time.Millisecond

// checkLabel checks values, a label of p, against the solver's values of
// the moves it solves within LabelCheck: a move labelled otherwise is the
// error. It reports whether it checked every move.
func checkLabel(ctx context.Context, kit *Kit, p game.Position, values map[int]game.Value) (bool, error) {
	check, cancel := context.WithTimeout(ctx, LabelCheck)
	defer cancel()
	outcomes, err := kit.Analyze(check, p)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	for m := range kit.Moves() { // in order: the first wrong move is named
		if o, ok := outcomes[m]; ok && values[m] != o.Value {
			return false, fmt.Errorf("the values say %s %s is a %s, and the solver finds it a %s (ttt analyze shows every move's)",
				kit.MoveName(), kit.FormatMove(m), values[m], o.Value)
		}
	}
	return err == nil, nil
}
