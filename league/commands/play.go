package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/search"
	"ttt/league"
	"ttt/store"
)

// playCommand is `ttt play`: a human against any stored agent, on a
// terminal or through a pipe.
func playCommand() *cli.Command {
	return &cli.Command{
		Name:  "play",
		Usage: "play a game against a stored agent, a built-in player or a model's file",
		UsageText: `ttt play [options]

   ttt play                                  # you are X against the best checkpoint
   ttt play --checkpoint perfect --as O      # a built-in player: no league needed
   ttt play --game connect4 --checkpoint tactician
   printf '4\n8\nq\n' | ttt play --checkpoint 12   # a scripted game
   ttt play --file table.bin                 # a file, not the league: any model ttt writes
   ttt play --db c4.db --checkpoint best@ab8 # the best with a search around it

   Type your move and Enter: a square 0-8 in tic-tac-toe, as numbered
   beside the board, or a column 1-7 in Connect Four; q quits. After each
   of its moves the agent shows what it thought of every move, its choice
   in brackets: a policy network its move probabilities (the softmax, as
   ttt-rl shows them); a value network or an n-tuple network what it
   expects to score after each move; a table of values the value it puts
   on the position after each square; perfect the game value of each move
   for itself (win, draw or loss; it takes the quickest win and the
   lowest square among equals); random the chance of each move. The agent
   plays greedily and does not learn: the database is only read. A file
   says its game (or its size does); --game chooses where it cannot.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Value: store.Best, Usage: "the opponent: `ID|NAME|best|latest`, with a search after an @ (best@ab8, best@mcts800), or a built-in player (random, perfect, tactician, mcts-100, ...)"},
			&cli.StringFlag{Name: "as", Value: "X", Usage: "your side, `X|O`; X moves first"},
			&cli.StringFlag{Name: "file", Usage: "the opponent is the model in `FILE`: any file ttt export or ttt train writes"},
			&cli.DurationFlag{Name: "move-time", Value: time.Second, Usage: "the longest, `DURATION`, a searched agent (best@ab8) thinks a move: it plays the best move of the deepest search it finished in time"},
			&cli.BoolFlag{Name: "hint", Usage: "before each of your moves, show the exact value of every move for you (win, draw or loss, and in how many moves)"},
			&cli.StringFlag{Name: gameFlagName, Usage: "the game, `" + gameNames() + "`: of a built-in player without a league, or of a file that does not say", DefaultText: "the league's, or the file's"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			human, err := game.ParseSide(c.String("as"))
			if err != nil {
				return usage(c.Command, "--as: %v", err)
			}
			if c.IsSet("file") && c.IsSet("checkpoint") {
				return usage(c.Command, "takes --checkpoint or --file, not both")
			}
			if c.Duration("move-time") <= 0 {
				return usage(c.Command, "--move-time must be positive (got %v)", c.Duration("move-time"))
			}
			return runPlay(jobOf(c), c.String("checkpoint"), c.String("file"), human, c.Bool("hint"), c.Duration("move-time"))
		},
	}
}

// runPlay plays the human, as human, against the agent in the file at
// path, or with path "" the stored agent ref names; hint shows the value
// of every move before each of the human's. A searched agent thinks a
// move for moveTime at most.
func runPlay(j *job, ref, path string, human game.Side, hint bool, moveTime time.Duration) error {
	var r rival
	if path != "" {
		var err error
		if r, err = j.fileRival(path, moveTime); err != nil {
			return err
		}
	} else {
		kit, a, m, err := j.opponent(ref)
		if err != nil {
			return err
		}
		// Play against random is meant to differ from game to game, so
		// its seed is the one place ttt draws from the global source.
		if r, err = newRival(kit, a, m, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())), moveTime); err != nil {
			return err
		}
	}
	// A terminal shows what the human types; a pipe does not, so the
	// moves are echoed there and a scripted game reads as a transcript.
	f, _ := j.Stdin.(*os.File)
	echo := f == nil || !isTerminal(f)
	if _, err := playGames(j.ctx, j.Stdin, j.Stdout, echo, r, human, hint); err != nil {
		return err
	}
	return j.ctx.Err() // a session ended by Ctrl-C did not end as the human asked
}

// opponent reads the agent ref names, its model (nil for a built-in
// player) and its league's game, with a hint when there is no model to
// play yet. A built-in player needs no league: without one, it is the
// one of the game --game names.
func (j *job) opponent(ref string) (*agents.Kit, *store.Agent, learn.Model, error) {
	if _, err := os.Stat(j.path(j.db)); errors.Is(err, fs.ErrNotExist) {
		kit, err := j.newKit()
		if err != nil {
			return nil, nil, nil, err
		}
		if b, ok := kit.Builtin(ref); ok {
			return kit, &store.Agent{Kind: store.Kind(b.Kind), Name: b.Name}, nil, nil
		}
	}
	db, err := j.openLeague(false)
	if err != nil {
		return nil, nil, nil, err
	}
	defer db.Close()
	a, err := j.lookup(db, ref)
	if err == nil && pruned(a.Agent) {
		return nil, nil, nil, errPruned(a.Agent)
	}
	kit := agents.KitFor(db.Game())
	if errors.Is(err, store.ErrNoCheckpoints) {
		var names []string
		for _, b := range kit.Builtins {
			names = append(names, b.Name)
		}
		return nil, nil, nil, fmt.Errorf("%w: play a built-in player (--checkpoint %s), or train one first", err, strings.Join(names, ", "))
	}
	if err != nil {
		return kit, nil, nil, err
	}
	if a.Weights == nil {
		return kit, a.Agent, nil, nil
	}
	m, err := league.ModelOf(kit, a)
	return kit, a.Agent, m, err
}

// fileRival is the agent in the file at path, of the game --game names
// or else whatever game the file is for, as a rival named after the
// file; FILE@SEARCH plays it with the search, moveTime a move at most.
func (j *job) fileRival(path string, moveTime time.Duration) (rival, error) {
	var spec *search.Spec
	if _, err := os.Stat(j.path(path)); err != nil {
		if name, s, serr := search.Split(path); serr == nil && s != nil {
			path, spec = name, s
		}
	}
	var g game.Game
	if j.game != "" {
		kit, err := agents.KitOf(j.game)
		if err != nil {
			return rival{}, j.usage("--game: %v", err)
		}
		g = kit.Game
	}
	r, err := j.readModel(g, path, 0)
	if err != nil {
		return rival{}, err
	}
	kit := agents.KitFor(r.Model.Plays())
	if r.Side != nil {
		fmt.Fprintf(j.Stdout, "%s is a file of one side: it plays %s as its checkpoint did\n", path, r.Side)
	}
	a := &store.Agent{Name: filepath.Base(path), Method: r.Method}
	if spec != nil {
		a.Name += "@" + spec.String()
		r.Model = search.Wrap(r.Model, *spec)
	}
	return newRival(kit, a, r.Model, nil, moveTime)
}

// rival is the agent across the board: its move in a position, and what
// it thought of each legal move, as text to show over the board.
type rival struct {
	name string
	kit  *agents.Kit
	// about says what the cells are, after the move think made; nil for
	// a player that shows none.
	about func() string
	think func(ctx context.Context, p game.Position) (move int, cells []string, err error)
}

// newRival turns a stored agent of kit's game, whose model is m (nil for
// a built-in player), into a rival. Random and MCTS draw their moves
// from rng; a search thinks a move for moveTime at most.
func newRival(kit *agents.Kit, a *store.Agent, m learn.Model, rng *rand.Rand, moveTime time.Duration) (rival, error) {
	t, err := league.NewThinker(kit, a, m, rng, moveTime)
	if err != nil {
		return rival{}, err
	}
	r := rival{name: a.Name, kit: kit}
	show := func(v float64) string { return percent(float32(v)) }
	var about string
	switch t.Shows {
	case league.Probabilities:
		about = "its move probabilities"
		if a.Kind == agents.Random {
			about = "the chance of each " + kit.MoveName()
		}
	case league.Scores:
		about = "what it expects to score after each " + kit.MoveName()
	case league.TableValues:
		about = "the value it puts on the position after each " + kit.MoveName()
		show = func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	case league.GameValues:
		about = "the game value of each move for " + a.Name
		show = func(v float64) string { return game.Value(v).String() }
	}
	r.about = func() string {
		if t.Searcher != nil {
			return about + ", " + searched(t.Searcher.Spec(), t.Searcher.Last())
		}
		return about
	}
	r.think = func(ctx context.Context, p game.Position) (int, []string, error) {
		// A search stops with ctx, and the perfect player's look-ups
		// fail with it.
		th, err := t.Think(ctx, p)
		if err != nil || th.Views == nil {
			return th.Move, nil, err
		}
		cells := make([]string, kit.Moves())
		for legal := kit.Legal(p); legal != 0; legal &= legal - 1 {
			k := bits.TrailingZeros64(legal)
			cells[k] = show(th.Views[k])
		}
		return th.Move, cells, nil
	}
	return r, nil
}

// searched says what a search's last move cost: "alpha-beta, 6 plies in
// 12 ms", "MCTS, 800 simulations in 9 ms".
func searched(spec search.Spec, st search.Stats) string {
	return fmt.Sprintf("by %s, %d %s in %v", spec.Search.Title, st.Depth, spec.Search.Unit, st.Time.Round(time.Millisecond/10))
}

// percent formats a probability as ttt-rl does: 97.1%.
func percent(p float32) string { return strconv.FormatFloat(float64(100*p), 'f', 1, 32) + "%" }

// errQuit ends a session at the human's request.
var errQuit = errors.New("quit")

// session is the state of `ttt play` between the human's lines.
type session struct {
	ctx   context.Context
	in    *lines
	out   io.Writer
	echo  bool // show each line read after its prompt
	hint  bool // show the value of each of the human's moves
	rival rival
	human game.Side
}

// playGames plays games of the human, whose lines come from in, against
// r until the human quits (q, or n when asked to play again), the input
// ends or ctx is cancelled; all three end the session cleanly. It returns
// the human's record over the finished games.
func playGames(ctx context.Context, in io.Reader, out io.Writer, echo bool, r rival, human game.Side, hint bool) (game.Record, error) {
	lines := readLines(in)
	defer lines.stop()
	s := &session{ctx: ctx, in: lines, out: out, echo: echo, hint: hint, rival: r, human: human}
	var tally game.Record
	first := "you move first"
	if human == game.O {
		first = r.name + " moves first"
	}
	fmt.Fprintf(out, "You are %s and %s plays %s; %s. Type a %s (%s) and Enter, q to quit.\n",
		human, r.name, human.Other(), first, r.kit.MoveName(), r.kit.Span())
	for {
		result, err := s.game()
		if err != nil {
			if !s.ended(err) {
				return tally, err
			}
			fmt.Fprintln(out, "This game is not counted.")
			break
		}
		tally.Add(result, human)
		switch result {
		case game.Win(human):
			fmt.Fprintln(out, "You win!")
		case game.Tie:
			fmt.Fprintln(out, "A tie.")
		default:
			fmt.Fprintf(out, "%s wins.\n", r.name)
		}
		if err := s.again(); err != nil {
			if !s.ended(err) {
				return tally, err
			}
			break
		}
	}
	fmt.Fprintf(out, "Against %s you won %d, drew %d and lost %d.\n", r.name, tally.Wins, tally.Draws, tally.Losses)
	return tally, nil
}

// ended reports whether err ends the session cleanly, and says why when
// the human did not ask for it.
func (s *session) ended(err error) bool {
	switch {
	case errors.Is(err, errQuit):
	case errors.Is(err, io.EOF):
		fmt.Fprintln(s.out, "\nEnd of input.")
	case s.ctx.Err() != nil:
		fmt.Fprintln(s.out, "\nInterrupted.")
	default:
		return false
	}
	return true
}

// game plays one game and returns how it ended.
func (s *session) game() (game.Result, error) {
	kit := s.rival.kit
	p := kit.Start()
	for kit.Result(p) == game.Ongoing {
		if kit.ToMove(p) == s.human {
			fmt.Fprintln(s.out)
			writeBoard(s.out, kit, p)
			if s.hint {
				if err := s.showHint(p); err != nil {
					return 0, err
				}
			}
			m, err := s.humanMove(p)
			if err != nil {
				return 0, err
			}
			p = kit.Play(p, m)
			continue
		}
		m, cells, err := s.rival.think(s.ctx, p)
		if err != nil {
			return 0, err
		}
		if cells == nil {
			fmt.Fprintf(s.out, "\n%s plays %s on %s.\n", s.rival.name, kit.ToMove(p), kit.FormatMove(m))
		} else {
			fmt.Fprintf(s.out, "\n%s plays %s on %s; %s:\n", s.rival.name, kit.ToMove(p), kit.FormatMove(m), s.rival.about())
			writeCells(s.out, kit, p, cells, m)
		}
		p = kit.Play(p, m)
	}
	fmt.Fprintln(s.out)
	writeBoard(s.out, kit, p)
	return kit.Result(p), nil
}

// showHint writes the exact value of each of the human's moves in p, with
// the plies to the end of a won or lost game, that move included.
func (s *session) showHint(p game.Position) error {
	kit := s.rival.kit
	outcomes, err := kit.Analyze(s.ctx, p)
	if err != nil {
		return err
	}
	cells := make([]string, kit.Moves())
	for m, o := range outcomes {
		cells[m] = o.Value.String()
		if o.Value != game.Draw {
			cells[m] += " " + strconv.Itoa(o.Plies)
		}
	}
	fmt.Fprintln(s.out, "The value of each move for you (with perfect play after it):")
	writeCells(s.out, kit, p, cells, -1)
	return nil
}

// humanMove asks for a move until the human types a legal one or quits.
func (s *session) humanMove(p game.Position) (int, error) {
	for {
		line, err := s.ask(fmt.Sprintf("Your move (%s, q quits): ", s.rival.kit.Span()))
		if errors.Is(err, errLongLine) {
			fmt.Fprintf(s.out, "Not a move: %v.\n", err)
			continue
		}
		if err != nil {
			return 0, err
		}
		m, err := parseMove(s.rival.kit, p, line)
		if err == nil || errors.Is(err, errQuit) {
			return m, err
		}
		fmt.Fprintf(s.out, "Not a move: %v.\n", err)
	}
}

// again asks whether to play another game; errQuit means no.
func (s *session) again() error {
	for {
		line, err := s.ask("Play again? (y/n): ")
		if errors.Is(err, errLongLine) {
			fmt.Fprintln(s.out, "Answer y or n.")
			continue
		}
		if err != nil {
			return err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return nil
		case "n", "no", "q", "quit":
			return errQuit
		}
		fmt.Fprintln(s.out, "Answer y or n.")
	}
}

// ask prints prompt and returns the next line; errLongLine for a line
// too long to be an answer, io.EOF at the end of the input, or the
// context's error once it is cancelled.
func (s *session) ask(prompt string) (string, error) {
	fmt.Fprint(s.out, prompt)
	select {
	case <-s.ctx.Done():
		return "", s.ctx.Err()
	case l, ok := <-s.in.ch:
		if !ok {
			if s.in.err != nil {
				return "", fmt.Errorf("reading the moves: %w", s.in.err)
			}
			return "", io.EOF
		}
		if l.long {
			if s.echo {
				fmt.Fprintf(s.out, "[a line of more than %d KiB]\n", maxLine>>10)
			}
			return "", errLongLine
		}
		if s.echo {
			fmt.Fprintln(s.out, l.text)
		}
		return l.text, nil
	}
}
