package promtest

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/promql/parser"
)

// seriesParser reads input_series with the options promtool's lazy loader
// uses for its load command (promqltest.TestParserOpts); they are wider than
// the options rule expressions are parsed with.
var seriesParser = parser.NewParser(parser.Options{
	EnableExperimentalFunctions: true,
	EnableBinopFillModifiers:    true,
	EnableUnquotedUTF8Names:     true,
})

// inputLoader holds the input series samples not yet appended to storage.
// promtool loads them lazily, only up to each evaluation time, so a query
// with a negative offset cannot see data "from the future"; we do the same.
type inputLoader struct {
	pending []inputSeriesSamples
}

type inputSeriesSamples struct {
	lset    labels.Labels
	samples []floatSample
}

// newInputLoader expands the series notation (`0+10x60`, `_`, `stale`)
// into samples spaced step apart, starting at start.
func newInputLoader(in []inputSeries, start time.Time, step time.Duration) (*inputLoader, error) {
	l := &inputLoader{}
	index := map[string]int{}
	for _, s := range in {
		lset, samples, err := expandSeries(s, start, step)
		if err != nil {
			return nil, err
		}
		// A series defined twice keeps its last definition, as in promtool.
		key := string(lset.Bytes(nil))
		if i, ok := index[key]; ok {
			l.pending[i].samples = samples
			continue
		}
		index[key] = len(l.pending)
		l.pending = append(l.pending, inputSeriesSamples{lset: lset, samples: samples})
	}
	return l, nil
}

func expandSeries(s inputSeries, start time.Time, step time.Duration) (labels.Labels, []floatSample, error) {
	// promtool joins both fields into one line of its load command.
	desc := strings.TrimSpace(s.Series + " " + s.Values)
	lset, vals, err := seriesParser.ParseSeriesDesc(desc)
	if err != nil {
		return labels.EmptyLabels(), nil, fmt.Errorf("input series %q: %w", desc, err)
	}
	var samples []floatSample
	for i, v := range vals {
		if v.Omitted {
			continue
		}
		t := timestamp.FromTime(start.Add(time.Duration(i) * step))
		samples = append(samples, floatSample{t: t, f: v.Value, fh: v.Histogram})
	}
	return lset, samples, nil
}

// appendTill moves every pending sample with a timestamp <= t into st.
func (l *inputLoader) appendTill(st *memStorage, t int64) error {
	var errs []error
	for i := range l.pending {
		p := &l.pending[i]
		n := 0
		for ; n < len(p.samples) && p.samples[n].t <= t; n++ {
			if err := st.appendSample(p.lset, p.samples[n]); err != nil {
				errs = append(errs, fmt.Errorf("input series %s: %w", p.lset, err))
			}
		}
		p.samples = p.samples[n:]
	}
	return errors.Join(errs...)
}
