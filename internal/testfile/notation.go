package testfile

import (
	"math"
	"strconv"
	"strings"
)

// Run is N+1 samples of an input series: Start, then each Step more than
// the one before. A NaN Start is N+1 missing samples.
type Run struct {
	Start, Step float64
	N           int
}

// Values writes runs in promtool's expanding notation; it is the encoder
// of every generated test's series. "a+bxn" is n+1 samples from a, growing
// by b, and "a" one sample; "_" is a missing sample and "_xn" n of them. A
// run that goes on from where the one before it ended, by the same step,
// is written as one with it.
func Values(runs []Run) string {
	segs := make([]string, 0, len(runs))
	for i := 0; i < len(runs); {
		r := runs[i]
		for i++; i < len(runs) && continues(r, runs[i]); i++ {
			r.N += runs[i].N + 1
		}
		segs = append(segs, segment(r))
	}
	return strings.Join(segs, " ")
}

// continues reports whether next goes on from where r ends, by r's step,
// equal but for float noise.
func continues(r, next Run) bool {
	if math.IsNaN(r.Start) || math.IsNaN(next.Start) {
		return math.IsNaN(r.Start) && math.IsNaN(next.Start)
	}
	return next.Step == r.Step && near(next.Start, r.Start+float64(r.N+1)*r.Step, 1e-12)
}

func segment(r Run) string {
	switch {
	case math.IsNaN(r.Start) && r.N == 0:
		return "_"
	case math.IsNaN(r.Start):
		return "_x" + strconv.Itoa(r.N+1)
	case r.N == 0:
		return num(r.Start)
	case r.Step < 0:
		return num(r.Start) + "-" + num(-r.Step) + "x" + strconv.Itoa(r.N)
	default:
		return num(r.Start) + "+" + num(r.Step) + "x" + strconv.Itoa(r.N)
	}
}

// Samples writes samples in the same notation, finding their runs: a
// sample goes on with a run when it is within a millionth of where the
// run's step would put it, so that float noise does not split one. NaN is
// a missing sample, and trailing ones end the series.
func Samples(vs []float64) string {
	for len(vs) > 0 && math.IsNaN(vs[len(vs)-1]) {
		vs = vs[:len(vs)-1]
	}
	var runs []Run
	for i := 0; i < len(vs); {
		r := runAt(vs, i)
		runs = append(runs, r)
		i += r.N + 1
	}
	return Values(runs)
}

// runAt is the longest run starting at vs[i].
func runAt(vs []float64, i int) Run {
	r := Run{Start: vs[i]}
	if math.IsNaN(vs[i]) {
		for i+r.N+1 < len(vs) && math.IsNaN(vs[i+r.N+1]) {
			r.N++
		}
		return r
	}
	if i+1 >= len(vs) || math.IsNaN(vs[i+1]) {
		return r
	}
	r.Step = difference(vs[i], vs[i+1])
	for j := i + 1; j < len(vs) && near(vs[j], vs[i]+float64(j-i)*r.Step, 1e-6); j++ {
		r.N = j - i
	}
	return r
}

// difference is b − a without the noise of the subtraction: no more
// decimals than a and b have (0.3 − 0.2 is 0.1, not 0.09999999999999998).
func difference(a, b float64) float64 {
	d, _ := strconv.ParseFloat(strconv.FormatFloat(b-a, 'f', max(decimals(a), decimals(b)), 64), 64)
	return d
}

// decimals is how many digits num writes after the point.
func decimals(f float64) int {
	s := num(f)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// near reports whether got is want but for a relative error of tolerance.
func near(got, want, tolerance float64) bool {
	return math.Abs(got-want) <= tolerance*math.Max(1, math.Abs(want))
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
