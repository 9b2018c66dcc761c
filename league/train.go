package league

import (
	"context"
	"math/rand/v2"
	"sort"

	"ttt/agents/game"
)

// train plays the round's training games. Each game's opponent is drawn
// from these sources, in the shares of the config (docs/learning.md, "How
// it learns", tells what each did in our leagues):
//
//   - Exploit: the exploiter of the learner as it was at most
//     exploitEvery games ago (Kit.Exploiter), a random player that plays
//     every line that beats it. It makes the learner unbeatable: ttt-rl's
//     rule rewards whole games, so against random alone a move that loses
//     to one reply in a hundred but usually wins is worth keeping; the
//     exploiter finds that reply every time, and the move goes (AlphaStar's
//     league keeps exploiters for the same reason).
//   - SelfPlay: itself, learning from both sides.
//   - Members: a frozen net of the league, by prioritised fictitious
//     self-play as in AlphaStar's league: weight (1/2 - s)^2 for each net
//     of the latest snapshot's pool against which it scored s < 1/2, so
//     only nets that still beat it are met. 0 unless asked for: a greedy
//     net plays the same game every time against a learner that has
//     stopped exploring, which skews what it knows of every other position.
//   - Ladder: the game's fixed built-in players but random (sparring):
//     the tactician in Connect Four, perfect in tic-tac-toe; 0 unless
//     asked for. The tactician punishes every threat left open, which
//     ttt-rl's rule against random alone does not learn to block. The
//     learner still learns from results only.
//   - Drill: a game from a position where the learner, as it was at most
//     exploitEvery games ago, throws away the game-theoretic value
//     (Kit.Mistakes), if it still does (learn.Learner.Drill): its first
//     move there is any move but its own, the perfect player defends, and
//     that move alone learns the result. It makes the learner perfect:
//     where random has blundered, a move that merely draws against
//     perfect play still wins most games against random, and a learner
//     sampling almost greedily never tries the move that wins by force.
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
