package commands

import (
	"bytes"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// drawPanels draws panels one above the other under a title, each with
// its legend of keys beside it, as an image in format (svg or png).
func drawPanels(panels [][]*plot.Plot, keys []*plot.Legend, text, format string) ([]byte, error) {
	// One or two panels fill the plot's height; a third adds a third.
	height := plotHeight
	if len(panels) > 2 {
		height = plotHeight * vg.Length(len(panels)+1) / 3
	}
	c, err := draw.NewFormattedCanvas(plotWidth, height, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	title := panels[0][0].Title.TextStyle
	title.Font.Size = vg.Points(14)
	title.XAlign, title.YAlign = draw.XCenter, draw.YTop
	dc.FillText(title, vg.Point{X: dc.Center().X, Y: dc.Max.Y - vg.Points(4)}, text)
	top := -(title.Rectangle(text).Size().Y + vg.Points(10))
	body := draw.Crop(dc, vg.Points(4), -legendWidth, vg.Points(4), top)
	column := draw.Crop(dc, plotWidth-legendWidth+vg.Points(12), 0, vg.Points(4), top)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadY: vg.Points(14)}
	for i, row := range plot.Align(panels, tiles, body) {
		panels[i][0].Draw(row[0])
		// Each legend beside its panel, level with the top of its data,
		// in a font small enough to fit the column and the panel.
		data := panels[i][0].DataCanvas(row[0])
		key := column
		key.Min.Y, key.Max.Y = data.Min.Y, data.Max.Y
		fitLegend(keys[i], key.Size().X, data.Max.Y-row[0].Min.Y)
		keys[i].Draw(key)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// fitLegend makes key's font smaller, down to 6 points, until its
// entries fit width and height: the column of legends, and the panel
// beside it.
func fitLegend(key *plot.Legend, width, height vg.Length) {
	for key.TextStyle.Font.Size > vg.Points(6) {
		size := key.Rectangle(draw.Canvas{}).Size()
		if size.X <= width && size.Y <= height {
			return
		}
		key.TextStyle.Font.Size -= vg.Points(0.5)
	}
}

// optimalPanel draws the curve of optimal moves and the best's, with
// its references dashed, on a scale from 0 to 100%, by x.
func optimalPanel(o *optimalCurve, x *plotX) (*plot.Plot, *plot.Legend, error) {
	panel, key := newPanel("Optimal moves on the position sets: each round's snapshot, and the best at each round")
	x.axis(panel)
	panel.Y.Label.Text = "optimal moves (%)"
	var lines []plot.Plotter
	first, last := math.Inf(1), math.Inf(-1)
	bests := 0
	for k, l := range o.lines {
		line, err := plotter.NewLine(l.points)
		if err != nil {
			return nil, nil, err
		}
		line.Color, line.Width = curveColors[k%len(curveColors)], vg.Points(1.5)
		shown := l.points
		if l.best {
			// The best's in the best network's colours, its newest
			// shares marked.
			line.Color, line.Width = seriesColors[3*bests], vg.Points(2)
			bests++
			shown = l.points[len(l.points)-1:]
		}
		thumbs := []plot.Thumbnailer{line}
		lines = append(lines, line)
		if len(shown) <= fewPoints {
			points, err := plotter.NewScatter(shown)
			if err != nil {
				return nil, nil, err
			}
			points.Color, points.Radius, points.Shape = line.Color, vg.Points(2.5), draw.CircleGlyph{}
			thumbs = append(thumbs, points)
			lines = append(lines, points)
		}
		key.Add(l.label, thumbs...)
		first, last = min(first, l.points[0].X), max(last, l.points[len(l.points)-1].X)
	}
	var refs []*plotter.Line
	for _, r := range o.refs {
		ref, err := plotter.NewLine(plotter.XYs{{X: first, Y: r.value}, {X: last, Y: r.value}})
		if err != nil {
			return nil, nil, err
		}
		ref.Color, ref.Width = referenceColor, vg.Points(1.5)
		ref.Dashes = referenceDash(len(refs))
		key.Add(r.label, ref)
		lines = append(lines, ref)
		refs = append(refs, ref)
	}
	panel.Add(lines...)
	fitAxes(panel, lines, x.half)
	acrossPanel(panel, refs)
	// A share is within 0 and 100%, and so is its axis.
	panel.Y.Min, panel.Y.Max = max(0, panel.Y.Min), min(100, panel.Y.Max)
	return panel, &key, nil
}

// acrossPanel draws the flat lines refs across the whole width of p,
// from the first round drawn to the last: a league of one round has
// them as well.
func acrossPanel(p *plot.Plot, refs []*plotter.Line) {
	for _, r := range refs {
		y := r.XYs[0].Y
		r.XYs = plotter.XYs{{X: p.X.Min, Y: y}, {X: p.X.Max, Y: y}}
	}
}

// newPanel returns a panel of the plot with its title, a grid and
// ticks that fall on round numbers, and its legend, to be drawn beside it.
func newPanel(title string) (*plot.Plot, plot.Legend) {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.Title.Padding = vg.Points(6)
	roundX.axis(p)
	p.Y.Label.Text = "Elo (random = 0)"
	p.Y.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick { return niceTicks(min, max, false) })
	p.Add(plotter.NewGrid())
	key := plot.NewLegend()
	key.Top, key.Left = true, true
	key.TextStyle.Font.Size = vg.Points(10)
	key.ThumbnailWidth = vg.Points(24)
	return p, key
}

// fitAxes sets p's axes to the data of lines with a margin: a twentieth
// of the span above and below, so that no line runs along the frame, and
// a fiftieth at the right, at least half (the x axis's half), so that the
// glyphs at the newest ratings are whole. A flat line gets a span of two
// Elo, a single round half either side of it, however wide its band, so
// that the panels of one round span the same x.
func fitAxes(p *plot.Plot, lines []plot.Plotter, half float64) {
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		if r, ok := l.(plot.DataRanger); ok {
			a, b, c, d := r.DataRange()
			x0, x1, y0, y1 = min(x0, a), max(x1, b), min(y0, c), max(y1, d)
		}
	}
	if y1-y0 < 2 {
		mid := (y0 + y1) / 2
		y0, y1 = mid-1, mid+1
	}
	if x1-x0 < 2*half {
		mid := (x0 + x1) / 2
		p.X.Min, p.X.Max = mid-half, mid+half
	} else {
		p.X.Min, p.X.Max = x0, x1+max((x1-x0)/50, half)
	}
	p.Y.Min, p.Y.Max = y0-(y1-y0)/20, y1+(y1-y0)/20
}

// niceTicks marks an axis from lo to hi at round numbers: labels every
// step of 1, 2 or 5 times a power of ten, six to twelve of them, and a
// minor tick or four between; whole numbers only for rounds.
func niceTicks(lo, hi float64, whole bool) []plot.Tick {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/6)))
	minor := step / 2
	switch span := (hi - lo) / step; {
	case span > 30:
		step, minor = 5*step, step
	case span > 12:
		step, minor = 2*step, step
	}
	if whole && step < 1 {
		step, minor = 1, 1
	}
	if whole {
		minor = max(minor, 1)
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo / minor); k*minor <= hi; k++ {
		v := k * minor
		if math.Abs(v) < minor/2 {
			v = 0 // not -0, which a label would print
		}
		t := plot.Tick{Value: v}
		if r := math.Mod(math.Abs(v), step); r < minor/2 || step-r < minor/2 {
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
