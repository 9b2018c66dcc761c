package league

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
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
func (tr *trainer) train(ctx context.Context, round int64, line *learner, opp opponents, progress func(int64, int, int)) error {
	// The learning rate of the whole round is the one of its first game.
	c, kit := tr.cfg, tr.kit
	learning := c.settings(kit.Game, line.method)
	c.GamesPerRound = tr.games(line)
	l := line.learner
	if err := l.Schedule(learning, line.games); err != nil {
		return fmt.Errorf("the %s learner after %d games: %w", line.method.Name, line.games, err)
	}
	if taught, ok := l.(learn.Taught); ok {
		taught.Teach(tr.teacher(line))
	}
	// players returns the opponents of a game, by the index pick draws:
	// itself (nil), random, the nets, then the sparring players, each
	// drawing on rng.
	players := func(rng *rand.Rand) []game.Player {
		out := []game.Player{nil, game.Random{Game: kit.Game, Rand: rng}}
		for _, n := range opp.nets {
			out = append(out, n.player(rng))
		}
		for _, b := range opp.sparring {
			out = append(out, b.New(rng))
		}
		return out
	}
	// pick draws a game's opponent, an index of players, or drill (-1)
	// or the exploiter (-2).
	pick := func(rng *rand.Rand) int {
		switch r := rng.Float64(); {
		case r < c.Exploit:
			return -2
		case r < c.Exploit+c.SelfPlay:
			return 0
		case r < c.Exploit+c.SelfPlay+c.Members && len(opp.nets) > 0:
			x := rng.Float64() * opp.total()
			return 2 + min(len(opp.cum)-1, sort.Search(len(opp.cum), func(i int) bool { return opp.cum[i] > x }))
		case r >= c.Exploit+c.SelfPlay+c.Members && r < c.Exploit+c.SelfPlay+c.Members+c.Ladder:
			return 2 + len(opp.nets) + rng.IntN(len(opp.sparring))
		case r >= 1-c.Drill:
			return -1
		}
		return 1
	}
	if p, ok := learn.AsParallel(l); ok && c.Exploit+c.Drill == 0 {
		return tr.trainParallel(ctx, round, c.GamesPerRound, line, p, pick, players, progress)
	}

	rng := line.rng
	opps := players(rng)
	var exploiter game.Player
	var drills []game.Position // the learner's mistakes, as of the last rebuild
	for g := range c.GamesPerRound {
		if g%exploitEvery == 0 && c.Exploit+c.Drill > 0 {
			target := tr.learnerPlayer(line)
			if c.Exploit > 0 {
				exploiter = kit.Exploiter(target, rng)
			}
			if c.Drill > 0 {
				drills = kit.Mistakes(target)
			}
		}
		drilled := false
		epsilon := learning.Epsilon.At(int(line.games))
		var opp game.Player
		switch i := pick(rng); {
		case i == -2:
			opp = exploiter
		case i == -1 && len(drills) > 0:
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
			opp = opps[1]
		case i == -1:
			opp = opps[1]
		default:
			opp = opps[i]
		}
		if !drilled {
			l.Play(game.Side(line.games%2), opp, epsilon)
		}
		line.games++
		if (g+1)%1000 == 0 || g+1 == c.GamesPerRound {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(round, g+1, c.GamesPerRound)
			}
		}
	}
	return nil
}

// opponents are what a round trains against besides itself and random:
// the league's networks that the line's last snapshot does not beat yet,
// each with its weight of prioritised fictitious self-play (cumulative,
// in cum), and the sparring players, the game's fixed built-in players
// but random (the tactician, or perfect).
type opponents struct {
	nets     []contestant
	cum      []float64
	sparring []agents.Builtin
}

// total is the weight of every net.
func (o opponents) total() float64 {
	if len(o.cum) == 0 {
		return 0
	}
	return o.cum[len(o.cum)-1]
}

// opponents returns what the line of method trains against next: under
// Config.Members, the networks its last snapshot scored s < 1/2 against
// in its pool, each weighted (1/2 - s)^2, so only nets that still beat it
// are met. The MCTS players are not sparring partners: at a hundred
// playouts a move, a game against one costs as much as twenty games of
// the learner's own.
func (lg *league) opponents(ctx context.Context, method string) (opponents, error) {
	var o opponents
	for _, id := range lg.fixed[1:] { // random is first
		o.sparring = append(o.sparring, lg.contestants.builtins[id])
	}
	if lg.cfg.Members == 0 {
		return o, nil
	}
	scores, err := lg.scoresOf(ctx, lg.latest[method])
	if err != nil {
		return o, err
	}
	var ids []int64
	total := 0.0
	for _, s := range scores {
		if w := max(0, 0.5-s.score) * max(0, 0.5-s.score); w > 0 {
			total += w
			ids = append(ids, s.id)
			o.cum = append(o.cum, total)
		}
	}
	cons, err := lg.contestants.get(ctx, ids)
	if err != nil {
		return o, err
	}
	for _, id := range ids {
		o.nets = append(o.nets, cons[id])
	}
	return o, nil
}

// batchGames is how many games the actors of a parallel learner play on
// one frozen model. The learner learns from a batch while the actors
// play the next, so a game is played on a model that has not yet learned
// from the two batches before it: two thousand games of a round of a
// million, which learned as much as one game at a time did (BENCHMARKS.md,
// "Every core trains"). Larger batches would only lose a little more;
// smaller ones copy the model more often (a copy a batch: a megabyte in
// Connect Four) and wait on each other more.
const batchGames = 1000

// deal is a game of a parallel round, drawn before it is played, in the
// order of the round's games: its side, its opponent (an index of the
// round's opponents), its exploration, and the seed of its random moves.
type deal struct {
	side    game.Side
	opp     int
	epsilon float64
	seed    [2]uint64
}

// trainParallel plays the round's games on every core: its actors play
// a batch of games on the model as it stood before the batch before,
// while the learner learns from that batch, game by game in the round's
// order. Each game draws its opponent, side and exploration from the
// line's generator and its random moves from a seed of its own, so the
// round learns the same whatever the number of workers.
func (tr *trainer) trainParallel(ctx context.Context, round int64, games int, line *learner, p learn.Parallel,
	pick func(*rand.Rand) int, opponents func(*rand.Rand) []game.Player, progress func(int64, int, int)) error {
	learning := tr.cfg.settings(tr.kit.Game, line.method)
	type worker struct {
		pcg   *rand.PCG
		actor learn.Actor
		opps  []game.Player
	}
	workers := make([]worker, max(1, tr.cfg.Workers))
	p.Sync()
	for i := range workers {
		w := &workers[i]
		w.pcg = rand.NewPCG(0, 0)
		rng := rand.New(w.pcg)
		w.actor, w.opps = p.Actor(rng), opponents(rng)
	}
	size := min(batchGames, games)
	var deals [2][]deal
	var episodes [2][]learn.Episode
	for k := range episodes {
		for range size {
			episodes[k] = append(episodes[k], p.NewEpisode())
		}
	}
	// dealt deals the next batch into slot k: up to size games, fewer at
	// the round's end.
	dealt := 0
	dealBatch := func(k int) {
		deals[k] = deals[k][:0]
		for ; dealt < games && len(deals[k]) < size; dealt++ {
			d := deal{side: game.Side(line.games % 2), epsilon: learning.Epsilon.At(int(line.games)), opp: pick(line.rng),
				seed: [2]uint64{line.rng.Uint64(), line.rng.Uint64()}}
			deals[k] = append(deals[k], d)
			line.games++
		}
	}
	// play plays the batch in slot k on every worker.
	play := func(k int) {
		var next atomic.Int64
		var wg sync.WaitGroup
		for i := range workers {
			w := &workers[i]
			wg.Go(func() {
				for j := int(next.Add(1) - 1); j < len(deals[k]); j = int(next.Add(1) - 1) {
					d := deals[k][j]
					w.pcg.Seed(d.seed[0], d.seed[1])
					w.actor.Play(episodes[k][j], d.side, w.opps[d.opp], d.epsilon)
				}
			})
		}
		wg.Wait()
	}
	dealBatch(0)
	play(0)
	done := 0
	for k := 0; len(deals[k]) > 0; k ^= 1 {
		dealBatch(k ^ 1)
		var learned sync.WaitGroup
		learned.Go(func() {
			for j := range deals[k] {
				p.Learn(episodes[k][j])
			}
		})
		play(k ^ 1)
		learned.Wait()
		p.Sync()
		done += len(deals[k])
		if err := ctx.Err(); err != nil {
			return err
		}
		if progress != nil {
			progress(round, done, games)
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
func (tr *trainer) learnerPlayer(line *learner) game.Player {
	p := line.frozen
	line.frozen = nil // the learner is about to change
	if p == nil {
		p = line.learner.Model().Player()
		if tr.kit.Compile != nil {
			p, _ = tr.kit.Compiled(tr.kit.Compile(p)) // a model's table is a table
		}
	}
	return p
}
