package backtest

import (
	"fmt"
	"io"
	"math"
	"time"

	chart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"

	"github.com/slogen-dev/slogen/generate/rules"
	slomodel "github.com/slogen-dev/slogen/internal/model"
)

// floor is the plot's lowest error ratio: on a log scale, a ratio of 0
// (no failure) is drawn there.
const floor = 1e-5

// go-chart's log scale maps values of 1 and above, so ratios are drawn in
// units of the floor: 1 is the floor, 1/floor a ratio of 100 %.
func scaled(ratio float64) float64 { return math.Max(ratio, floor) / floor }

var tierColors = map[slomodel.Tier]drawing.Color{
	slomodel.PageFast:   drawing.ColorFromHex("9c27b0"),
	slomodel.PageSlow:   drawing.ColorFromHex("e53935"),
	slomodel.TicketFast: drawing.ColorFromHex("fb8c00"),
	slomodel.TicketSlow: drawing.ColorFromHex("fdd835"),
}

// Plot draws one SLO's backtest as an SVG: its error ratio over 5m and
// over 1h on a log scale, each tier's threshold as a dashed line in the
// tier's colour, and each span a burn-rate tier fired as a band of that
// colour, so that when the rules would have paged reads at a glance.
func Plot(w io.Writer, svc slomodel.Service, slo slomodel.SLO, r Result) error {
	c, err := chartOf(svc, slo, r)
	if err != nil {
		return err
	}
	return c.Render(chart.SVG, w)
}

func chartOf(svc slomodel.Service, slo slomodel.SLO, r Result) (*chart.Chart, error) {
	rs := r.Ratios[slo.Name]
	if len(rs.Times) < 2 {
		return nil, fmt.Errorf("%s/%s: too little history to plot", svc.Name, slo.Name)
	}
	var series []chart.Series
	for _, t := range slomodel.Tiers {
		if band, ok := firing(r, slo, t); ok {
			series = append(series, band)
		}
	}
	for _, t := range slomodel.Tiers {
		th, _ := slo.ErrorRatioThreshold(t)
		v, _ := th.Float64()
		series = append(series, chart.TimeSeries{
			Name:    fmt.Sprintf("%s at %s%%", t, rules.Percent(th)),
			XValues: []time.Time{r.From, r.To}, YValues: []float64{scaled(v), scaled(v)},
			Style: chart.Style{StrokeColor: tierColors[t], StrokeWidth: 1.5, StrokeDashArray: []float64{6, 4}},
		})
	}
	series = append(series,
		line("error ratio, 1h", rs.Times, rs.Long, drawing.ColorFromHex("1e88e5"), 2),
		line("error ratio, 5m", rs.Times, rs.Short, drawing.ColorFromHex("90a4ae"), 1),
	)
	c := chart.Chart{
		Title:      fmt.Sprintf("%s/%s (%s%% over %s): error ratio, thresholds and alerts (UTC)", svc.Name, slo.Name, rules.Percent(slo.Objective), slo.Period.Name),
		TitleStyle: chart.Style{FontSize: 12},
		Width:      1200,
		Height:     520,
		Background: chart.Style{Padding: chart.Box{Top: 40, Left: 20, Right: 30, Bottom: 90}},
		XAxis:      chart.XAxis{ValueFormatter: chart.TimeValueFormatterWithFormat("Jan 02 15:04")},
		YAxis: chart.YAxis{
			Range: &chart.LogarithmicRange{Min: 1, Max: scaled(1)},
			Ticks: logTicks(),
		},
		Series: series,
	}
	c.Elements = []chart.Renderable{chart.Legend(&c)}
	return &c, nil
}

// firing is a band over the spans the SLO's tier fired: a line that
// climbs to the top at each start and falls back at each end, filled below.
func firing(r Result, slo slomodel.SLO, t slomodel.Tier) (chart.TimeSeries, bool) {
	c := tierColors[t].WithAlpha(60)
	band := chart.TimeSeries{Name: string(t) + " firing", Style: chart.Style{FillColor: c, StrokeColor: c, StrokeWidth: 0.5}}
	for _, s := range r.Spans {
		if s.Alert() != rules.BurnAlert || s.Labels.Get("slo") != slo.Name || s.Labels.Get("tier") != string(t) {
			continue
		}
		end := s.ResolvedAt
		if end.IsZero() {
			end = r.To
		}
		start := maxTime(s.FiringAt, r.From)
		band.XValues = append(band.XValues, start, start, end, end)
		band.YValues = append(band.YValues, 1, scaled(1), scaled(1), 1)
	}
	return band, len(band.XValues) > 0
}

// line is a ratio series on the log scale: no failure sits on the floor,
// and no request leaves a gap.
func line(name string, xs []time.Time, ys []float64, color drawing.Color, width float64) chart.TimeSeries {
	s := chart.TimeSeries{Name: name, Style: chart.Style{StrokeColor: color, StrokeWidth: width}}
	for i, y := range ys {
		if math.IsNaN(y) {
			continue
		}
		s.XValues = append(s.XValues, xs[i])
		s.YValues = append(s.YValues, scaled(y))
	}
	return s
}

func logTicks() []chart.Tick {
	var ticks []chart.Tick
	for _, label := range []string{"≤0.001%", "0.01%", "0.1%", "1%", "10%", "100%"} {
		ticks = append(ticks, chart.Tick{Value: scaled(floor * math.Pow(10, float64(len(ticks)))), Label: label})
	}
	return ticks
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
