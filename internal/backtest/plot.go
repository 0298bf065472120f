package backtest

import (
	"fmt"
	"io"
	"math"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// The canvas: the plot area lies between the title above and the time
// labels and legend below, with the ratio labels on its left.
const (
	width, height       = 1200.0, 520.0
	plotLeft, plotRight = 70.0, 1140.0
	plotTop, plotBottom = 40.0, 400.0
)

var tierColors = map[slomodel.Tier]string{
	slomodel.PageFast:   "#9c27b0",
	slomodel.PageSlow:   "#e53935",
	slomodel.TicketFast: "#fb8c00",
	slomodel.TicketSlow: "#fdd835",
}

// bandOpacity lets the ratio lines and other bands show through a band.
const bandOpacity = 0.25

var (
	longRatio  = stroke{color: "#1e88e5", width: 2}
	shortRatio = stroke{color: "#90a4ae", width: 1}
)

const thresholdWidth, thresholdDash = 1.5, "6 4"

// Plot draws one SLO's backtest as an SVG: its error ratio over 5m and
// over 1h on a log scale, each tier's threshold as a dashed line in the
// tier's colour, and each span a burn-rate alert fired as a band in the
// colour of its fastest tier (the page's is page_fast's), so that when
// the rules would have paged reads at a glance.
func Plot(w io.Writer, svc slomodel.Service, slo slomodel.SLO, r Result) error {
	rs := r.Ratios[slo.Name]
	if len(rs.Times) < 2 || !r.To.After(r.From) {
		return fmt.Errorf("%s/%s: too little history to plot", svc.Name, slo.Name)
	}
	p := canvas{x: timeScale{r.From, r.To, plotLeft, plotRight}, y: ratioScale{plotTop, plotBottom}}
	p.text("title", width/2, 24, "middle", fmt.Sprintf("%s/%s (%s%% over %s): error ratio, thresholds and alerts (UTC)",
		svc.Name, slo.Name, rules.Percent(slo.Objective), slo.Period.Name), attr{"font-size", "14"})
	p.axes()
	// Bands first and lines over them; the noisy 5m ratio under the 1h.
	for _, b := range slomodel.BurnRules {
		p.firing(r, slo, b)
	}
	for _, t := range slomodel.Tiers {
		p.threshold(slo, t)
	}
	p.ratio("ratio-5m", "error ratio, 5m", rs, rs.Short, shortRatio)
	p.ratio("ratio-1h", "error ratio, 1h", rs, rs.Long, longRatio)
	p.legend()
	return p.writeTo(w, width, height)
}

// canvas is the SVG being drawn, its scales, and the legend's keys of
// what has been drawn so far.
type canvas struct {
	svg
	x    timeScale
	y    ratioScale
	keys []key
}

// firing draws a band over each span the SLO's burn-rate alert fired, up
// to the end of the window while it still fires.
func (p *canvas) firing(r Result, slo slomodel.SLO, b slomodel.BurnRule) {
	fired := false
	color := tierColors[b.Tiers[0]]
	for _, s := range r.Spans {
		if s.Alert() != rules.BurnAlert || s.Labels.Get("slo") != slo.Name || s.Labels.Get("tier") != b.Name {
			continue
		}
		end := s.ResolvedAt
		if end.IsZero() {
			end = r.To
		}
		x0, x1 := p.x.x(s.FiringAt), p.x.x(end)
		p.rect("firing "+b.Name, x0, plotTop, x1-x0, plotBottom-plotTop, color, bandOpacity)
		fired = true
	}
	if fired {
		p.keys = append(p.keys, key{name: b.Name + " firing", fill: color})
	}
}

// threshold draws the error ratio above which the tier fires across the
// whole window.
func (p *canvas) threshold(slo slomodel.SLO, t slomodel.Tier) {
	th, _ := slo.ErrorRatioThreshold(t)
	v, _ := th.Float64()
	st := stroke{color: tierColors[t], width: thresholdWidth, dash: thresholdDash}
	p.line("threshold "+string(t), plotLeft, p.y.y(v), plotRight, p.y.y(v), st)
	p.keys = append(p.keys, key{name: fmt.Sprintf("%s at %s%%", t, rules.Percent(th)), stroke: st})
}

// ratio draws one of the SLO's error ratios: no failure sits on the
// floor, and no request (NaN) leaves a gap.
func (p *canvas) ratio(class, name string, rs Ratios, values []float64, st stroke) {
	var run []point
	flush := func() {
		if len(run) == 1 {
			run = append(run, run[0])
		}
		if len(run) > 0 {
			p.polyline(class, run, st)
		}
		run = nil
	}
	for i, v := range values {
		if math.IsNaN(v) {
			flush()
			continue
		}
		run = append(run, point{p.x.x(rs.Times[i]), p.y.y(v)})
	}
	flush()
	p.keys = append(p.keys, key{name: name, stroke: st})
}
