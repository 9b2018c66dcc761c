package league

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/store"
)

// trainer is the league's learning: its lines, whose turn it is, and how
// they train. It is apart from the league's evaluation state (league)
// and holds nothing of it, so that a round can train on one goroutine
// while the round before it is evaluated on another: Run hands the
// trainer to the goroutine that trains, and takes it back with the
// round it trained.
type trainer struct {
	kit   *agents.Kit
	cfg   Config
	lines []*learner // by Config.Learners
	next  int        // the line that trains next
}

// newTrainer returns the learners of a league of kit's game: new ones
// while no league round has stored theirs (fresh: the league has no
// checkpoint), else those of state, as round, the last, left them.
func newTrainer(kit *agents.Kit, cfg Config, round int64, state []byte, fresh bool) (*trainer, error) {
	tr := &trainer{kit: kit, cfg: cfg}
	settings := func(m *learn.Method) learn.Settings { return cfg.settings(kit.Game, m) }
	switch {
	case state == nil && fresh:
		for i, m := range cfg.Learners {
			line, err := newLearner(kit.Game, m, settings(m), cfg.Seed, i)
			if err != nil {
				return nil, err
			}
			tr.lines = append(tr.lines, line)
		}
		return tr, nil
	case state == nil:
		return nil, fmt.Errorf("%w: round %d: the league has checkpoints, and no learner state is stored", store.ErrCorrupt, round)
	}
	var err error
	if tr.lines, tr.next, err = unmarshalLearners(kit.Game, state, settings); err != nil {
		return nil, fmt.Errorf("round %d: %w", round, err)
	}
	var methods []*learn.Method
	for _, line := range tr.lines {
		methods = append(methods, line.method)
	}
	if !slices.Equal(methods, cfg.Learners) {
		return nil, fmt.Errorf("round %d: the stored learners are %s, the league's settings say %s", round, strings.Join(learn.Names(methods), ","), strings.Join(learn.Names(cfg.Learners), ","))
	}
	return tr, nil
}

// turn is the method of the line that trains next.
func (tr *trainer) turn() string { return tr.lines[tr.next].method.Name }

// independent reports whether a round's training depends on nothing an
// evaluation finds, so that it may run while the round before it is
// evaluated: a share of games against the league's members draws them
// by the latest snapshot's results, and the exploiter and the drills
// are built against the learner as its last snapshot played.
func (tr *trainer) independent() bool {
	return tr.cfg.Members == 0 && tr.cfg.Exploit == 0 && tr.cfg.Drill == 0
}

// trained is a round's first part: the line it trained, the snapshot
// and its model, and the learners' state to commit with it, the next
// line to train named in it. It holds copies and names, nothing of the
// trainer's: the evaluation that takes it cannot reach a learner, which
// may be training the next round on another goroutine.
type trained struct {
	number   int64  // the round's
	line     int    // the line that trained, by Config.Learners
	method   string // its method's name
	snapshot *store.Agent
	model    learn.Model
	state    []byte
	games    int      // the training games it played, a retired line's among them
	diverged []string // the lines retired on the way
	begun    time.Time
	took     time.Duration
	err      error
}

// trainedAhead is a round trained on a goroutine of its own while the round
// before it was evaluated, and the trainer, which comes back with it.
type trainedAhead struct {
	round   trained
	trainer *trainer
}

// round trains the line whose turn it is against opp, freezes a snapshot
// of it, and passes the turn on: the first part of round number.
//
// A network whose weights have grown past what a forward pass can add up
// (a learning rate too high for its game or method) would be stored as a
// network that no command can read back. In a league of one learner the
// run stops there; in a league of several, that line is retired, what
// happened is added to diverged, and the next line trains in its place:
// a night's comparison goes on with the methods that still learn.
func (tr *trainer) round(ctx context.Context, number int64, opp opponents, progress func(int64, int, int)) trained {
	t := trained{number: number, begun: time.Now()}
	for t.snapshot == nil {
		line := tr.lines[tr.next]
		if t.err = tr.train(ctx, number, line, opp, progress); t.err != nil {
			return t
		}
		t.games += tr.games(line)
		snapshot, model := line.snapshot()
		err := model.Validate()
		switch {
		case err == nil:
			t.line, t.method, t.snapshot, t.model = tr.next, line.method.Name, snapshot, model
		case tr.after(tr.next) == tr.next:
			t.err = learn.Invalid([]string{"lr"}, func(n []string) string {
				return fmt.Sprintf("round %d: the %s learner has diverged (try a lower %s): %v", number, line.method.Name, n[0], err)
			})
			return t
		default:
			t.diverged = append(t.diverged, fmt.Sprintf("the %s learner has diverged after %d games, and trains no more: %v", line.method.Name, line.games, err))
			line.retire()
		}
		tr.next = tr.after(tr.next)
	}
	t.state, t.err = marshalLearners(tr.lines, tr.next)
	t.took = time.Since(t.begun)
	return t
}

// games is the training games of a round of line: its method's own
// count where it has one, else the league's.
func (tr *trainer) games(line *learner) int {
	if line.method.Games != nil {
		if n := line.method.Games(tr.cfg.settings(tr.kit.Game, line.method)); n > 0 {
			return n
		}
	}
	return tr.cfg.GamesPerRound
}

// teacher returns the model whose search teaches a taught line (nil:
// its own): the latest model of the first other line that judges
// positions, while the line's own network does not beat that model
// head to head, network against network over the league's openings in
// both colours. The choice reads only the lines, so that it is the same
// whenever the round trains (ahead of the last round's evaluation or
// after it) and whatever the number of workers.
func (tr *trainer) teacher(line *learner) learn.Model {
	var other learn.Model
	for _, l := range tr.lines {
		if l == line || l.retired || l.games == 0 {
			continue
		}
		if m := l.learner.Model(); m.Judge() != nil {
			other = m
			break
		}
	}
	if other == nil || line.games == 0 {
		return other
	}
	own := line.learner.Model()
	g := tr.kit.Game
	var score float64
	openings := game.Openings(g, tr.cfg.Openings)
	for _, o := range openings {
		start, _ := game.Replay(g, o)
		for _, side := range []game.Side{game.X, game.O} {
			players := [2]game.Player{other.Player(), other.Player()}
			players[side] = own.Player()
			switch r := game.Play(g, start, players[game.X], players[game.O]); r {
			case game.Win(side):
				score++
			case game.Tie:
				score += 0.5
			}
		}
	}
	if score > float64(len(openings)) { // more than half the points
		return nil
	}
	return other
}

// keep gives line i, unchanged since its snapshot, that snapshot as the
// player it starts its next round with (the check compiled it already).
func (tr *trainer) keep(i int, frozen game.Player) { tr.lines[i].frozen = frozen }

// after returns the line that trains after line i: the next that is not
// retired, i itself if no other is left.
func (tr *trainer) after(i int) int {
	for k := 1; k <= len(tr.lines); k++ {
		if j := (i + k) % len(tr.lines); !tr.lines[j].retired {
			return j
		}
	}
	return i
}

// hidden returns the hidden units of the lines' networks that have
// them, as the league's settings keep the size of its networks.
func (tr *trainer) hidden() int {
	h := 0
	for _, line := range tr.lines {
		if n := line.learner.Model().Layout().Hidden; n != 0 {
			h = n
		}
	}
	return h
}
