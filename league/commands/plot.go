package commands

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"ttt/store"
)

// ratingsPlotCommand is `ttt ratings plot`.
func ratingsPlotCommand() *cli.Command {
	return &cli.Command{
		Name:  "plot",
		Usage: "draw the league's learning curve and the best agents' Elo by round, as SVG or PNG",
		UsageText: `ttt ratings plot [options]

   ttt ratings plot -o elo.svg
   ttt ratings plot --top 5 -o elo.png

   The main line is the league's learning curve: each round's snapshot at
   the rating its first games gave it, over the band of its 95% interval.
   Dashed lines mark perfect (its rating now) and random (0, the anchor);
   the --top best networks (3) follow their ratings from the round that
   first rated them. A league of many rounds is drawn from every k-th
   round. The extension of -o chooses the format.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE`, .svg or .png"},
			&cli.IntFlag{Name: "top", Value: 3, Usage: "follow the `N` best networks"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			if err := checkArgs(c); err != nil {
				return err
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
			series, rounds, err := plotSeries(c, c.Int("top"))
			if err != nil {
				return err
			}
			p, err := eloPlot(series, c.String(dbFlagName))
			if err != nil {
				return err
			}
			file, err := createOutput(out, c.String(dbFlagName))
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
			fmt.Fprintf(c.App.Writer, "the learning curve of %d rounds and %d agents drawn in %s%s\n", rounds, len(series)-1, out, file.replaced())
			return nil
		},
	}
}

// The plot's size: 960 x 576 pixels as PNG.
const (
	plotWidth  = 10 * vg.Inch
	plotHeight = 6 * vg.Inch
)

// maxPoints bounds the points of a line: more than the plot's width in
// pixels draws nothing more, and a night's curve has 100,000.
const maxPoints = 2000

// seriesKind is what a line of the plot shows.
type seriesKind int

const (
	curveKind     seriesKind = iota // the league's learning curve
	agentKind                       // one agent's rating by round
	referenceKind                   // perfect or random, flat
)

// eloSeries is one line of the plot: its label, what it shows, and its
// ratings by round.
type eloSeries struct {
	label   string
	kind    seriesKind
	ratings []store.Rating
}

// plotSeries reads the lines to plot: the learning curve, the top best
// networks' histories (the best rule's order), perfect and random; and
// the number of rounds.
func plotSeries(c *cli.Context, top int) ([]eloSeries, int64, error) {
	db, err := openLeague(c, false)
	if err != nil {
		return nil, 0, err
	}
	defer db.Close()
	curve, last, err := db.Curve(c.Context, maxPoints)
	if err != nil {
		return nil, 0, err
	}
	if last == 0 {
		return nil, 0, fmt.Errorf("the league has played no round yet: run ttt league run first")
	}
	if len(curve) == 0 {
		return nil, 0, fmt.Errorf("the league has no snapshot rated yet")
	}
	first := curve[0].Round
	series := []eloSeries{{label: "each snapshot when made", kind: curveKind, ratings: curve}}

	// The best networks, from the round that first rated each.
	best, err := db.Best(c.Context, top)
	if err != nil {
		return nil, 0, err
	}
	for _, a := range best {
		history, err := db.History(c.Context, a.ID)
		if err != nil {
			return nil, 0, err
		}
		// The last row holds until the last round.
		end := history[len(history)-1]
		end.Round = last
		history = append(history, end)
		series = append(series, thin(eloSeries{label: fmt.Sprintf("%s, %s (%.0f)", a.Name, a.Class, a.Standing.Elo), kind: agentKind, ratings: history}))
	}

	// Perfect and random, flat over the rounds drawn.
	for _, name := range []string{string(store.Perfect), string(store.Random)} {
		a, err := db.Agent(c.Context, name)
		if err != nil {
			return nil, 0, err
		}
		if s := a.Standing; s != nil {
			flat := []store.Rating{s.Rating, s.Rating}
			flat[0].Round, flat[1].Round = first, last
			label := fmt.Sprintf("%s (%.0f)", name, s.Elo)
			if name == string(store.Random) {
				label = "random (the anchor, 0)"
			}
			series = append(series, eloSeries{label: label, kind: referenceKind, ratings: flat})
		}
	}
	return series, last, nil
}

// thin keeps at most maxPoints of s's ratings, evenly spread, the first
// and the last among them.
func thin(s eloSeries) eloSeries {
	n := len(s.ratings)
	if n <= maxPoints {
		return s
	}
	kept := make([]store.Rating, 0, maxPoints)
	for i := range maxPoints {
		kept = append(kept, s.ratings[i*(n-1)/(maxPoints-1)])
	}
	s.ratings = kept
	return s
}

// seriesColors are the agents' colours: the Okabe-Ito palette, which
// readers with colour-blindness can tell apart, without its yellow, which
// is faint on white. The learning curve is black, the references grey.
var seriesColors = []color.Color{
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{204, 121, 167, 255}, // reddish purple
}

// The colours of the learning curve and of the reference lines.
var (
	curveColor     = color.RGBA{30, 30, 30, 255}
	referenceColor = color.RGBA{110, 110, 110, 255}
)

// eloPlot draws series: the learning curve over the band of its 95%
// intervals, the agents' lines over it, the reference lines dashed.
func eloPlot(series []eloSeries, dbName string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "The league's learning curve: " + dbName
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "round"
	p.X.Tick.Marker = plot.TickerFunc(wholeTicks)
	p.Y.Label.Text = "Elo (random = 0), 95% band"
	p.Y.Tick.Marker = plot.TickerFunc(wholeTicks)
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	lo, hi := math.Inf(1), math.Inf(-1)
	var lines []plot.Plotter
	agents := 0
	for _, s := range series {
		xy := make(plotter.XYs, len(s.ratings))
		for k, r := range s.ratings {
			xy[k] = plotter.XY{X: float64(r.Round), Y: r.Elo}
			lo, hi = min(lo, r.Elo), max(hi, r.Elo)
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.label, err)
		}
		switch s.kind {
		case curveKind:
			// The band first, under every line.
			band := make(plotter.XYs, 0, 2*len(s.ratings))
			for _, r := range s.ratings {
				band = append(band, plotter.XY{X: float64(r.Round), Y: r.Hi})
			}
			for k := len(s.ratings) - 1; k >= 0; k-- {
				band = append(band, plotter.XY{X: float64(s.ratings[k].Round), Y: s.ratings[k].Lo})
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.label, err)
			}
			poly.Color = color.NRGBA{30, 30, 30, 0x28}
			poly.LineStyle.Width = 0
			p.Add(poly)
			line.Color, line.Width = curveColor, vg.Points(1.5)
			p.Legend.Add(s.label, line)
		case agentKind:
			col := seriesColors[agents%len(seriesColors)]
			agents++
			line.Color, line.Width = col, vg.Points(2)
			// A glyph at its newest rating tells the lines apart where
			// they meet.
			points, err := plotter.NewScatter(xy[len(xy)-1:])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.label, err)
			}
			points.Color, points.Shape, points.Radius = col, plotutil.Shape(agents), vg.Points(3.5)
			lines = append(lines, points)
			p.Legend.Add(s.label, line, points)
		case referenceKind:
			line.Color, line.Width = referenceColor, vg.Points(1.5)
			line.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
			p.Legend.Add(s.label, line)
		}
		lines = append(lines, line)
	}
	p.Add(lines...)
	// The legend sits in the top left corner, over the early rounds, where
	// the learning curve is still low; room above the highest line (a
	// third of the axis) keeps it off perfect's, which runs the whole
	// width.
	p.Y.Min = lo - (hi-lo)/20
	p.Y.Max = hi + (hi-lo)/3
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
