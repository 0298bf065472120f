package ruletests

import (
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// phase is a stretch of minutes with a steady request rate and error ratio.
type phase struct {
	minutes   int
	perMinute float64
	ratio     float64
}

// inputSeries writes an SLO's counters for a run of phases. After the last
// phase the series stop, as when a target disappears.
func inputSeries(slo model.SLO, phases []phase) []Series {
	out := make([]Series, 0, len(slo.SLI.Inputs))
	for _, in := range slo.SLI.Inputs {
		out = append(out, Series{Series: in.Series.String(), Values: values(in, phases)})
	}
	return out
}

// values encodes a counter in promtool's notation: "a+bxn" is n+1 samples
// from a, growing by b. The first sample is at time zero.
func values(in model.Input, phases []phase) string {
	var segs []string
	v := 0.0
	for i, p := range phases {
		inc := p.perMinute * (in.Good*(1-p.ratio) + in.Bad*p.ratio)
		n := p.minutes
		start := v
		if i > 0 {
			start += inc // the previous phase wrote the sample at its last minute
			n--
		}
		segs = append(segs, num(start)+"+"+num(inc)+"x"+strconv.Itoa(n))
		v = start + inc*float64(n)
	}
	return strings.Join(segs, " ")
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
