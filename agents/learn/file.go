package learn

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"ttt/agents/game"
)

// Reading is one way to read a plain file: the model it gives, the
// method that learns such a model, and what it is, to name it among
// other readings of the same bytes.
type Reading struct {
	Model  Model
	Method string
	What   string // "a tic-tac-toe policy network of 19 inputs and 100 hidden units"
	// Side is the side a one-side file plays as its model did (the other
	// side it plays as if it were that side); nil for a file of both.
	Side *game.Side
}

// ErrAmbiguous is the error of a file that reads as more than one model
// (AmbiguousError says which): an outside file of the headerless layout,
// whose size alone cannot tell its game, its inputs or its kind.
var ErrAmbiguous = errors.New("the file reads as more than one model")

// AmbiguousError names the readings of an ambiguous file.
type AmbiguousError struct{ Readings []Reading }

// Error names the readings.
func (e *AmbiguousError) Error() string {
	var what []string
	for _, r := range e.Readings {
		what = append(what, r.What)
	}
	return fmt.Sprintf("its size fits %s", strings.Join(what, ", and "))
}

// Unwrap makes errors.Is(err, ErrAmbiguous) hold.
func (e *AmbiguousError) Unwrap() error { return ErrAmbiguous }

// A file of ttt's own format (every model's but a policy network's,
// which keeps ttt-rl's headerless layout) starts with a header: eight
// bytes of magic that name its kind ("ttt-vnet", "ttt-ntup"), a byte of
// the length of the game's name and the name ("tictactoe", "connect4"),
// and a byte for the side it plays: 0 both, 1 X only, 2 O only. So a
// file never reads as another game's or another kind's.

// MagicPrefix starts the magic of every file of ttt's own formats; a
// headerless weight file that started so would begin with a weight of
// about 1.4e-11, which no trained network has.
const MagicPrefix = "ttt-"

// AppendHeader appends the header of a file of kind magic for g, of one
// side where side is not nil, to buf.
func AppendHeader(buf []byte, magic string, g game.Game, side *game.Side) []byte {
	buf = append(buf, magic...)
	buf = append(buf, byte(len(g.Name())))
	buf = append(buf, g.Name()...)
	s := byte(0)
	if side != nil {
		s = 1 + byte(*side)
	}
	return append(buf, s)
}

// HasMagic reports whether data starts with magic.
func HasMagic(data []byte, magic string) bool { return bytes.HasPrefix(data, []byte(magic)) }

// ReadHeader reads the header of a file of kind magic meant for g: it
// returns the side it plays (nil for both) and the rest of the file. A
// file of another game is refused, naming it.
func ReadHeader(data []byte, magic string, g game.Game, kind string) (side *game.Side, rest []byte, err error) {
	if !HasMagic(data, magic) {
		return nil, nil, fmt.Errorf("not %s file: it does not start with %q", kind, magic)
	}
	rest = data[len(magic):]
	if len(rest) < 1 || len(rest) < 2+int(rest[0]) {
		return nil, nil, fmt.Errorf("%s file: truncated header", kind)
	}
	n := int(rest[0])
	name, s := string(rest[1:1+n]), rest[1+n]
	rest = rest[2+n:]
	switch {
	case name != g.Name():
		return nil, nil, &OtherGameError{Kind: kind, Game: name, Want: g}
	case s > 2:
		return nil, nil, fmt.Errorf("%s file: side %d is not 0 (both), 1 (X) or 2 (O)", kind, s)
	case s > 0:
		sd := game.Side(s - 1)
		side = &sd
	}
	return side, rest, nil
}

// OtherGameError is the error of a file of another game than the one it
// was read for.
type OtherGameError struct {
	Kind, Game string // the file's kind and the name of its game
	Want       game.Game
}

// Error names both games.
func (e *OtherGameError) Error() string {
	return fmt.Sprintf("it is %s file of %s, not of %s", e.Kind, e.Game, e.Want.Name())
}
