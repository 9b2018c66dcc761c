package commands

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"ttt/store"
)

var ratingsPlot = &cli.Command{
	Name:  "plot",
	Usage: "draw Elo against round, with 95% bands, as SVG or PNG",
	UsageText: `ttt ratings plot [options]

   ttt ratings plot -o elo.svg
   ttt ratings plot --top 3 -o elo.png

   Plots the best checkpoints by their latest Elo, the latest checkpoint
   and random (the anchor at 0). The band around each line is the 95%
   interval. The extension of -o chooses the format.`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE`, .svg or .png"},
		&cli.IntFlag{Name: "top", Value: 5, Usage: "plot the `N` best checkpoints"},
		dbFlag,
	},
	Action: func(c *cli.Context) error {
		if c.NArg() > 0 {
			return fmt.Errorf("ratings plot takes no arguments (got %q); name the file with -o", c.Args().First())
		}
		out := c.String("output")
		format := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
		switch {
		case out == "":
			return fmt.Errorf("say where the plot goes: -o FILE.svg or -o FILE.png")
		case format != "svg" && format != "png":
			return fmt.Errorf("-o %s: the file must end in .svg or .png", out)
		}
		if c.Int("top") < 0 {
			return fmt.Errorf("--top must not be negative (got %d)", c.Int("top"))
		}
		series, err := plotSeries(c, c.Int("top"))
		if err != nil {
			return err
		}
		p, err := eloPlot(series, c.String(dbFlag.Name))
		if err != nil {
			return err
		}
		file, err := createPending(out)
		if err != nil {
			return err
		}
		defer file.abort()
		img, err := p.WriterTo(plotWidth, plotHeight, format)
		if err != nil {
			return fmt.Errorf("cannot draw the plot: %w", err)
		}
		var buf bytes.Buffer
		if _, err := img.WriteTo(&buf); err != nil {
			return fmt.Errorf("cannot draw the plot: %w", err)
		}
		if err := file.commit(buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "Elo of %d agents over %d rounds drawn in %s\n", len(series), lastRound(series), out)
		return nil
	},
}

// The plot's size: 960 x 576 pixels as PNG.
const (
	plotWidth  = 10 * vg.Inch
	plotHeight = 6 * vg.Inch
)

// eloSeries is one agent's line: its label and its rating after each
// round it was rated in.
type eloSeries struct {
	label   string
	random  bool
	ratings []store.Rating
}

// plotSeries reads the rating history of the agents to plot: the top
// checkpoints by latest Elo, best first, then the latest checkpoint if it
// is not among them, then random. Agents without a rating are left out.
func plotSeries(c *cli.Context, top int) ([]eloSeries, error) {
	db, err := openLeague(c, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	// A league may commit rounds between these reads. In this order, each
	// read sees at least what the one before it saw, so every agent
	// chosen from the first two has its ratings in the history.
	latest, err := db.Agent(c.Context, store.Latest)
	if err != nil && !errors.Is(err, store.ErrNoCheckpoints) {
		return nil, err
	}
	list, err := db.Agents(c.Context)
	if err != nil {
		return nil, err
	}
	history, err := db.History(c.Context, 0)
	if err != nil {
		return nil, err
	}
	if len(history) == 0 {
		return nil, fmt.Errorf("the league has no ratings yet: run ttt league run first")
	}

	var nets []*store.Agent
	var random *store.Agent
	for _, a := range list {
		switch {
		case a.Rating == nil:
		case a.Kind.IsNetwork():
			nets = append(nets, a)
		case a.Kind == store.Random:
			random = a
		}
	}
	// Best first, as in ttt ratings.
	slices.SortStableFunc(nets, func(a, b *store.Agent) int {
		return cmp.Or(cmp.Compare(b.Rating.Elo, a.Rating.Elo), cmp.Compare(a.ID, b.ID))
	})
	chosen := slices.Clone(nets[:min(top, len(nets))])
	if latest != nil && latest.Rating != nil && !slices.ContainsFunc(chosen, func(a *store.Agent) bool { return a.ID == latest.ID }) {
		chosen = append(chosen, latest)
	}
	if random != nil {
		chosen = append(chosen, random)
	}

	byAgent := make(map[int64][]store.Rating)
	for _, r := range history {
		byAgent[r.Agent] = append(byAgent[r.Agent], r)
	}
	var series []eloSeries
	for _, a := range chosen {
		ratings := byAgent[a.ID]
		elo := ratings[len(ratings)-1].Elo // the newest, as plotted
		label := fmt.Sprintf("%s (%.0f)", a.Name, elo)
		switch {
		case a.Kind == store.Random:
			label = fmt.Sprintf("%s (the anchor, 0)", a.Name)
		case latest != nil && a.ID == latest.ID:
			label = fmt.Sprintf("%s, latest (%.0f)", a.Name, elo)
		}
		series = append(series, eloSeries{label: label, random: a.Kind == store.Random, ratings: ratings})
	}
	// Random is 0 in every round: drawn over the checkpoints' rounds only,
	// it leaves them the width of the plot.
	if n := len(series) - 1; n > 0 && series[n].random {
		first := series[0].ratings[0].Round
		for _, s := range series[:n] {
			first = min(first, s.ratings[0].Round)
		}
		series[n].ratings = slices.DeleteFunc(series[n].ratings, func(r store.Rating) bool { return r.Round < first })
	}
	return series, nil
}

// lastRound is the newest round in series.
func lastRound(series []eloSeries) int64 {
	var last int64
	for _, s := range series {
		for _, r := range s.ratings {
			last = max(last, r.Round)
		}
	}
	return last
}

// seriesColors are the checkpoints' colours: the Okabe-Ito palette, which
// readers with colour-blindness can tell apart, without its yellow, which
// is faint on white. Random is grey and dashed.
var seriesColors = []color.Color{
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{204, 121, 167, 255}, // reddish purple
}

// randomColor is random's line.
var randomColor = color.RGBA{110, 110, 110, 255}

// seriesColor is the colour of the i-th series; past six, colours repeat
// and only the glyphs tell lines apart.
func seriesColor(s eloSeries, i int) color.Color {
	if s.random {
		return randomColor
	}
	return seriesColors[i%len(seriesColors)]
}

// eloPlot draws series: each agent's Elo by round as a line over a
// translucent band of its 95% interval.
func eloPlot(series []eloSeries, dbName string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Elo by round: " + dbName
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "round"
	p.X.Tick.Marker = plot.TickerFunc(wholeTicks)
	p.Y.Label.Text = "Elo (random = 0), 95% bands"
	p.Y.Tick.Marker = plot.TickerFunc(wholeTicks)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	// Every band first, then the lines over them in legend order: the
	// latest checkpoint, a single point at the right edge while it is
	// new, comes after the best and is drawn over them.
	lines := make([][]plot.Plotter, len(series))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range series {
		col := seriesColor(s, i)
		mid := make(plotter.XYs, len(s.ratings))
		band := make(plotter.XYs, 0, 2*len(s.ratings))
		for k, r := range s.ratings {
			mid[k] = plotter.XY{X: float64(r.Round), Y: r.Elo}
			band = append(band, plotter.XY{X: float64(r.Round), Y: r.Hi})
			lo, hi = min(lo, r.Lo), max(hi, r.Hi)
		}
		for k := len(s.ratings) - 1; k >= 0; k-- {
			band = append(band, plotter.XY{X: float64(s.ratings[k].Round), Y: s.ratings[k].Lo})
		}
		if len(s.ratings) == 1 {
			// An agent rated in one round, as the newest checkpoint always
			// is, gets a short band around its point.
			r := s.ratings[0]
			x := float64(r.Round)
			band = plotter.XYs{{X: x - 0.2, Y: r.Hi}, {X: x + 0.2, Y: r.Hi}, {X: x + 0.2, Y: r.Lo}, {X: x - 0.2, Y: r.Lo}}
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.label, err)
		}
		r, g, b, _ := col.RGBA()
		poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0x30}
		poly.LineStyle.Width = 0
		p.Add(poly)
		// A glyph marks the newest rating only: one per round would bury
		// a long league's lines, and an agent rated once is then a point.
		line, err := plotter.NewLine(mid)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.label, err)
		}
		points, err := plotter.NewScatter(mid[len(mid)-1:])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.label, err)
		}
		line.Color = col
		line.Width = vg.Points(2)
		points.Color = col
		points.Shape = plotutil.Shape(i)
		points.Radius = vg.Points(3.5)
		if s.random {
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
			points.Shape = draw.CrossGlyph{}
		}
		lines[i] = []plot.Plotter{line, points}
		p.Legend.Add(s.label, line, points)
	}
	for _, l := range lines {
		p.Add(l...)
	}
	// The legend sits in the top left corner, over the early rounds; room
	// above the highest band (a third of the axis) keeps it off the lines
	// of the strongest checkpoints, which are late and high.
	p.Y.Max = hi + (hi-lo)/2
	return p, nil
}

// wholeTicks are gonum's default ticks labelled as whole numbers: rounds
// are whole, Elo has no meaningful decimals, and gonum's labels may show
// two.
func wholeTicks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
	}
	return ticks
}
