package web

import (
	"fmt"
	"math"
	"strings"

	"github.com/klaverjas-arena/arena/arena/view"
)

// chart is the rating chart of a league page, laid out for its SVG template.
type chart struct {
	W, H   int
	Lines  []chartLine
	YTicks []tick
	XTicks []tick
}

type chartLine struct {
	Bot     string
	Colour  string
	Points  string // the polyline's "x,y x,y …"
	LegendY int
}

type tick struct {
	Pos   float64
	Label string
}

// palette is the lines' colours, one per bot in league order (repeating).
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"}

const (
	chartW, chartH         = 760, 300
	padL, padR, padT, padB = 50, 150, 10, 30
)

// newChart lays out each bot's rating after each history point; nil without two points
// with ratings.
func newChart(h []view.HistoryPoint, bots []string) *chart {
	var pts []view.HistoryPoint
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range h {
		if p.Elo == nil {
			continue
		}
		pts = append(pts, p)
		for _, e := range p.Elo {
			lo, hi = min(lo, e), max(hi, e)
		}
	}
	if len(pts) < 2 {
		return nil
	}
	if hi-lo < 10 {
		lo, hi = lo-5, hi+5
	}
	x0, x1 := float64(pts[0].Matches), float64(pts[len(pts)-1].Matches)
	plotW, plotH := float64(chartW-padL-padR), float64(chartH-padT-padB)
	x := func(m int) float64 { return padL + plotW*(float64(m)-x0)/(x1-x0) }
	y := func(e float64) float64 { return padT + plotH*(hi-e)/(hi-lo) }
	c := &chart{W: chartW, H: chartH}
	for b, name := range bots {
		var sb strings.Builder
		for _, p := range pts {
			if b < len(p.Elo) {
				fmt.Fprintf(&sb, "%.1f,%.1f ", x(p.Matches), y(p.Elo[b]))
			}
		}
		c.Lines = append(c.Lines, chartLine{Bot: name, Colour: palette[b%len(palette)], Points: strings.TrimSpace(sb.String()), LegendY: padT + 14 + 16*b})
	}
	for i := range 5 {
		e := lo + (hi-lo)*float64(i)/4
		c.YTicks = append(c.YTicks, tick{Pos: y(e), Label: fmt.Sprintf("%+.0f", e)})
		m := x0 + (x1-x0)*float64(i)/4
		c.XTicks = append(c.XTicks, tick{Pos: x(int(math.Round(m))), Label: fmt.Sprintf("%.0f", m)})
	}
	return c
}

// histogram is a bot's decision-time histogram laid out for its SVG template.
type histogram struct {
	W, H int
	Bars []bar
}

type bar struct {
	X, Y, W, H float64
	Label      string
	Count      int
}

func newHistogram(bins []view.HistBin) *histogram {
	most := 0
	for _, b := range bins {
		most = max(most, b.Count)
	}
	if most == 0 {
		return nil
	}
	h := &histogram{W: 60*len(bins) + 20, H: 180}
	for i, b := range bins {
		height := 130 * float64(b.Count) / float64(most)
		label := "≤" + trimFloat(b.UpTo)
		if b.Rest {
			label = ">" + trimFloat(b.UpTo)
		}
		h.Bars = append(h.Bars, bar{X: float64(10 + 60*i), Y: 140 - height, W: 50, H: height, Label: label, Count: b.Count})
	}
	return h
}

func trimFloat(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%g", v), ".0") }
