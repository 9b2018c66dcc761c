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
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ttt/agents"
	"ttt/league"
	"ttt/league/commands"
	"ttt/league/commands/clitest"
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

// legendEntry is a legend's entry for perfect, "perfect (389)", or for a
// network, "checkpoint-33 (239.7), perfect": its name, and its class
// after a comma.
var legendEntry = regexp.MustCompile(`^(\S+) \(-?[\d.]+\)(, (?:beatable|unbeatable|perfect))?$`)

// hexColor writes c as SVG styles do.
func hexColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, b>>8)
}

// TestRatingsPlot draws a league's learning curve as SVG and as PNG and
// checks that each holds the curve with its band, the top networks and
// the two reference lines, and nothing else.
func TestRatingsPlot(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.Refused(t, "no league database at league.db", "ratings", "plot", "-o", "elo.svg")
	db, err := store.Open(context.Background(), filepath.Join(p.Dir, "league.db"), func() store.Setup { return league.Setup(agents.TicTacToe) })
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	p.Refused(t, "the league has played no round yet", "ratings", "plot", "-o", "elo.svg")

	// Four rounds, then an imported net, which the fifth round rates.
	league := []string{"league", "run", "--games-per-round", "300", "--seed", "1"}
	p.OK(t, append(league, "--rounds", "4")...)
	p.OK(t, "import", "--name", "unbeatable", unbeatableFile)
	p.OK(t, append(league, "--rounds", "1")...)

	before := clitest.Snapshot(t, p.Dir)
	p.Usage(t, "say where the plot goes: -o FILE.svg or -o FILE.png", "ratings", "plot")
	p.Usage(t, "must end in .svg or .png", "ratings", "plot", "-o", "elo.pdf")
	p.Usage(t, "--top must not be negative", "ratings", "plot", "--top", "-1", "-o", "elo.svg")
	p.Usage(t, "--x rounds: want one of round, time, games", "ratings", "plot", "--x", "rounds", "-o", "elo.svg")
	p.Refused(t, "cannot write", "ratings", "plot", "-o", filepath.Join("no", "such", "dir", "elo.svg"))
	if after := clitest.Snapshot(t, p.Dir); after != before {
		t.Errorf("refused plots changed the directory:\nbefore %s\nafter  %s", before, after)
	}

	if got, want := p.OK(t, "ratings", "plot", "-o", "elo.svg"), "the learning curve of 5 rounds and 7 agents drawn in elo.svg\n"; got != want {
		t.Errorf("ratings plot said %q, want %q", got, want)
	}
	data := p.File(t, "elo.svg")
	doc, err := parseSVG(data)
	if err != nil {
		t.Fatalf("elo.svg: %v", err)
	}
	for _, want := range []string{"ttt ratings plot: league.db", "The league: each round's snapshot when made",
		"The 3 best networks, from the round that first rated each", "round", "Elo (random = 0)",
		"each snapshot when made, 95% band", "random (0)"} {
		if !slices.Contains(doc.texts, want) {
			t.Errorf("no text %q among the texts %q", want, doc.texts)
		}
	}
	// The other entries of the legends: perfect with its Elo, and the top
	// 3 networks with theirs and their class, the imported unbeatable one
	// first.
	var perfect, nets []string
	for _, text := range doc.texts {
		if m := legendEntry.FindStringSubmatch(text); m != nil && m[1] == "perfect" && m[2] == "" {
			perfect = append(perfect, text)
		} else if m != nil && m[2] != "" {
			nets = append(nets, m[1]+m[2])
		}
	}
	if len(perfect) != 1 || len(nets) != 3 || nets[0] != "unbeatable, unbeatable" {
		t.Errorf("legend entries: perfect %q, networks %q; want perfect, and three networks, the unbeatable one first", perfect, nets)
	}
	// Lines: the curve, three networks in their colours, the dashed
	// references; two translucent bands, the curve's and the same
	// snapshots' on the ladder.
	lines := map[string]bool{}
	bands := 0
	for _, style := range doc.styles {
		if _, stroke, ok := strings.Cut(style, "stroke:"); ok && strings.Contains(style, "stroke-width:") && !strings.Contains(style, "stroke-width:0") {
			lines[stroke[:7]] = true
		}
		if strings.Contains(style, "fill-opacity:") {
			bands++
		}
	}
	for _, c := range append(slices.Clone(commands.SeriesColors[:3]), commands.CurveColor, commands.ReferenceColor) {
		if !lines[hexColor(c)] {
			t.Errorf("no line in %s among %v", hexColor(c), slices.Sorted(maps.Keys(lines)))
		}
	}
	if lines[hexColor(commands.SeriesColors[3])] {
		t.Errorf("a fourth network is drawn, with --top 3")
	}
	if bands != 2 {
		t.Errorf("SVG has %d bands, want the learning curve's and its ladder's", bands)
	}

	// By time and by games: each panel's x axis says what it shows, with
	// labelled ticks, the same ones in each panel where the panels span
	// the same rounds.
	for x, label := range map[string]string{"time": "minutes since the league's first round started", "games": "training games of the league (thousands)"} {
		want := "the learning curve of 5 rounds and 7 agents drawn by " + x + " in " + x + ".svg\n"
		if got := p.OK(t, "ratings", "plot", "--x", x, "-o", x+".svg"); got != want {
			t.Errorf("ratings plot --x %s said %q, want %q", x, got, want)
		}
		doc, err := parseSVG(p.File(t, x+".svg"))
		if err != nil {
			t.Fatalf("%s.svg: %v", x, err)
		}
		axes, ticks := 0, 0
		for _, text := range doc.texts {
			if text == label {
				axes++
			}
			if v, err := strconv.ParseFloat(text, 64); err == nil && v >= 0 && v < 100 {
				ticks++
			}
			if text == "round" {
				t.Errorf("--x %s: an axis of rounds", x)
			}
		}
		if axes != 2 || ticks < 10 {
			t.Errorf("--x %s: %d axes read %q, %d ticks are labelled; want both panels' and some ticks each:\n%q", x, axes, label, ticks, doc.texts)
		}
	}

	// --top 1: the best network, the curve and the references.
	p.OK(t, "ratings", "plot", "--top", "1", "-o", "elo.png")
	img, err := png.Decode(bytes.NewReader(p.File(t, "elo.png")))
	if err != nil {
		t.Fatalf("elo.png: %v", err)
	}
	if got := img.Bounds().Size(); got.X != 960 || got.Y != 576 {
		t.Errorf("elo.png is %v pixels, want 960x576", got)
	}
	seen := map[color.RGBA64]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			seen[color.RGBA64Model.Convert(img.At(x, y)).(color.RGBA64)] = true
		}
	}
	for i, c := range commands.SeriesColors {
		if got, want := seen[color.RGBA64Model.Convert(c).(color.RGBA64)], i == 0; got != want {
			t.Errorf("series colour %d (%s) in elo.png: %v, want %v", i, hexColor(c), got, want)
		}
	}
}

// TestRatingsPlotLeagues draws two tic-tac-toe leagues on one chart: a
// learning curve for each, labelled by its file, by the games its learner
// trained, over the game's built-in players at their values, the same in
// both; and refuses one file, files of two games, and --top.
func TestRatingsPlotLeagues(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	for _, seed := range []string{"1", "2"} {
		p.OK(t, "league", "run", "--db", "s"+seed+".db", "--games-per-round", "300", "--seed", seed, "--rounds", "3")
	}
	if got, want := p.OK(t, "ratings", "plot", "-o", "two.svg", "s1.db", "s2.db"), "the learning curves of 2 leagues drawn in two.svg\n"; got != want {
		t.Errorf("ratings plot of two leagues said %q, want %q", got, want)
	}
	doc, err := parseSVG(p.File(t, "two.svg"))
	if err != nil {
		t.Fatalf("two.svg: %v", err)
	}
	want := []string{"ttt ratings plot: s1.db, s2.db", "Each league's snapshots when made, on the tic-tac-toe scale",
		"training games of the learner (millions)", "s1.db", "s2.db"}
	for _, b := range agents.TicTacToe.Builtins {
		want = append(want, fmt.Sprintf("%s (%.0f)", b.Name, b.Elo))
	}
	for _, w := range want {
		if !slices.Contains(doc.texts, w) {
			t.Errorf("no text %q among the texts %q", w, doc.texts)
		}
	}
	lines := map[string]bool{}
	for _, style := range doc.styles {
		if _, stroke, ok := strings.Cut(style, "stroke:"); ok && strings.Contains(style, "stroke-width:") && !strings.Contains(style, "stroke-width:0") {
			lines[stroke[:7]] = true
		}
	}
	for _, c := range commands.SeriesColors[:2] {
		if !lines[hexColor(c)] {
			t.Errorf("no curve in %s among %v", hexColor(c), slices.Sorted(maps.Keys(lines)))
		}
	}

	p.Usage(t, "name two league files or more to draw them on one chart (one league: --db s1.db)", "ratings", "plot", "-o", "one.svg", "s1.db")
	p.Usage(t, "--top, --x and --db go with one league", "ratings", "plot", "--top", "2", "-o", "x.svg", "s1.db", "s2.db")
	p.Usage(t, "--top, --x and --db go with one league", "ratings", "plot", "--x", "time", "-o", "x.svg", "s1.db", "s2.db")
	c4, err := store.Open(context.Background(), filepath.Join(p.Dir, "c4.db"), func() store.Setup { return league.Setup(agents.ConnectFour) })
	if err != nil {
		t.Fatal(err)
	}
	c4.Close()
	p.Usage(t, "s1.db plays tic-tac-toe, c4.db Connect Four: the ratings of two games are on two scales, which cannot share a chart",
		"ratings", "plot", "-o", "x.svg", "s1.db", "c4.db")
	for _, name := range []string{"one.svg", "x.svg"} {
		if _, err := os.Stat(filepath.Join(p.Dir, name)); err == nil {
			t.Errorf("a refused plot wrote %s", name)
		}
	}
}

// TestRatingsPlotOneRound draws the chart of a one-round Connect Four
// league, a user's first, by round, by time and by games: every panel
// shows its round (a glyph, where a line of one point is nothing), the
// best's shares too, the anchored built-in players run across the panel,
// no tick reads -0, and the shares' axis stays within 0 and 100%. Its CSV files write no float's last bits as digits.
func TestRatingsPlotOneRound(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	// No opening but the empty board, and no extra ladder games: the
	// plot's point is the round's figures, not the evaluation's breadth.
	p.OK(t, "league", "run", "--game", "connect4", "--rounds", "1", "--games-per-round", "2000", "--openings", "0", "--ladder-interval", "200")
	// Eleven significant digits in a row: a leading zero is none (a
	// round of 0.0267 cores writes 0.02670891575, ten significant digits).
	noise := regexp.MustCompile(`[1-9]\d{10,}`)
	for _, args := range [][]string{{"ratings", "--format", "csv"}, {"rounds", "--format", "csv"}} {
		out := p.OK(t, args...)
		if m := noise.FindString(out); m != "" {
			t.Errorf("%s writes %s: more digits than a figure has\n%s", strings.Join(args, " "), m, out)
		}
		if !strings.Contains(out, "tactical_pct") {
			t.Errorf("%s has no tactical_pct, the tactical set's share, as every listing names it:\n%s", strings.Join(args, " "), out)
		}
	}
	for _, x := range []string{"round", "time", "games"} {
		if out := p.OK(t, "ratings", "plot", "--x", x, "-o", "one.svg"); !strings.HasPrefix(out, "the learning curve of 1 round and ") {
			t.Errorf("--x %s says %q", x, out)
		}
		data := p.File(t, "one.svg")
		doc, err := parseSVG(data)
		if err != nil {
			t.Fatalf("one.svg: %v", err)
		}
		// The panels' ticks, in runs of numbers: each panel's x axis, then
		// its y axis. The round is at the same x in every panel, which
		// spans the same range: its x ticks are the same.
		var runs [][]string
		number := false
		for _, text := range doc.texts {
			_, err := strconv.ParseFloat(text, 64)
			if err == nil && !number {
				runs = append(runs, nil)
			}
			if number = err == nil; number {
				runs[len(runs)-1] = append(runs[len(runs)-1], text)
			}
		}
		if len(runs) != 6 || !slices.Equal(runs[0], runs[2]) || !slices.Equal(runs[0], runs[4]) {
			t.Errorf("--x %s: the panels' ticks are %q; want the same x ticks in the three panels", x, runs)
		}
		if !slices.Contains(doc.texts, "the best at each round, random-ply set") || !slices.Contains(doc.texts, "the best at each round, tactical set") {
			t.Errorf("--x %s: no line of the best's shares among %q", x, doc.texts)
		}
		for _, text := range doc.texts {
			if strings.HasPrefix(strings.TrimSpace(text), "-0") {
				t.Errorf("--x %s: a tick reads %q", x, text)
			}
			if v, err := strconv.ParseFloat(text, 64); err == nil && v > 100 && v < 200 {
				t.Errorf("--x %s: an axis reads %q: no share is above 100%%, and no Elo of this league near it", x, text)
			}
		}
		// The references: a dashed line across the panel, not a dot at
		// round 1.
		refs := regexp.MustCompile(`<path d="M([\d.]+),([\d.]+)L([\d.]+),([\d.]+)" style="[^"]*stroke:`+hexColor(commands.ReferenceColor)+`[^"]*stroke-dasharray:([\d.,]+)`).FindAllSubmatch(data, -1)
		long := 0
		dashes := map[string]bool{}
		for _, m := range refs {
			x0, _ := strconv.ParseFloat(string(m[1]), 64)
			x1, _ := strconv.ParseFloat(string(m[3]), 64)
			if x1-x0 > 300 {
				long++
				dashes[string(m[5])] = true
			}
		}
		// Each reference of a panel is drawn in dashes of its own, told
		// apart in grey (and on paper) by more than its height.
		if len(dashes) < min(long, 4) {
			t.Errorf("--x %s: the %d reference lines are drawn in %d patterns of dashes (%v); want each its own", x, long, len(dashes), slices.Collect(maps.Keys(dashes)))
		}
		// random, the tactician and the MCTS players on the Elo panel, and
		// on the shares' panel the tactician's and random's shares.
		if long < 6 {
			t.Errorf("--x %s: %d reference lines run across a panel, want the anchors and the shares' references", x, long)
		}
		// A glyph for the round of each curve: the Elo curve, the shares of
		// its two sets, and the best's newest shares.
		if glyphs := bytes.Count(data, []byte("A2.5,2.5 ")) / 2; glyphs < 5 {
			t.Errorf("--x %s: %d glyphs drawn: a one-round curve shows nothing", x, glyphs)
		}
	}
}

// TestRatingsPlotSearches: the best rated with each search of league run
// --search is a line of its own, in dashes of its own, carried to the
// newest round as the league's curve is.
func TestRatingsPlotSearches(t *testing.T) {
	t.Parallel()
	p := clitest.New(t)
	p.OK(t, "league", "run", "--rounds", "3", "--games-per-round", "1000", "--search", "ab2,mcts20")
	p.OK(t, "ratings", "plot", "-o", "searched.svg")
	data := p.File(t, "searched.svg")
	doc, err := parseSVG(data)
	if err != nil {
		t.Fatalf("searched.svg: %v", err)
	}
	for _, label := range []string{"the best @ab2, rated now", "the best @mcts20, rated now"} {
		if !slices.Contains(doc.texts, label) {
			t.Errorf("no legend entry %q among %q", label, doc.texts)
		}
	}
	// Each line's rightmost x, by its stroke and dashes. The legend's
	// thumbnails are right of the panel, whose right edge is where the
	// references across it end.
	type line struct {
		key        string
		start, end float64
	}
	var lines []line
	right := math.Inf(1)
	for _, m := range regexp.MustCompile(`<path d="M([\d.]+),[\d.]+((?:L[\d.]+,[\d.]+)+)" style="[^"]*stroke:(#[0-9A-F]{6});stroke-width:1.5(;stroke-dasharray:[\d.,]+)?"`).FindAllSubmatch(data, -1) {
		points := strings.Split(string(m[2]), "L")
		l := line{key: string(m[3]) + string(m[4])}
		l.start, _ = strconv.ParseFloat(string(m[1]), 64)
		l.end, _ = strconv.ParseFloat(strings.Split(points[len(points)-1], ",")[0], 64)
		lines = append(lines, l)
		if string(m[3]) == hexColor(commands.ReferenceColor) {
			right = min(right, l.end)
		}
	}
	ends := map[string]float64{}
	for _, l := range lines {
		if l.start < right {
			ends[l.key] = max(ends[l.key], l.end)
		}
	}
	curve := ends[hexColor(commands.CurveColor)]
	dashes := map[string]bool{}
	for key, x := range ends {
		if color, dash, ok := strings.Cut(key, ";stroke-dasharray:"); ok && color != hexColor(commands.ReferenceColor) {
			dashes[dash] = true
			if x != curve {
				t.Errorf("the line %s ends at x %v, the league's curve at %v", key, x, curve)
			}
		}
	}
	if len(dashes) != 2 || curve == 0 {
		t.Errorf("the searches' lines have dashes %v, the curve ends at %v; want two searches in dashes of their own: %v", slices.Sorted(maps.Keys(dashes)), curve, ends)
	}
}
