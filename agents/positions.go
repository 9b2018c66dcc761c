package agents

import (
	"bufio"
	"context"
	"fmt"
	"strings"

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
// It stops with ctx's error.
func ParsePositions(ctx context.Context, kit *Kit, text string, labelled func(done int)) ([]game.Solved, error) {
	var set []game.Solved
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" {
			continue
		}
		moves, values := line, ""
		if i := strings.LastIndexByte(line, ' '); i >= 0 && len(line)-i-1 == kit.Moves() && strings.Trim(line[i+1:], "WDL-") == "" {
			moves, values = line[:i], line[i+1:]
		}
		var list []int
		for _, r := range strings.NewReplacer(" ", "", ",", "").Replace(moves) {
			m, err := kit.ParseMove(string(r))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
			list = append(list, m)
		}
		p, err := game.Replay(kit.Game, list)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if kit.Result(p) != game.Ongoing {
			return nil, fmt.Errorf("line %d: the game is over: no move to make", n)
		}
		s := game.Solved{Position: p, Plies: kit.Plies(p), Values: map[int]game.Value{}}
		if values != "" {
			if s.Values, err = game.ParseValues(kit.Game, p, values); err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
			}
		} else {
			outcomes, err := kit.Analyze(ctx, p)
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", n, err)
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
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return set, nil
}
