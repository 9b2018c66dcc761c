package commands

import (
	"cmp"
	"context"
	"fmt"
	"image/color"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"ttt/agents"
	"ttt/agents/verify"
	"ttt/league"
	"ttt/store"
)

// ratingsPlotCommand is `ttt ratings plot`.
func ratingsPlotCommand() *cli.Command {
	return &cli.Command{
		Name:  "plot",
		Usage: "draw the league's learning curve and the best agents' Elo by round, or several leagues' curves on one chart, as SVG or PNG",
		UsageText: `ttt ratings plot [options] [LEAGUE.db LEAGUE.db...]

   ttt ratings plot -o elo.svg
   ttt ratings plot --top 5 -o elo.png
   ttt ratings plot --x time -o night.png
   ttt ratings plot -o nights.svg monday.db tuesday.db

   Above, the league's learning curve: each round's snapshot at the
   rating its first games gave it, over the band of its 95% interval, and
   its ladder rating (from its games against the built-in players alone,
   the best's extra games among them), with dashed lines for the rated
   built-in players (each anchored at its
   value on the game's scale, random at 0). A league of several learners
   has a curve for each, named by its method, from the rounds that were
   its turn.
   Below, on a scale of their own, the --top best networks (3) from the
   round that first rated each. In Connect Four, a third panel: each
   snapshot's share of optimal moves on the position sets, and the
   best's at each round. A league of many rounds is drawn from every
   k-th round. The extension of -o chooses the format.

   --x puts each round at its number (round), at the time from the start
   of the league's first round to its commit (time: in minutes, in hours
   for a league of two hours or more), or at the games the league's
   learners had trained by then (games: in thousands, in millions from a
   million on).

   With two league files or more, of one game, their learning curves on
   one chart instead (a curve for each method of each), by the games
   each learner had trained, over the built-in players at their values:
   on the game's scale a rating means the same in every league, so two
   nights compare at a glance; and, in Connect Four, their shares of
   optimal moves below.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE`, .svg or .png"},
			&cli.IntFlag{Name: "top", Value: 3, Usage: "follow the `N` best networks"},
			&cli.StringFlag{Name: "x", Value: xRound, Usage: "what the x axis shows of each round: `round`, time (since the league's first round started, when the round was committed) or games (the league's training games by then)"},
			dbFlag(),
		},
		Action: func(c *cli.Context) error {
			leagues := c.Args().Slice()
			if len(leagues) == 1 {
				return usage(c.Command, "name two league files or more to draw them on one chart (one league: --db %s)", leagues[0])
			}
			out := c.String("output")
			format := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), ".")
			switch {
			case out == "":
				return usage(c.Command, "say where the plot goes: -o FILE.svg or -o FILE.png")
			case out == "-":
				return usage(c.Command, "-o -: the plot goes to a file, FILE.svg or FILE.png, not to standard output")
			case format != "svg" && format != "png":
				return usage(c.Command, "-o %s: the file must end in .svg or .png", out)
			}
			if c.Int("top") < 0 {
				return usage(c.Command, "--top must not be negative (got %d)", c.Int("top"))
			}
			if !slices.Contains(xAxes, c.String("x")) {
				return usage(c.Command, "--x %s: want one of %s", c.String("x"), strings.Join(xAxes, ", "))
			}
			if len(leagues) > 0 {
				if c.IsSet("top") || c.IsSet(dbFlagName) || c.IsSet("x") {
					return usage(c.Command, "--top, --x and --db go with one league: the chart of several leagues draws their learning curves by their learners' games")
				}
				return runPlotLeagues(jobOf(c), leagues, out, format)
			}
			return runPlot(jobOf(c), out, format, c.Int("top"), c.String("x"))
		},
	}
}

// runPlot draws the league's learning curve and its top best networks
// into out, as format (svg or png), by what x says of each round.
func runPlot(j *job, out, format string, top int, by string) error {
	series, optimal, rounds, x, err := j.plotSeries(top, by)
	if err != nil {
		return err
	}
	img, err := eloPlot(series, optimal, x, j.db, format)
	if err != nil {
		return fmt.Errorf("cannot draw the plot: %w", err)
	}
	replaced, err := j.writeOutput(out, img)
	if err != nil {
		return err
	}
	agents := 0
	for _, s := range series {
		if s.kind != curveKind {
			agents++
		}
	}
	by = map[string]string{xRound: "", xTime: " by time", xGames: " by games"}[by]
	fmt.Fprintf(j.Stdout, "the learning curve of %s and %s drawn%s in %s%s\n", plural(int(rounds), "round"), plural(agents, "agent"), by, out, replaced)
	return nil
}

// The plot's size, 960 x 576 pixels as PNG, and the width of the
// column of legends at its right.
const (
	plotWidth   = 10 * vg.Inch
	plotHeight  = 6 * vg.Inch
	legendWidth = 2.9 * vg.Inch
)

// fewPoints is the most rounds of a curve drawn with a glyph at each.
const fewPoints = 40

// referenceDashes are the dashes of a panel's reference lines, one
// pattern for each in turn, so that two anchored players (random and
// the tactician, the MCTS players) are told apart in print and in
// grey, not only by their height: long dashes, dots, dash-dot, and so on.
var referenceDashes = [][]vg.Length{
	{vg.Points(6), vg.Points(4)},
	{vg.Points(1.5), vg.Points(3)},
	{vg.Points(9), vg.Points(3), vg.Points(1.5), vg.Points(3)},
	{vg.Points(3), vg.Points(3)},
	{vg.Points(12), vg.Points(4)},
	{vg.Points(9), vg.Points(3), vg.Points(1.5), vg.Points(3), vg.Points(1.5), vg.Points(3)},
}

// referenceDash is the dashes of a panel's k-th reference line.
func referenceDash(k int) []vg.Length { return referenceDashes[k%len(referenceDashes)] }

// searchDashes are the dashes of the curves of the best searched, one
// for each search, so that two searches of equal ratings stay apart.
var searchDashes = [][]vg.Length{
	{vg.Points(8), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
	{vg.Points(4), vg.Points(4)},
}

// maxPoints bounds the points of a line: more than the plot's width in
// pixels draws nothing more, and a night's curve has 100,000.
const maxPoints = 2000

// seriesKind is what a line of the plot shows.
type seriesKind int

const (
	curveKind     seriesKind = iota // the league's learning curve, or a method's
	agentKind                       // one agent's rating by round
	referenceKind                   // perfect or random, flat
)

// eloSeries is one line of the plot: its label, what it shows, and its
// ratings by round.
type eloSeries struct {
	label   string
	kind    seriesKind
	search  bool // a curve of the best searched, dashed
	ratings []store.HistoryRow
}

// optimalCurve is the second learning curve of a game whose players are
// measured on a position set (Connect Four): each snapshot's share of
// optimal moves there, in percent, a line for each method as in the
// first, and flat, the built-in players' shares and a random player's
// expected one.
type optimalCurve struct {
	lines []optimalLine
	refs  []reference
}

// optimalLine is a line of the curve of optimal moves, and its label;
// best marks the lines of the best at each round.
type optimalLine struct {
	label  string
	points plotter.XYs
	best   bool
}

// reference is a flat line of a panel.
type reference struct {
	label string
	value float64
}

// plotSeries reads the lines to plot: the learning curve (one for each
// method of a league of several learners), the top best networks'
// histories (the best rule's order), the built-in players; the curve of
// optimal moves where the game has one, both at their x; the number of
// rounds; and the x axis that by names.
func (j *job) plotSeries(top int, by string) ([]eloSeries, *optimalCurve, int64, *plotX, error) {
	db, err := j.openLeague(false)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	defer db.Close()
	curve, last, err := db.Curve(j.ctx, maxPoints)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	if last == 0 {
		return nil, nil, 0, nil, fmt.Errorf("the league has played no round yet: run ttt league run first")
	}
	if len(curve) == 0 {
		return nil, nil, 0, nil, fmt.Errorf("the league has no snapshot rated yet")
	}
	x, err := j.xOf(db, by, curve)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	first := curve[0].Round
	methods := methodCurves(curve)
	var series []eloSeries
	for _, m := range methods {
		label := "each snapshot when made"
		if len(methods) > 1 {
			label = m.method // the panel's title says the rest
		}
		series = append(series, eloSeries{label: label, kind: curveKind, ratings: m.ratings})
	}

	// The best with each search it was rated with (league run
	// --search), at the round that made its network, as it is rated now.
	searched, err := db.Searched(j.ctx)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	bySearch := map[string][]store.HistoryRow{}
	for _, a := range searched {
		if st := a.Standing; st != nil {
			row := st.HistoryRow
			row.Round = int64(a.Generation)
			bySearch[a.Search] = append(bySearch[a.Search], row)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(bySearch)) {
		rows := bySearch[s]
		slices.SortStableFunc(rows, func(a, b store.HistoryRow) int { return cmp.Compare(a.Round, b.Round) })
		// The newest holds until the last round, as the best's own.
		if end := rows[len(rows)-1]; end.Round < last {
			end.Round = last
			rows = append(rows, end)
		}
		series = append(series, eloSeries{label: "the best @" + s + ", rated now", kind: curveKind, search: true, ratings: rows})
	}

	// The same snapshots on the ladder: each one's rating from its games
	// against the built-in players alone, which does not float with the
	// league's line.
	var ids []int64
	for _, p := range curve {
		ids = append(ids, p.Agent)
	}
	ladder, err := league.DBLadderRatings(j.ctx, db, ids)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	var onLadder []store.HistoryRow
	for _, p := range curve {
		if l, ok := ladder[p.Agent]; ok {
			onLadder = append(onLadder, store.HistoryRow{Agent: p.Agent, Round: p.Round, Elo: l.Elo, Lo: l.Lo, Hi: l.Hi, Games: l.Games})
		}
	}
	if len(onLadder) > 0 {
		series = append(series, eloSeries{label: "each on the ladder", kind: curveKind, ratings: onLadder})
	}

	// The best networks, from the round that first rated each.
	best, err := league.Best(j.ctx, db, top)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	for _, a := range best {
		history, err := db.History(j.ctx, a.ID)
		if err != nil {
			return nil, nil, 0, nil, err
		}
		if len(history) == 0 {
			return nil, nil, 0, nil, fmt.Errorf("%w: agent %d (%s) is rated and has no rating history", store.ErrCorrupt, a.ID, a.Name)
		}
		// The last row holds until the last round.
		end := history[len(history)-1]
		end.Round = last
		history = append(history, end)
		name := a.Name
		if len(methods) > 1 {
			name += " " + a.Method
		}
		series = append(series, thin(eloSeries{label: fmt.Sprintf("%s (%.1f), %s", name, a.Standing.Elo, a.Verdict()), kind: agentKind, ratings: history}))
	}

	// The built-in players that have played (random, perfect and the
	// MCTS ladder; random, the tactician, the MCTS ladder and the
	// solver), at their values on the game's scale, the last first, flat
	// over the rounds drawn.
	builtins, err := db.Builtins(j.ctx)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	for _, id := range slices.Backward(slices.Sorted(maps.Keys(builtins))) {
		name := builtins[id]
		a, err := db.Agent(j.ctx, name)
		if err != nil {
			return nil, nil, 0, nil, err
		}
		if s := a.Standing; s != nil {
			flat := []store.HistoryRow{s.HistoryRow, s.HistoryRow}
			flat[0].Round, flat[1].Round = first, last
			series = append(series, eloSeries{label: fmt.Sprintf("%s (%.0f)", name, s.Elo), kind: referenceKind, ratings: flat})
		}
	}
	optimal, err := optimalSeries(j.ctx, db, series[:len(methods)], x, last)
	return series, optimal, last, x, err
}

// methodCurve is the learning curve of one method: the ratings of its
// snapshots.
type methodCurve struct {
	method  string
	ratings []store.HistoryRow
}

// methodCurves splits curve by method, the methods in the order of their
// first rounds: the learners' order, a league's first round being its
// first learner's.
func methodCurves(curve []store.CurvePoint) []methodCurve {
	var out []methodCurve
	for _, p := range curve {
		k := slices.IndexFunc(out, func(m methodCurve) bool { return m.method == p.Method })
		if k < 0 {
			k, out = len(out), append(out, methodCurve{method: p.Method})
		}
		out[k].ratings = append(out[k].ratings, p.HistoryRow)
	}
	return out
}

// optimalSeries reads the curve of optimal moves of the snapshots of the
// learning curves, a line for each, for a game that measures its players
// on a position set; nil for another game.
func optimalSeries(ctx context.Context, db *store.DB, curves []eloSeries, x *plotX, last int64) (*optimalCurve, error) {
	kit := agents.KitFor(db.Game())
	if kit.Positions == nil {
		return nil, nil
	}
	var ids []int64
	for _, c := range curves {
		for _, r := range c.ratings {
			ids = append(ids, r.Agent)
		}
	}
	shares, err := db.Shares(ctx, ids)
	if err != nil {
		return nil, err
	}
	// Each curve on both sets, the random-ply set's (the harder) first;
	// a snapshot measured before that set has no point there.
	var out optimalCurve
	for _, c := range curves {
		random, tactical := optimalLine{label: c.label + ", random-ply set"}, optimalLine{label: c.label + ", tactical set"}
		for _, r := range c.ratings {
			s, ok := shares[r.Agent]
			if !ok {
				continue
			}
			if s.Random != nil {
				random.points = append(random.points, plotter.XY{X: x.at(r.Round), Y: 100 * s.Random.Share()})
			}
			tactical.points = append(tactical.points, plotter.XY{X: x.at(r.Round), Y: 100 * s.Tactical.Share()})
		}
		for _, line := range []optimalLine{random, tactical} {
			if len(line.points) > 0 {
				out.lines = append(out.lines, line)
			}
		}
	}
	best, err := bestShares(ctx, db, x, last)
	if err != nil {
		return nil, err
	}
	out.lines = append(out.lines, best...)
	for _, b := range kit.Builtins {
		if !b.Checked {
			continue
		}
		a, err := db.Agent(ctx, b.Name)
		if err != nil {
			return nil, err
		}
		if a.Random != nil {
			out.refs = append(out.refs, reference{fmt.Sprintf("%s, random-ply set (%.1f%%)", b.Name, 100*a.Random.Share()), 100 * a.Random.Share()})
		}
		if a.Shares != nil {
			out.refs = append(out.refs, reference{fmt.Sprintf("%s, tactical set (%.1f%%)", b.Name, 100*a.Shares.All.Share()), 100 * a.Shares.All.Share()})
		}
	}
	if kit.Random != nil {
		floor, _ := verify.RandomShare(kit.Random())
		out.refs = append(out.refs, reference{fmt.Sprintf("random, expected, random-ply set (%.1f%%)", 100*floor), 100 * floor})
	}
	floor, _ := verify.RandomShare(kit.Positions())
	out.refs = append(out.refs, reference{fmt.Sprintf("random, expected, tactical set (%.1f%%)", 100*floor), 100 * floor})
	return &out, nil
}

// bestShares are the lines of the best's shares on both sets at each
// round, to round last: the shares of the network that was the best at
// its end (league.BestHistory), which change where the best changes.
func bestShares(ctx context.Context, db *store.DB, x *plotX, last int64) ([]optimalLine, error) {
	h := league.NewBestHistory()
	if err := db.View(ctx, h.Update); err != nil {
		return nil, err
	}
	ids := make([]int64, len(h.Changes))
	for k, c := range h.Changes {
		ids[k] = c.Agent
	}
	shares, err := db.Shares(ctx, ids)
	if err != nil {
		return nil, err
	}
	random := optimalLine{label: "the best at each round, random-ply set", best: true}
	tactical := optimalLine{label: "the best at each round, tactical set", best: true}
	for k, c := range h.Changes {
		s, ok := shares[c.Agent]
		if !ok {
			continue
		}
		end := last
		if k+1 < len(h.Changes) {
			end = h.Changes[k+1].Round
		}
		span := plotter.XYs{{X: x.at(c.Round)}, {X: x.at(end)}}
		if s.Random != nil {
			span[0].Y, span[1].Y = 100*s.Random.Share(), 100*s.Random.Share()
			random.points = append(random.points, span...)
		}
		span[0].Y, span[1].Y = 100*s.Tactical.Share(), 100*s.Tactical.Share()
		tactical.points = append(tactical.points, span...)
	}
	var out []optimalLine
	for _, line := range []optimalLine{random, tactical} {
		if len(line.points) > 0 {
			out = append(out, line)
		}
	}
	return out, nil
}

// thin keeps at most maxPoints of s's ratings, evenly spread, the first
// and the last among them.
func thin(s eloSeries) eloSeries {
	n := len(s.ratings)
	if n <= maxPoints {
		return s
	}
	kept := make([]store.HistoryRow, 0, maxPoints)
	for i := range maxPoints {
		kept = append(kept, s.ratings[i*(n-1)/(maxPoints-1)])
	}
	s.ratings = kept
	return s
}

// bandOf is the polygon of a curve's 95% intervals, its rounds at their
// x: its highs left to right, then its lows back. A curve of one round
// gets a band half as wide as the plot, which a line of no width would
// not show.
func bandOf(rows []store.HistoryRow, x *plotX) plotter.XYs {
	if len(rows) == 1 {
		r := rows[0]
		at, w := x.at(r.Round), x.half/2
		return plotter.XYs{{X: at - w, Y: r.Hi}, {X: at + w, Y: r.Hi}, {X: at + w, Y: r.Lo}, {X: at - w, Y: r.Lo}}
	}
	band := make(plotter.XYs, 0, 2*len(rows))
	for _, r := range rows {
		band = append(band, plotter.XY{X: x.at(r.Round), Y: r.Hi})
	}
	for _, r := range slices.Backward(rows) {
		band = append(band, plotter.XY{X: x.at(r.Round), Y: r.Lo})
	}
	return band
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

// curveColors are the learning curves' colours, a method's each in a
// league of several learners: the one curve's black, then the indigo,
// wine and olive of Paul Tol's muted scheme, which readers with
// colour-blindness can tell apart, and apart from the agents' colours.
var curveColors = []color.RGBA{
	curveColor,
	{51, 34, 136, 255},  // indigo
	{136, 34, 85, 255},  // wine
	{153, 153, 51, 255}, // olive
}

// eloPlot draws series as an image in format (svg or png), in two
// panels one above the other, each with its legend beside it: the
// league, its learning curve over the band of its 95% intervals with the
// reference lines dashed, on a scale from random to perfect; and the best
// networks, on a scale of their own, which keeps apart checkpoints a few
// Elo from each other that the league's scale would draw as one line.
func eloPlot(series []eloSeries, optimal *optimalCurve, x *plotX, dbName, format string) ([]byte, error) {
	league, leagueKey := newPanel("The league: each round's snapshot when made")
	best, bestKey := newPanel("")
	x.axis(league)
	x.axis(best)
	var leagueLines, bestLines []plot.Plotter
	var curveBands []plot.Plotter // drawn under the lines
	var refs []*plotter.Line      // across the whole panel, once it is fitted
	curves, agents, searches := 0, 0, 0
	for _, s := range series {
		xy := make(plotter.XYs, len(s.ratings))
		for k, r := range s.ratings {
			xy[k] = plotter.XY{X: x.at(r.Round), Y: r.Elo}
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.label, err)
		}
		switch s.kind {
		case curveKind:
			c := curveColors[curves%len(curveColors)]
			curves++
			if s.search {
				// Each search of the best its own dashes, and no band:
				// the line says where the network stands searched.
				line.Dashes = searchDashes[searches%len(searchDashes)]
				searches++
			} else {
				// The band first, under every line.
				poly, err := plotter.NewPolygon(bandOf(s.ratings, x))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.label, err)
				}
				poly.Color = color.NRGBA{c.R, c.G, c.B, 0x28}
				poly.LineStyle.Width = 0
				league.Add(poly)
				curveBands = append(curveBands, poly)
			}
			line.Color, line.Width = c, vg.Points(1.5)
			thumbs := []plot.Thumbnailer{line}
			leagueLines = append(leagueLines, line)
			// A curve of few rounds shows each of them: a round alone
			// is no line at all.
			if len(xy) <= fewPoints {
				points, err := plotter.NewScatter(xy)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", s.label, err)
				}
				points.Color, points.Radius = c, vg.Points(2.5)
				points.Shape = draw.CircleGlyph{}
				thumbs = append(thumbs, points)
				leagueLines = append(leagueLines, points)
			}
			label := s.label
			if !s.search {
				label += ", 95% band"
			}
			leagueKey.Add(label, thumbs...)
		case referenceKind:
			line.Color, line.Width = referenceColor, vg.Points(1.5)
			line.Dashes = referenceDash(len(refs))
			leagueKey.Add(s.label, line)
			leagueLines = append(leagueLines, line)
			refs = append(refs, line)
		case agentKind:
			// Six colours, then the same with dashes; a glyph of its
			// own at each line's newest rating.
			line.Color, line.Width = seriesColors[agents%len(seriesColors)], vg.Points(2)
			if agents >= len(seriesColors) {
				line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			points, err := plotter.NewScatter(xy[len(xy)-1:])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.label, err)
			}
			agents++
			points.Color, points.Shape, points.Radius = line.Color, plotutil.Shape(agents), vg.Points(3.5)
			bestKey.Add(s.label, line, points)
			bestLines = append(bestLines, line, points)
		}
	}
	league.Add(leagueLines...)
	panels := [][]*plot.Plot{{league}}
	keys := []*plot.Legend{&leagueKey}
	if agents > 0 {
		best.Title.Text = fmt.Sprintf("The %s, from the round that first rated each", plural(agents, "best network"))
		if agents == 1 {
			best.Title.Text = "The best network, from the round that first rated it"
		}
		best.Add(bestLines...)
		panels, keys = append(panels, []*plot.Plot{best}), append(keys, &bestKey)
	}
	fitAxes(league, append(leagueLines, curveBands...), x.half)
	acrossPanel(league, refs)
	fitAxes(best, bestLines, x.half)
	if optimal != nil && len(optimal.lines) > 0 {
		panel, key, err := optimalPanel(optimal, x)
		if err != nil {
			return nil, err
		}
		panels, keys = append(panels, []*plot.Plot{panel}), append(keys, key)
	}

	return drawPanels(panels, keys, "ttt ratings plot: "+dbName, format)
}
