package pgn_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"ttt/agents/game"
	"ttt/agents/game/tictactoe"
	"ttt/league/pgn"
)

func TestWrite(t *testing.T) {
	var out bytes.Buffer
	w := pgn.NewWriter(&out, "league.db", tictactoe.Game)
	for _, g := range []pgn.Game{
		{Round: 3, White: "checkpoint-5", Black: "random", Result: game.XWins, Moves: []int{4, 0, 8, 2, 6}},
		{Round: 12, White: `say "hi"`, Black: `back\slash`, Result: game.Tie, Moves: []int{0, 4, 8, 2, 6, 3, 5, 1, 7}},
		{Round: 1, White: "random", Black: "perfect", Result: game.OWins, Moves: []int{0, 4, 1, 2, 3, 6}},
	} {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `[Event "ttt league"]
[Site "league.db"]
[Date "????.??.??"]
[Round "3"]
[White "checkpoint-5"]
[Black "random"]
[Result "1-0"]
[Game "tictactoe"]
[Moves "4 0 8 2 6"]

1-0

[Event "ttt league"]
[Site "league.db"]
[Date "????.??.??"]
[Round "12"]
[White "say \"hi\""]
[Black "back\\slash"]
[Result "1/2-1/2"]
[Game "tictactoe"]
[Moves "0 4 8 2 6 3 5 1 7"]

1/2-1/2

[Event "ttt league"]
[Site "league.db"]
[Date "????.??.??"]
[Round "1"]
[White "random"]
[Black "perfect"]
[Result "0-1"]
[Game "tictactoe"]
[Moves "0 4 1 2 3 6"]

0-1

`
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteRefuses(t *testing.T) {
	for name, g := range map[string]pgn.Game{
		"ongoing":    {White: "a", Black: "b", Result: game.Ongoing, Moves: []int{4}},
		"off-board":  {White: "a", Black: "b", Result: game.XWins, Moves: []int{0, 3, 1, 4, 9}},
		"negative":   {White: "a", Black: "b", Result: game.XWins, Moves: []int{-1}},
		"bad result": {White: "a", Black: "b", Result: 7},
	} {
		t.Run(name, func(t *testing.T) {
			var out bytes.Buffer
			w := pgn.NewWriter(&out, "x", tictactoe.Game)
			if err := w.Write(g); err == nil {
				t.Error("no error")
			}
			w.Flush()
			if out.Len() != 0 {
				t.Errorf("wrote %q", out.String())
			}
		})
	}
}

// FuzzName writes a game whose players and site are any string, and reads
// the tags back as the PGN standard says: each tag is one line of its own,
// the name comes back exactly when it is valid UTF-8 of graphic runes (all
// that store allows), and otherwise still as UTF-8 of graphic runes. The corpus in testdata/fuzz/FuzzName runs with go test.
func FuzzName(f *testing.F) {
	for _, s := range []string{"random", `a"b`, `a\b`, `"]`, "x\ny", "", "ünï-cødé", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		var out bytes.Buffer
		w := pgn.NewWriter(&out, name, tictactoe.Game)
		if err := w.Write(pgn.Game{Round: 1, White: name, Black: "o" + name, Result: game.Tie, Moves: []int{4}}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		notGraphic := func(r rune) bool { return !unicode.IsGraphic(r) }
		exact := utf8.ValidString(name) && strings.IndexFunc(name, notGraphic) < 0
		lines := strings.Split(out.String(), "\n")
		if got, want := len(lines), 13; got != want {
			t.Fatalf("%d lines, want %d:\n%s", got, want, out.String())
		}
		tags := map[string]string{}
		for _, line := range lines[:9] {
			k, v, err := parseTag(line)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			tags[k] = v
		}
		for k, v := range map[string]string{"Site": name, "White": name, "Black": "o" + name} {
			got := tags[k]
			if exact && got != v {
				t.Errorf("%s %q, want %q", k, got, v)
			}
			if !utf8.ValidString(got) || strings.IndexFunc(got, notGraphic) >= 0 {
				t.Errorf("%s %q: not UTF-8 of graphic runes", k, got)
			}
		}
		if tags["Result"] != "1/2-1/2" || tags["Moves"] != "4" {
			t.Errorf("tags %q", tags)
		}
		if lines[9] != "" || lines[10] != "1/2-1/2" || lines[11] != "" || lines[12] != "" {
			t.Errorf("movetext %q", lines[9:])
		}
	})
}

// parseTag reads a tag pair by the standard: [Name "value"], with \" and
// \\ the only escapes, and no character that is not printing.
func parseTag(line string) (name, value string, err error) {
	rest, ok := strings.CutPrefix(line, "[")
	if !ok {
		return "", "", fmt.Errorf("no [")
	}
	name, rest, ok = strings.Cut(rest, ` "`)
	if !ok || name == "" {
		return "", "", fmt.Errorf("no name")
	}
	var v strings.Builder
	for i := 0; i < len(rest); i++ {
		switch c := rest[i]; {
		case c < 0x20 || c == 0x7f:
			return "", "", fmt.Errorf("control byte %#x", c)
		case c == '\\':
			if i+1 == len(rest) || (rest[i+1] != '"' && rest[i+1] != '\\') {
				return "", "", fmt.Errorf("bad escape")
			}
			i++
			v.WriteByte(rest[i])
		case c == '"':
			if rest[i+1:] != "]" {
				return "", "", fmt.Errorf("text after the value: %q", rest[i+1:])
			}
			return name, v.String(), nil
		default:
			v.WriteByte(c)
		}
	}
	return "", "", fmt.Errorf("unterminated value")
}
