package commands

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"ttt/agents"
	"ttt/agents/game"
	"ttt/agents/verify"
	"ttt/league"
)

// leagueCurve is the learning curve of one method of one league file, as
// a plot of several leagues draws it: each snapshot's first rating, and
// its share of optimal moves where the game measures one, by the games
// its learner had trained.
type leagueCurve struct {
	label   string
	elo     plotter.XYs
	optimal plotter.XYs
}

// runPlotLeagues draws the learning curves of the league files files,
// which must play one game and be on its scale, on one chart into out, as
// format: a curve for each league (for each method of a league of several
// learners), by the games its learner had trained, so that leagues of
// other round lengths, run on busier or quieter machines, line up; with
// the game's anchored built-in players dashed at their values, which are
// the same in every league of the game. A game measured on a position
// set gets a panel of optimal moves below.
func runPlotLeagues(j *job, files []string, out, format string) error {
	var curves []leagueCurve
	var g game.Game // the first league's
	for _, file := range files {
		fj := *j
		fj.db = file
		read, err := fj.leagueCurves(len(files), files[0], &g)
		if err != nil {
			return err
		}
		curves = append(curves, read...)
	}
	img, err := leaguesPlot(curves, agents.KitFor(g), "ttt ratings plot: "+strings.Join(files, ", "), format)
	if err != nil {
		return fmt.Errorf("cannot draw the plot: %w", err)
	}
	replaced, err := j.writeOutput(out, img)
	if err != nil {
		return err
	}
	fmt.Fprintf(j.Stdout, "the learning curves of %d leagues drawn in %s%s\n", len(files), out, replaced)
	return nil
}

// leagueCurves reads the learning curves of the job's league, a curve per
// method, each labelled with the file as the user named it. The league
// must play the game of the first league, first, which g holds (nil
// while the job's league is the first, which sets it).
func (j *job) leagueCurves(files int, first string, g *game.Game) ([]leagueCurve, error) {
	db, err := j.openLeague(false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if *g == nil {
		*g = db.Game()
	}
	if db.Game() != *g {
		return nil, j.usage("%s plays %s, %s %s: the ratings of two games are on two scales, which cannot share a chart", first, (*g).Title(), j.db, db.Game().Title())
	}
	on, err := league.OnScale(j.ctx, db)
	if err != nil {
		return nil, err
	}
	if !on {
		return nil, fmt.Errorf("%s: its ratings are on the scale of an older ttt, random at 0 alone: ttt upgrade --db %[1]s moves them to the %s scale, which the chart draws", j.db, db.Game().Title())
	}
	curve, _, err := db.Curve(j.ctx, maxPoints/files)
	if err != nil {
		return nil, err
	}
	if len(curve) == 0 {
		return nil, fmt.Errorf("%s: the league has no snapshot rated yet", j.db)
	}
	ids := make([]int64, len(curve))
	for k, p := range curve {
		ids[k] = p.Agent
	}
	shares, err := db.Shares(j.ctx, ids)
	if err != nil {
		return nil, err
	}
	methods := map[string]int{}
	var out []leagueCurve
	for _, p := range curve {
		k, ok := methods[p.Method]
		if !ok {
			k, methods[p.Method] = len(out), len(out)
			out = append(out, leagueCurve{label: j.db + " " + p.Method})
		}
		x := float64(p.TrainGames) / 1e6
		out[k].elo = append(out[k].elo, plotter.XY{X: x, Y: p.Elo})
		if s, ok := shares[p.Agent]; ok {
			out[k].optimal = append(out[k].optimal, plotter.XY{X: x, Y: 100 * s.Tactical.Share()})
		}
	}
	if len(out) == 1 {
		out[0].label = j.db
	}
	return out, nil
}

// leaguesPlot draws curves, the Elo panel above and, where kit measures
// its players on a position set, the panel of optimal moves below, each
// with its legend beside it: the anchored built-in players dashed in the
// first, the checked ones' shares and a random player's expected one in
// the second.
func leaguesPlot(curves []leagueCurve, kit *agents.Kit, title, format string) ([]byte, error) {
	eloPanel, eloKey := newPanel(fmt.Sprintf("Each league's snapshots when made, on the %s scale", kit.Title()))
	eloPanel.Y.Label.Text = "Elo (" + kit.Title() + " scale)"
	optPanel, optKey := newPanel("Optimal moves on the position set: each league's snapshots")
	optPanel.Y.Label.Text = "optimal moves (%)"
	for _, p := range []*plot.Plot{eloPanel, optPanel} {
		p.X.Label.Text = "training games of the learner (millions)"
		p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick { return niceTicks(min, max, false) })
	}
	var eloLines, optLines []plot.Plotter
	first, last := math.Inf(1), math.Inf(-1)
	for k, c := range curves {
		colour := leagueColors[k%len(leagueColors)]
		for _, l := range []struct {
			xy    plotter.XYs
			key   *plot.Legend
			lines *[]plot.Plotter
		}{{c.elo, &eloKey, &eloLines}, {c.optimal, &optKey, &optLines}} {
			if len(l.xy) == 0 {
				continue
			}
			line, err := plotter.NewLine(l.xy)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.label, err)
			}
			line.Color, line.Width = colour, vg.Points(1.5)
			l.key.Add(c.label, line)
			*l.lines = append(*l.lines, line)
			first, last = min(first, l.xy[0].X), max(last, l.xy[len(l.xy)-1].X)
		}
	}
	// The references, flat over the games drawn: the scale's fixed
	// points, which are the same in every league of the game, the
	// strongest first; the checked players' shares and a random player's.
	var refs []*plotter.Line
	dashed := func(key *plot.Legend, lines *[]plot.Plotter, label string, y float64) error {
		ref, err := plotter.NewLine(plotter.XYs{{X: first, Y: y}, {X: last, Y: y}})
		if err != nil {
			return err
		}
		ref.Color, ref.Width = referenceColor, vg.Points(1)
		ref.Dashes = referenceDash(len(refs))
		key.Add(label, ref)
		*lines = append(*lines, ref)
		refs = append(refs, ref)
		return nil
	}
	builtins := slices.Clone(kit.Builtins)
	slices.SortStableFunc(builtins, func(a, b agents.Builtin) int { return cmp.Compare(b.Elo, a.Elo) })
	for _, b := range builtins {
		if err := dashed(&eloKey, &eloLines, fmt.Sprintf("%s (%.0f)", b.Name, b.Elo), b.Elo); err != nil {
			return nil, err
		}
	}
	// fitAxes leaves half a round at the right; here a fiftieth of the
	// games drawn.
	fit := func(p *plot.Plot, lines []plot.Plotter) {
		fitAxes(p, lines, roundX.half)
		p.X.Max = max(p.X.Min+1, last+(last-first)/50)
		acrossPanel(p, refs)
	}
	eloPanel.Add(eloLines...)
	fit(eloPanel, eloLines)
	panels, keys := [][]*plot.Plot{{eloPanel}}, []*plot.Legend{&eloKey}
	if kit.Positions != nil && len(optLines) > 0 {
		for _, b := range kit.Builtins {
			if b.Checked {
				s := kit.Check(b.New(nil)).Shares.All.Share()
				if err := dashed(&optKey, &optLines, fmt.Sprintf("%s (%.1f%%)", b.Name, 100*s), 100*s); err != nil {
					return nil, err
				}
			}
		}
		floor, _ := verify.RandomShare(kit.Positions())
		if err := dashed(&optKey, &optLines, fmt.Sprintf("random, expected (%.1f%%)", 100*floor), 100*floor); err != nil {
			return nil, err
		}
		optPanel.Add(optLines...)
		fit(optPanel, optLines)
		panels, keys = append(panels, []*plot.Plot{optPanel}), append(keys, &optKey)
	}
	return drawPanels(panels, keys, title, format)
}

// leagueColors are the colours of the curves of a plot of several
// leagues: the agents' palette, which readers with colour-blindness can
// tell apart, then the learning curves' black, indigo, wine and olive.
var leagueColors = append(slices.Clone(seriesColors), curveColor, curveColors[1], curveColors[2], curveColors[3])
