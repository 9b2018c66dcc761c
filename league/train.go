package league

import (
	"context"
	"math/rand/v2"
	"sort"

	"ttt/agents/game"
)

// train plays the round's training games. Each game's opponent is drawn
// from four sources, in the shares of the config:
//
//   - Exploit: the exploiter of the learner itself as it was at most
//     exploitEvery games ago (tictactoe.Exploiter), a random player that
//     plays every line the exhaustive check finds against the learner.
//     This is what makes the learner unbeatable. ttt-rl's rule rewards
//     whole games, so against a random opponent a move that loses to one
//     reply in a hundred but usually wins is worth keeping (it scores more
//     than a sure tie), and the learner keeps such holes for good; the
//     exploiter finds the reply every time, and the move goes. AlphaStar's
//     league keeps exploiters for the same reason.
//   - SelfPlay: itself. It samples both sides and learns from both.
//   - Members: a frozen net of the league (a checkpoint, a baseline or an
//     imported net), by prioritised fictitious self-play as in AlphaStar's
//     league: weight (1/2 - s)^2 for the nets of the latest snapshot's
//     pool against which it scored s < 1/2, so only nets that still beat
//     it are met, the ones that beat it most most often. The share is 0 unless asked
//     for: a greedy net plays the same game every time against a learner
//     that has stopped exploring, thousands of repeats of one game skew
//     what the learner knows of every other position, and in our runs
//     even a share of 3% made the first unbeatable checkpoint come later.
//   - Ladder: a fixed built-in player of the game other than random: the
//     tactician in Connect Four (the perfect player in tic-tac-toe, where
//     the share is 0). The tactician wins whenever it can and blocks
//     every immediate threat, so a learner that leaves one open loses
//     that game: ttt-rl's rule against random alone learns where to play
//     but not tactics, and stops below the tactician. The learner still
//     learns from results only.
//   - Drill: a game from a position where the learner, as it was at most
//     exploitEvery games ago, throws away the game-theoretic value (a
//     won position it only draws, a drawn one it loses: the mistakes of
//     verify.Check), if it still does (train.Learner.Drill). Its first
//     move there is any move but its own, the perfect player defends, and
//     that move alone learns the result. This is what makes the learner
//     perfect. Unbeatable is not enough: where the random opponent has
//     blundered into a lost position, a move that merely draws against
//     perfect play still wins most games against random, it is
//     reinforced whenever it does, and the learner, sampling almost
//     greedily, never tries the move that wins by force. Against the
//     perfect player only the winning moves win, and trying the others
//     is the exploration the learner no longer does. The solved game
//     chooses where drills start, as it chooses the exploiter's lines;
//     what the learner learns is still a game's result.
//   - The rest: random, the opponent that shows the learner every
//     position. ttt-rl learns from it alone.
//
// Perfect is a yardstick, not a sparring partner from the empty board:
// like any greedy player it would teach one game per side. It only
// defends in drills, which start where the learner goes wrong.
func (lg *league) train(ctx context.Context, round int64, line *learner, progress func(int64, int, int)) error {
	// The learning rate of the whole round is the one of its first game.
	learning := lg.cfg.settings(lg.kit.Game, line.method)
	l := line.learner
	l.SetRate(learning.At(line.games).LR)
	rng := line.rng
	var ids []int64
	var cum []float64 // cumulative PFSP weights of the nets ids
	total := 0.0
	var scores []scored // what the line's last snapshot scored against its pool's networks
	if lg.cfg.Members > 0 {
		var err error
		if scores, err = lg.scoresOf(ctx, lg.latest[line.method.Name]); err != nil {
			return err
		}
	}
	for _, s := range scores {
		if w := max(0, 0.5-s.score) * max(0, 0.5-s.score); w > 0 {
			total += w
			ids = append(ids, s.id)
			cum = append(cum, total)
		}
	}
	cons, err := lg.contestants.get(ctx, ids)
	if err != nil {
		return err
	}
	nets := make([]game.Player, len(ids))
	for i, id := range ids {
		nets[i] = cons[id].player(rng)
	}
	kit := lg.kit
	random := game.Random{Game: kit.Game, Rand: rng}
	ladder := lg.sparring(rng)
	var exploiter game.Player
	var drills []game.Position // the learner's mistakes, as of the last rebuild
	for g := range lg.cfg.GamesPerRound {
		if g%exploitEvery == 0 && lg.cfg.Exploit+lg.cfg.Drill > 0 {
			target := lg.learnerPlayer(line)
			if lg.cfg.Exploit > 0 {
				exploiter = kit.Exploiter(target, rng)
			}
			if lg.cfg.Drill > 0 {
				drills = kit.Mistakes(target)
			}
		}
		var opp game.Player = random // nil: itself
		drilled := false
		epsilon := learning.Epsilon.At(int(line.games))
		switch r := rng.Float64(); {
		case r < lg.cfg.Exploit:
			opp = exploiter
		case r < lg.cfg.Exploit+lg.cfg.SelfPlay:
			opp = nil
		case r < lg.cfg.Exploit+lg.cfg.SelfPlay+lg.cfg.Members && len(nets) > 0:
			x := rng.Float64() * total
			opp = nets[min(len(cum)-1, sort.Search(len(cum), func(i int) bool { return cum[i] > x }))]
		case r >= lg.cfg.Exploit+lg.cfg.SelfPlay+lg.cfg.Members && r < lg.cfg.Exploit+lg.cfg.SelfPlay+lg.cfg.Members+lg.cfg.Ladder:
			opp = ladder[rng.IntN(len(ladder))]
		case r >= 1-lg.cfg.Drill && len(drills) > 0:
			// A mistake fixed since the rebuild is drilled no more: drills
			// past that point only push the net further on one position,
			// and what they push there moves it elsewhere too (in our
			// runs, drilling fixed mistakes until the next rebuild took
			// more than twice the rounds to perfect play). That game is
			// played against random instead.
			start := drills[rng.IntN(len(drills))]
			if own := l.Greedy(start); !kit.Optimal(start, own) {
				l.Drill(start, own, kit.Perfect(), epsilon)
				drilled = true
			}
		}
		if !drilled {
			l.Play(game.Side(line.games%2), opp, epsilon)
		}
		line.games++
		if (g+1)%1000 == 0 || g+1 == lg.cfg.GamesPerRound {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(round, g+1, lg.cfg.GamesPerRound)
			}
		}
	}
	return nil
}

// exploitEvery is how many training games an exploiter and a list of
// drills serve before they are rebuilt against the learner as it is now:
// often enough that the holes they know are still there, rarely enough
// that rebuilding (a move table, a search of the game and two exhaustive
// checks, a few milliseconds) costs little.
const exploitEvery = 2000

// learnerPlayer returns line's learner as a deterministic player: at the
// start of a round its last snapshot, which is the same learner and was
// compiled for its check (a table takes milliseconds), and after that
// itself, compiled where the game has tables.
func (lg *league) learnerPlayer(line *learner) game.Player {
	p := line.frozen
	line.frozen = nil // the learner is about to change
	if p == nil {
		p = line.learner.Model().Player()
		if lg.kit.Compile != nil {
			p, _ = lg.kit.Compiled(lg.kit.Compile(p)) // a model's table is a table
		}
	}
	return p
}

// sparring returns the built-in players the learner trains against under
// Config.Ladder: the fixed ones but random (the tactician, or perfect).
// The MCTS players are not among them: at a hundred playouts a move, a
// game against one costs as much as twenty games of the learner's own.
func (lg *league) sparring(rng *rand.Rand) []game.Player {
	var out []game.Player
	for _, id := range lg.fixed[1:] { // random is first
		b := lg.contestants.builtins[id]
		out = append(out, b.New(rng))
	}
	return out
}
