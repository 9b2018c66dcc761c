package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/agents/nn"
	"ttt/store"
)

// playCommand is `ttt play`: a human against any stored agent, on a
// terminal or through a pipe.
func playCommand() *cli.Command {
	return &cli.Command{
		Name:  "play",
		Usage: "play tic-tac-toe against a stored agent",
		UsageText: `ttt play [options]

   ttt play                                  # you are X against the best checkpoint
   ttt play --checkpoint perfect --as O
   printf '4\n8\nq\n' | ttt play --checkpoint 12   # a scripted game

   Type a square, 0-8 as numbered beside the board, and Enter; q quits.
   After each of its moves the agent shows what it thought of every empty
   square, its choice in brackets: a network its move probabilities (the
   softmax over the nine squares, as ttt-rl shows them); perfect the game
   value of each move for itself (win, draw or loss; it takes the quickest
   win and the lowest square among equals); random the chance of each
   square. The agent plays greedily and does not learn: the database is
   only read.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Value: store.Best, Usage: "the opponent: `ID|NAME|best|latest|random|perfect`"},
			&cli.StringFlag{Name: "as", Value: "X", Usage: "your side, `X|O`; X moves first"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
			}
			human, err := game.ParseSide(c.String("as"))
			if err != nil {
				return fmt.Errorf("--as: %w", err)
			}
			a, err := opponent(c, c.String("checkpoint"))
			if err != nil {
				return err
			}
			// Play against random is meant to differ from game to game, so
			// its seed is the one place ttt draws from the global source.
			r := newRival(a, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
			// A terminal shows what the human types; a pipe does not, so
			// the moves are echoed there and a scripted game reads as a
			// transcript.
			f, _ := c.App.Reader.(*os.File)
			echo := f == nil || !isTerminal(f)
			_, err = playGames(c.Context, c.App.Reader, c.App.Writer, echo, r, human)
			return err
		},
	}
}

// opponent reads the agent ref names, with a hint when there is no
// network to play yet.
func opponent(c *cli.Context, ref string) (*store.Agent, error) {
	a, err := storedAgent(c, ref)
	if errors.Is(err, store.ErrNoCheckpoints) {
		return nil, fmt.Errorf("%w: play --checkpoint perfect or random, or train one first", err)
	}
	return a, err
}

// rival is the agent across the board: its move in a position, and what
// it thought of each empty square, as text to show in a 3x3 grid.
type rival struct {
	name string
	// about says what the grid's cells are.
	about string
	think func(b tictactoe.Board) (move int, cells [9]string)
}

// newRival turns a stored agent into a rival. Random draws its moves
// from rng.
func newRival(a *store.Agent, rng *rand.Rand) rival {
	r := rival{name: a.Name}
	switch a.Kind {
	case store.Random:
		r.about = "the chance of each square"
		r.think = func(b tictactoe.Board) (int, [9]string) {
			var cells [9]string
			empty := b.Empty()
			for sq := range cells {
				if empty&(1<<sq) != 0 {
					cells[sq] = percent(1 / float32(9-b.Moves()))
				}
			}
			return game.RandomMove(tictactoe.Game, b.Position(), rng), cells
		}
	case store.Perfect:
		r.about = "the game value of each move for " + a.Name
		perfect, solved := tictactoe.Perfect(), tictactoe.Solve()
		r.think = func(b tictactoe.Board) (int, [9]string) {
			var cells [9]string
			for sq := range cells {
				if b.IsEmpty(sq) {
					cells[sq] = solved.MoveValue(b, sq).String()
				}
			}
			return perfect.Move(b.Position()), cells
		}
	default:
		r.about = "its move probabilities"
		var p nn.Pass
		r.think = func(b tictactoe.Board) (int, [9]string) {
			a.Net.Forward(b.Position(), &p)
			var cells [9]string
			for sq := range cells {
				if b.IsEmpty(sq) {
					cells[sq] = percent(p.Probs[sq])
				}
			}
			return a.Net.Greedy(b.Position(), &p), cells
		}
	}
	return r
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
	rival rival
	human game.Side
}

// playGames plays games of the human, whose lines come from in, against
// r until the human quits (q, or n when asked to play again), the input
// ends or ctx is cancelled; all three end the session cleanly. It returns
// the human's record over the finished games.
func playGames(ctx context.Context, in io.Reader, out io.Writer, echo bool, r rival, human game.Side) (game.Record, error) {
	lines := readLines(in)
	defer lines.stop()
	s := &session{ctx: ctx, in: lines, out: out, echo: echo, rival: r, human: human}
	var tally game.Record
	first := "you move first"
	if human == game.O {
		first = r.name + " moves first"
	}
	fmt.Fprintf(out, "You are %s and %s plays %s; %s. Type a square (0-8) and Enter, q to quit.\n",
		human, r.name, human.Other(), first)
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
	var b tictactoe.Board
	for b.Result() == game.Ongoing {
		if b.ToMove() == s.human {
			fmt.Fprintln(s.out)
			writeBoard(s.out, b)
			sq, err := s.humanMove(b)
			if err != nil {
				return 0, err
			}
			b = b.Play(sq)
			continue
		}
		sq, cells := s.rival.think(b)
		fmt.Fprintf(s.out, "\n%s plays %s on %d; %s:\n", s.rival.name, b.ToMove(), sq, s.rival.about)
		writeGrid(s.out, b, cells, sq)
		b = b.Play(sq)
	}
	fmt.Fprintln(s.out)
	writeBoard(s.out, b)
	return b.Result(), nil
}

// humanMove asks for a move until the human types a legal one or quits.
func (s *session) humanMove(b tictactoe.Board) (int, error) {
	for {
		line, err := s.ask("Your move (0-8, q quits): ")
		if errors.Is(err, errLongLine) {
			fmt.Fprintf(s.out, "Not a move: %v.\n", err)
			continue
		}
		if err != nil {
			return 0, err
		}
		sq, err := parseMove(b, line)
		if err == nil || errors.Is(err, errQuit) {
			return sq, err
		}
		fmt.Fprintf(s.out, "Not a move: %v.\n", err)
	}
}

// parseMove reads one line typed at the move prompt on b: the square to
// play, errQuit for q, or why the line is not a legal move.
func parseMove(b tictactoe.Board, line string) (int, error) {
	text := strings.TrimSpace(line)
	switch strings.ToLower(text) {
	case "q", "quit":
		return 0, errQuit
	case "":
		return 0, errors.New("the line is empty; type a square 0-8")
	}
	sq, err := strconv.Atoi(text)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("square %s is off the board (0-8)", text)
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a square number (0-8)", text)
	}
	return sq, b.CheckMove(sq)
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

// maxLine is the longest line that play reads as an answer. A longer one
// is read to its end without being kept, and answered as a bad move.
const maxLine = 64 << 10

// errLongLine is the answer to a line longer than maxLine.
var errLongLine = fmt.Errorf("the line is longer than %d KiB", maxLine>>10)

// lines reads its input line by line in a goroutine, so that the game
// can end on Ctrl-C while a read from the terminal still waits for Enter.
type lines struct {
	ch   chan line
	err  error // why the input ended early; set before ch is closed
	done chan struct{}
}

// line is a line of the input without its end (\n or \r\n), or a mark
// that the line was longer than maxLine.
type line struct {
	text string
	long bool
}

func readLines(in io.Reader) *lines {
	l := &lines{ch: make(chan line), done: make(chan struct{})}
	go func() {
		defer close(l.ch)
		r := bufio.NewReader(in)
		for {
			next, err := readLine(r)
			if err != nil {
				if err != io.EOF {
					l.err = err
				}
				return
			}
			select {
			case l.ch <- next:
			case <-l.done:
				return
			}
		}
	}()
	return l
}

// readLine reads the next line from r, keeping at most maxLine bytes of
// it in memory. The last line of the input needs no \n; after it comes
// io.EOF.
func readLine(r *bufio.Reader) (line, error) {
	var buf []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			buf = append(buf, chunk...)
			if len(buf) > maxLine+len("\r\n") {
				buf, long = nil, true
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil, err == io.EOF && (len(buf) > 0 || long):
			text := strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
			if long || len(text) > maxLine {
				return line{long: true}, nil
			}
			return line{text: text}, nil
		}
		return line{}, err
	}
}

// stop lets the goroutine end at its next line. One blocked in a read of
// a terminal stays there until the process ends; only Ctrl-C leaves it
// there, and the process ends then.
func (l *lines) stop() { close(l.done) }

// writeBoard draws b with the square numbers beside it.
func writeBoard(w io.Writer, b tictactoe.Board) {
	for row := range 3 {
		if row > 0 {
			fmt.Fprintln(w, "  ---+---+---")
		}
		sq := 3 * row
		fmt.Fprintf(w, "   %c | %c | %c      %d %d %d\n",
			mark(b, sq), mark(b, sq+1), mark(b, sq+2), sq, sq+1, sq+2)
	}
}

// mark is what a square shows on the board: X, O, or a space when empty.
func mark(b tictactoe.Board, sq int) byte {
	if c := b.At(sq); c != '.' {
		return c
	}
	return ' '
}

// writeGrid draws the agent's cells over b: the taken squares with their
// marks, the empty ones with their text, and the chosen one in brackets.
func writeGrid(w io.Writer, b tictactoe.Board, cells [9]string, chosen int) {
	for row := range 3 {
		var sb strings.Builder
		for sq := 3 * row; sq < 3*row+3; sq++ {
			switch {
			case !b.IsEmpty(sq):
				fmt.Fprintf(&sb, "     %c   ", b.At(sq))
			case sq == chosen:
				fmt.Fprintf(&sb, " [%6s]", cells[sq])
			default:
				fmt.Fprintf(&sb, "  %6s ", cells[sq])
			}
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
	}
}
