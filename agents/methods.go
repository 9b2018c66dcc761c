package agents

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"ttt/agents/conv"
	"ttt/agents/game"
	"ttt/agents/learn"
	"ttt/agents/lines"
	"ttt/agents/ntuple"
	"ttt/agents/train"
)

// Methods are the methods of learning ttt knows, the default of
// tic-tac-toe first. Adding a method is adding its package's learn.Method
// here.
var Methods = []*learn.Method{
	train.PolicyMethod,
	train.TDLambdaMethod,
	train.TableMethod,
	train.SelfPlayTableMethod,
	ntuple.Method,
	conv.Method,
	lines.Method,
}

// MethodNames are the names of Methods, in their order.
func MethodNames() []string { return learn.Names(Methods) }

// ErrUnknownMethod is the error of a name that is no method of Methods.
var ErrUnknownMethod = errors.New("unknown method")

// MethodOf returns the method called name. MCTS, which users may take
// for one, is told apart: it does not learn.
func MethodOf(name string) (*learn.Method, error) {
	for _, m := range Methods {
		if m.Name == name {
			return m, nil
		}
	}
	if name == "mcts" {
		return nil, fmt.Errorf("%w mcts: %s", ErrUnknownMethod, learn.NoLearningMCTS)
	}
	return nil, fmt.Errorf("%w %q: ttt knows %s", ErrUnknownMethod, name, strings.Join(MethodNames(), ", "))
}

// Decode reads back a model of g that a league stored, as its method's.
func Decode(g game.Game, method string, stored []byte) (learn.Model, error) {
	m, err := MethodOf(method)
	if err != nil {
		return nil, err
	}
	return m.Decode(g, stored)
}

// ReadFile reads a model's plain file, meant for g (nil: whatever game
// it is for), keeping only the readings that want accepts (nil: all).
// A file of ttt's own formats says its kind, its game and its side, and
// reads one way; a headerless weight file is read every way its size
// fits, in every game, and one that reads more than one way is refused
// with an *learn.AmbiguousError that names them. A file of another game
// is refused, naming both games.
func ReadFile(g game.Game, data []byte, want func(learn.Reading) bool) (learn.Reading, error) {
	if len(data) == 0 {
		return learn.Reading{}, errors.New("the file is empty")
	}
	var readings []learn.Reading
	var other *learn.OtherGameError
	for _, k := range Games {
		for _, m := range Methods {
			if m.ReadFile == nil {
				continue
			}
			rs, err := m.ReadFile(k.Game, data)
			switch {
			case errors.As(err, &other):
				continue // the reader of its game takes it
			case err != nil:
				return learn.Reading{}, err
			}
			for _, r := range rs {
				if want == nil || want(r) {
					readings = append(readings, r)
				}
			}
		}
	}
	var ours []learn.Reading
	for _, r := range readings {
		if g == nil || r.Model.Plays() == g {
			ours = append(ours, r)
		}
	}
	switch {
	case len(readings) == 0 && other != nil && !plays(other.Game):
		var names []string
		for _, k := range Games {
			names = append(names, k.Name())
		}
		return learn.Reading{}, fmt.Errorf("it is %s file of %q, a game this ttt does not play (it plays %s)", other.Kind, other.Game, strings.Join(names, ", "))
	case len(readings) == 0 && learn.HasMagic(data, learn.MagicPrefix):
		return learn.Reading{}, fmt.Errorf("it starts %q, the magic of no kind of model this ttt reads", data[:min(len(data), 8)])
	case len(readings) == 0 && len(data)%4 != 0:
		return learn.Reading{}, fmt.Errorf("%d bytes is not a whole number of float32 values, as a headerless weight file is, and it has no header of a file of ttt's own", len(data))
	case len(readings) == 0:
		var layouts []string
		for _, k := range Games {
			layouts = append(layouts, fmt.Sprintf("%d or %d inputs and %d moves in %s", k.Inputs(), k.Inputs()-1, k.Moves(), k.Title()))
		}
		return learn.Reading{}, fmt.Errorf("%d bytes fits no network: a headerless weight file holds 4*(inputs*H + (moves+1)*H + moves) bytes for a policy network of H hidden units, with %s", len(data), strings.Join(layouts, ", "))
	case len(ours) == 0:
		return learn.Reading{}, fmt.Errorf("it is %s, not a %s player", readings[0].What, g.Title())
	case len(readings) > 1:
		return learn.Reading{}, &learn.AmbiguousError{Readings: readings}
	}
	return ours[0], nil
}

// plays reports whether name is a game this ttt plays.
func plays(name string) bool {
	for _, k := range Games {
		if k.Name() == name {
			return true
		}
	}
	return false
}

// MaxFileSize is the size of the largest plain file of any model that
// ttt reads (learn.Method.MaxFile).
func MaxFileSize() int64 {
	var size int64
	for _, m := range Methods {
		for _, k := range Games {
			if m.MaxFile != nil {
				size = max(size, m.MaxFile(k.Game))
			}
		}
	}
	return size
}

// Setting returns the setting called name that a method of Methods reads
// (learn.Method.Own), or nil.
func Setting(name string) *learn.Setting {
	for _, m := range Methods {
		for _, st := range m.Own {
			if st.Name == name {
				return st
			}
		}
	}
	return nil
}

// Settings are the settings the methods of Methods read, each once, in
// the order they first appear.
func Settings() []*learn.Setting {
	var out []*learn.Setting
	for _, m := range Methods {
		for _, st := range m.Own {
			if !slices.Contains(out, st) {
				out = append(out, st)
			}
		}
	}
	return out
}

// Readers are the names of the methods of Methods that read st.
func Readers(st *learn.Setting) []string {
	var out []string
	for _, m := range Methods {
		if slices.Contains(m.Own, st) {
			out = append(out, m.Name)
		}
	}
	return out
}

// Unread refuses a setting that given reports as given but that none of
// methods reads, such as hidden for a league of n-tuple networks: the
// user meant it, and it would change nothing.
func Unread(methods []*learn.Method, given func(setting string) bool) error {
	for _, st := range Settings() {
		if given(st.Name) && !slices.ContainsFunc(methods, func(m *learn.Method) bool { return slices.Contains(m.Own, st) }) {
			return learn.Invalid([]string{st.Name}, func(n []string) string {
				return fmt.Sprintf("%s: no learner of this league reads it (%s: %s do)", n[0], strings.Join(learn.Names(methods), ","), strings.Join(Readers(st), ", "))
			})
		}
	}
	return nil
}
