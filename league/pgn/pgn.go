// Package pgn writes the games of ttt in Portable Game Notation, the
// chess format that rating programs such as Ordo and BayesElo read: the
// seven-tag roster (Event, Site, Date, Round, White, Black, Result; the
// date is the day, in UTC, the game's round was committed) with
// X (the first player) as White and O as Black, the game's name in a Game
// tag, the moves played in a Moves tag (tic-tac-toe's squares 0-8,
// Connect Four's columns 1-7), and a movetext of the result token alone,
// since the moves are no chess moves. A game reads:
//
//	[Event "ttt league"]
//	[Site "league.db"]
//	[Date "2026.11.25"]
//	[Round "3"]
//	[White "checkpoint-5"]
//	[Black "random"]
//	[Result "1-0"]
//	[Game "tictactoe"]
//	[Moves "4 0 8 2 6"]
//
//	1-0
//
// Ordo reads a file line by line: it finds `[White "` anywhere in a line
// and takes the name up to the first `"]` of that line, without undoing
// escapes. So every tag has a line of its own, and since a quote inside a
// value is always escaped, no name or site can pass for another tag. Ordo
// shows a name with a backslash or a quote in it escaped, and cuts one
// that holds `"]` short there; readers that follow the standard get every
// name back as it was.
package pgn

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"ttt/agents/game"
)

// Event is the Event tag of every game ttt writes.
const Event = "ttt league"

// Game is what a PGN game records of a game.
type Game struct {
	Round        int64
	Date         time.Time // the day it was played; zero for unknown
	White, Black string    // the X and O players
	Result       game.Result
	Moves        []int // the moves in the order played, X first
}

// Writer writes games to an underlying writer, buffered: Flush at the end.
type Writer struct {
	w    *bufio.Writer
	game game.Game
	site string // quoted
	buf  []byte
}

// NewWriter returns a Writer of games of g played at site (for ttt, the
// league database's file name).
func NewWriter(w io.Writer, site string, g game.Game) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), game: g, site: quote(site)}
}

// Write writes one game. A game still going has no result for a rating
// program and is refused.
func (w *Writer) Write(g Game) error {
	result, err := token(g.Result)
	if err != nil {
		return err
	}
	b := w.buf[:0]
	b = append(b, "[Event \""+Event+"\"]\n[Site "...)
	b = append(b, w.site...)
	b = append(b, "]\n[Date \""...)
	if g.Date.IsZero() {
		b = append(b, "????.??.??"...)
	} else {
		b = g.Date.UTC().AppendFormat(b, "2006.01.02")
	}
	b = append(b, "\"]\n[Round \""...)
	b = strconv.AppendInt(b, g.Round, 10)
	b = append(b, "\"]\n[White "...)
	b = append(b, quote(g.White)...)
	b = append(b, "]\n[Black "...)
	b = append(b, quote(g.Black)...)
	b = append(b, "]\n[Result \""...)
	b = append(b, result...)
	b = append(b, "\"]\n[Game \""...)
	b = append(b, w.game.Name()...)
	b = append(b, "\"]\n[Moves \""...)
	for i, m := range g.Moves {
		if m < 0 || m >= w.game.Moves() {
			return fmt.Errorf("pgn: move %d is not on the board", m)
		}
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, w.game.FormatMove(m)...)
	}
	b = append(b, "\"]\n\n"...)
	b = append(b, result...)
	b = append(b, "\n\n"...)
	w.buf = b
	_, err = w.w.Write(b)
	return err
}

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// token is the PGN result token of r.
func token(r game.Result) (string, error) {
	switch r {
	case game.XWins:
		return "1-0", nil
	case game.OWins:
		return "0-1", nil
	case game.Tie:
		return "1/2-1/2", nil
	}
	return "", fmt.Errorf("pgn: a game without a result (%s)", r)
}

// quote returns s as a PGN string token: in double quotes, with a
// backslash before every `"` and `\` (PGN standard, 7.) and all else as
// it is, so a reader that undoes the escapes gets s back. The standard
// has no escape for characters that are not printing (a newline would
// end the tag line), so every rune that is not graphic, and every byte
// that is not UTF-8, becomes U+FFFD. ttt's agent names are graphic by
// construction (store refuses others), so they come back exactly.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s { // invalid UTF-8 comes as utf8.RuneError
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsGraphic(r):
			b.WriteRune(r)
		default:
			b.WriteRune(utf8.RuneError)
		}
	}
	b.WriteByte('"')
	return b.String()
}
