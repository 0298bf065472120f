package backtest_test

import (
	"bytes"
	"encoding/xml"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promtest"
)

var day = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// knownDay is a day of an SLO's backtest: the 1h ratio steady at 1 %, the
// 5m one at 0 but for an hour without requests from 15:00, a fast page
// from 06:00 to 12:00 and a slow ticket still firing from 21:00, and two
// spans the plot must leave out: another SLO's, and another alert's.
func knownDay() backtest.Result {
	var rs backtest.Ratios
	for ts := day; !ts.After(day.Add(24 * time.Hour)); ts = ts.Add(10 * time.Minute) {
		short := 0.0
		if ts.Hour() == 15 {
			short = math.NaN()
		}
		rs.Times, rs.Short, rs.Long = append(rs.Times, ts), append(rs.Short, short), append(rs.Long, 0.01)
	}
	span := func(alert, slo, tier string, from, to time.Duration) backtest.Span {
		s := promtest.Span{Labels: labels.FromStrings("alertname", alert, "slo", slo, "tier", tier), FiringAt: day.Add(from)}
		if to > 0 {
			s.ResolvedAt = day.Add(to)
		}
		return backtest.Span{Span: s}
	}
	return backtest.Result{
		Service: "slow", From: day, To: day.Add(24 * time.Hour),
		Ratios: map[string]backtest.Ratios{"availability": rs},
		Spans: []backtest.Span{
			span("SLOErrorBudgetBurn", "availability", "page", 6*time.Hour, 12*time.Hour),
			span("SLOErrorBudgetBurn", "latency", "page_slow", 2*time.Hour, 3*time.Hour),
			// Another alert with a tier label: not a burn-rate tier's span.
			span("SLOTrafficDrop", "availability", "page", time.Hour, 2*time.Hour),
			span("SLOErrorBudgetBurn", "availability", "ticket_slow", 21*time.Hour, 0),
		},
	}
}

// element is one SVG element as encoding/xml reads it.
type element struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []element  `xml:",any"`
}

func (e element) attr(name string) string {
	for _, a := range e.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (e element) num(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(e.attr(name), 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", e.XMLName.Local, name, e.attr(name), err)
	}
	return v
}

// drawing is a plot's elements, parsed back from its SVG.
type drawing []element

func draw(t *testing.T, svc model.Service, r backtest.Result) drawing {
	t.Helper()
	var b bytes.Buffer
	if err := backtest.Plot(&b, svc, svc.SLOs[0], r); err != nil {
		t.Fatal(err)
	}
	var doc element
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, b.String())
	}
	return doc.Children
}

// class is the elements of the class.
func (d drawing) class(class string) drawing {
	return slices.DeleteFunc(slices.Clone(d), func(e element) bool { return e.attr("class") != class })
}

// texts is every text the drawing shows.
func (d drawing) texts() []string {
	var ts []string
	for _, e := range d {
		if e.XMLName.Local == "text" {
			ts = append(ts, e.Text)
		}
	}
	return ts
}

// tick is where the axis label reads label: its x for a time, its y for
// a ratio.
func (d drawing) tick(t *testing.T, label string) float64 {
	t.Helper()
	for _, e := range d.class("tick") {
		if e.Text == label {
			if strings.HasSuffix(label, "%") {
				return e.num(t, "y")
			}
			return e.num(t, "x")
		}
	}
	t.Fatalf("no tick labelled %q", label)
	return 0
}

func near(a, b float64) bool { return math.Abs(a-b) <= 0.05 }

func TestPlotFiringBandsSpanTheAlerts(t *testing.T) {
	d := draw(t, load(t, "slow"), knownDay())
	if n := len(d.class("firing page_slow")); n != 0 {
		t.Errorf("another SLO's page drawn %d times", n)
	}
	for _, c := range []struct {
		tier, from, to string
	}{
		{"page", "Nov 20 06:00", "Nov 20 12:00"},
		{"ticket_slow", "Nov 20 21:00", "Nov 21 00:00"}, // still firing: up to the end
	} {
		bands := d.class("firing " + c.tier)
		if len(bands) != 1 {
			t.Fatalf("%s: %d bands, want 1", c.tier, len(bands))
		}
		x, w := bands[0].num(t, "x"), bands[0].num(t, "width")
		if from, to := d.tick(t, c.from), d.tick(t, c.to); !near(x, from) || !near(x+w, to) {
			t.Errorf("%s: band from x %g to %g, want %g (%s) to %g (%s)", c.tier, x, x+w, from, c.from, to, c.to)
		}
	}
}

// Each tier's threshold sits where its ratio falls on the log scale
// between the 0.1 % and the 1 % ticks' decade.
func TestPlotThresholdsOnTheLogScale(t *testing.T) {
	svc := load(t, "slow")
	d := draw(t, svc, knownDay())
	milli, percent := d.tick(t, "0.1%"), d.tick(t, "1%")
	for _, tier := range model.Tiers {
		th, _ := svc.SLOs[0].ErrorRatioThreshold(tier)
		v, _ := th.Float64()
		want := milli + (math.Log10(v)+3)*(percent-milli)
		lines := d.class("threshold " + string(tier))
		if len(lines) != 1 {
			t.Fatalf("%s: %d threshold lines, want 1", tier, len(lines))
		}
		l := lines[0]
		if y1, y2 := l.num(t, "y1"), l.num(t, "y2"); !near(y1, want) || !near(y2, want) {
			t.Errorf("%s at %g: line from y %g to %g, want %g", tier, v, y1, y2, want)
		}
		if l.attr("stroke-dasharray") == "" {
			t.Errorf("%s: threshold not dashed", tier)
		}
	}
}

// The 5m ratio is 0, which a log scale cannot show: it lies on the floor,
// broken where there were no requests. The 1h ratio lies on the 1 % tick.
func TestPlotRatios(t *testing.T) {
	d := draw(t, load(t, "slow"), knownDay())
	if n := len(d.class("ratio-1h")); n != 1 {
		t.Errorf("the 1h ratio drawn in %d pieces, want 1", n)
	}
	for class, label := range map[string]string{"ratio-5m": "≤0.001%", "ratio-1h": "1%"} {
		want := d.tick(t, label)
		for _, l := range d.class(class) {
			for _, p := range strings.Fields(l.attr("points")) {
				if y, _ := strconv.ParseFloat(p[strings.Index(p, ",")+1:], 64); !near(y, want) {
					t.Errorf("%s: point %s, want y %g (%s)", class, p, want, label)
				}
			}
		}
	}
	if n := len(d.class("ratio-5m")); n != 2 {
		t.Errorf("the 5m ratio drawn in %d pieces, want 2 around the hour without requests", n)
	}
}

func TestPlotLegendAndTitle(t *testing.T) {
	texts := draw(t, load(t, "slow"), knownDay()).texts()
	for _, want := range []string{
		"slow/availability (99.5% over 30d): error ratio, thresholds and alerts (UTC)",
		"page firing", "ticket_slow firing",
		"page_fast at 7.2%", "page_slow at 3%", "ticket_fast at 1.5%", "ticket_slow at 0.5%",
		"error ratio, 5m", "error ratio, 1h",
	} {
		if !slices.Contains(texts, want) {
			t.Errorf("no text %q in %q", want, texts)
		}
	}
}

// Names come from specs: whatever they hold, the SVG stays well-formed
// and shows them as written.
func TestPlotEscapesNames(t *testing.T) {
	svc := load(t, "slow")
	svc.Name, svc.SLOs[0].Name = `<svc&"'>`, `</text><script>`
	r := knownDay()
	r.Ratios = map[string]backtest.Ratios{svc.SLOs[0].Name: r.Ratios["availability"]}
	title := draw(t, svc, r).class("title")
	if len(title) != 1 || !strings.HasPrefix(title[0].Text, svc.Name+"/"+svc.SLOs[0].Name+" ") {
		t.Errorf("title %+v, want it to name %s/%s", title, svc.Name, svc.SLOs[0].Name)
	}
}

func TestPlotIsDeterministic(t *testing.T) {
	svc := load(t, "slow")
	var a, b bytes.Buffer
	if err := backtest.Plot(&a, svc, svc.SLOs[0], knownDay()); err != nil {
		t.Fatal(err)
	}
	if err := backtest.Plot(&b, svc, svc.SLOs[0], knownDay()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two plots of the same backtest differ")
	}
}

func TestPlotNeedsHistory(t *testing.T) {
	svc := load(t, "slow")
	r := knownDay()
	r.Ratios["availability"] = backtest.Ratios{Times: []time.Time{day}, Short: []float64{0}, Long: []float64{0}}
	err := backtest.Plot(&bytes.Buffer{}, svc, svc.SLOs[0], r)
	if err == nil || err.Error() != "slow/availability: too little history to plot" {
		t.Errorf("got %v, want too little history", err)
	}
}
