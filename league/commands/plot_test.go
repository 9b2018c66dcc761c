package commands_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ttt/league/commands"
	"ttt/store"
)

// svgDoc is what the plot test reads of an SVG file: the style of every
// path and every text, however deeply nested.
type svgDoc struct {
	styles, texts []string
}

func parseSVG(data []byte) (svgDoc, error) {
	var doc svgDoc
	d := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return doc, nil
		}
		if err != nil {
			return doc, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
			if inText {
				doc.texts = append(doc.texts, "")
			}
			for _, a := range tok.Attr {
				if tok.Name.Local == "path" && a.Name.Local == "style" {
					doc.styles = append(doc.styles, a.Value)
				}
			}
		case xml.CharData:
			if inText {
				doc.texts[len(doc.texts)-1] += string(tok)
			}
		case xml.EndElement:
			inText = false
		}
	}
}

// hexColor writes c as SVG styles do.
func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// TestRatingsPlot draws a league's ratings as SVG and as PNG and checks
// that each has one series per plotted agent, and no other.
func TestRatingsPlot(t *testing.T) {
	dir := t.TempDir()
	refused(t, dir, "no league database at league.db", "ratings", "plot", "-o", "elo.svg")
	db, err := store.Open(context.Background(), filepath.Join(dir, "league.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	refused(t, dir, "the league has no ratings yet", "ratings", "plot", "-o", "elo.svg")

	// Two rounds, then an imported net, then a third round: the imported
	// net is the best and checkpoint-6 the latest.
	unbeatable, err := filepath.Abs(filepath.Join("testdata", "unbeatable.bin"))
	if err != nil {
		t.Fatal(err)
	}
	league := []string{"league", "run", "--games-per-round", "300", "--seed", "1"}
	ok(t, dir, append(league, "--rounds", "2")...)
	ok(t, dir, "import", "--name", "unbeatable", unbeatable)
	ok(t, dir, append(league, "--rounds", "1")...)

	before := snapshot(t, dir)
	refused(t, dir, "say where the plot goes: -o FILE.svg or -o FILE.png", "ratings", "plot")
	refused(t, dir, "must end in .svg or .png", "ratings", "plot", "-o", "elo.pdf")
	refused(t, dir, "--top must not be negative", "ratings", "plot", "--top", "-1", "-o", "elo.svg")
	refused(t, dir, "cannot write", "ratings", "plot", "-o", filepath.Join("no", "such", "dir", "elo.svg"))
	if after := snapshot(t, dir); after != before {
		t.Errorf("refused plots changed the directory:\nbefore %s\nafter  %s", before, after)
	}

	// --top 5: all four networks and random; never perfect.
	if got, want := ok(t, dir, "ratings", "plot", "-o", "elo.svg"), "Elo of 5 agents over 3 rounds drawn in elo.svg\n"; got != want {
		t.Errorf("ratings plot said %q, want %q", got, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, "elo.svg"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := parseSVG(data)
	if err != nil {
		t.Fatalf("elo.svg: %v", err)
	}
	for _, want := range []string{"Elo by round: league.db", "round", "Elo (random = 0), 95% bands"} {
		if !slices.Contains(doc.texts, want) {
			t.Errorf("no title %q among the texts %q", want, doc.texts)
		}
	}
	// The legend's entries are the texts that end with an Elo in brackets.
	var legend []string
	for _, text := range doc.texts {
		if name, _, ok := strings.Cut(text, " ("); ok && strings.HasSuffix(text, ")") {
			legend = append(legend, strings.TrimSuffix(name, ", latest"))
		}
	}
	slices.Sort(legend)
	if got, want := strings.Join(legend, " "), "checkpoint-3 checkpoint-4 checkpoint-6 random unbeatable"; got != want {
		t.Errorf("legend entries %q, want %q", got, want)
	}
	// Each series is drawn in its own colour as 2-point lines (in the
	// plot and in the legend) over a translucent band.
	lines := map[string]bool{}
	bands := 0
	for _, style := range doc.styles {
		if _, stroke, ok := strings.Cut(style, "stroke:"); ok && strings.Contains(style+";", "stroke-width:2;") {
			lines[stroke[:7]] = true
		}
		if strings.Contains(style, "fill-opacity:") {
			bands++
		}
	}
	want := map[string]bool{hexColor(commands.RandomColor): true}
	for _, c := range commands.SeriesColors[:4] {
		want[hexColor(c)] = true
	}
	if !maps.Equal(lines, want) {
		t.Errorf("SVG lines in colours %v, want %v", slices.Sorted(maps.Keys(lines)), slices.Sorted(maps.Keys(want)))
	}
	if bands != 5 {
		t.Errorf("SVG has %d bands, want one for each of 5 series", bands)
	}

	// --top 1: the best network, the latest one and random.
	ok(t, dir, "ratings", "plot", "--top", "1", "-o", "elo.png")
	f, err := os.Open(filepath.Join(dir, "elo.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("elo.png: %v", err)
	}
	if got := img.Bounds().Size(); got.X != 960 || got.Y != 576 {
		t.Errorf("elo.png is %v pixels, want 960x576", got)
	}
	seen := map[string]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			seen[hexColor(img.At(x, y))] = true
		}
	}
	for i, c := range append(slices.Clone(commands.SeriesColors), commands.RandomColor) {
		want := i < 2 || c == commands.RandomColor
		if got := seen[hexColor(c)]; got != want {
			t.Errorf("series colour %d (%s) in elo.png: %v, want %v", i, hexColor(c), got, want)
		}
	}
}
