package profile

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"time"

	"github.com/prometheus/prometheus/model/labels"
)

// Boundary finds the bucket whose upper bound is threshold. When none is,
// it returns the nearest bounds below and above (zero when absent).
func (h *Histogram) Boundary(threshold time.Duration) (bound float64, ok bool, below, above float64) {
	want := threshold.Seconds() / h.Unit
	for _, b := range h.Buckets {
		switch {
		case math.Abs(b-want) <= 1e-6*math.Max(1, math.Abs(b)):
			return b, true, 0, 0
		case b < want:
			below = b
		case above == 0:
			above = b
		}
	}
	return 0, false, below, above
}

// Seconds renders a bound of the histogram as a duration a spec can use.
func (h *Histogram) Seconds(bound float64) string {
	return time.Duration(math.Round(bound * h.Unit * 1e9)).String()
}

// LeMatcher matches the bucket bound whichever way the exporter wrote it:
// Go clients write le="1", prometheus_client on Prometheus 2 writes "1.0".
// Prometheus 3 normalises on ingestion; Prometheus 2 does not.
func LeMatcher(bound float64) *labels.Matcher {
	s := GoLe(bound)
	if !isIntegral(s) {
		return labels.MustNewMatcher(labels.MatchEqual, "le", s)
	}
	return labels.MustNewMatcher(labels.MatchRegexp, "le", regexp.QuoteMeta(s)+`(\.0)?`)
}

// Le writes a bound as this histogram's exporter does.
func (h *Histogram) Le(bound float64) string {
	s := GoLe(bound)
	if h.Format == PythonFormat && isIntegral(s) {
		return s + ".0"
	}
	return s
}

// GoLe is the Go client's rendering of a bucket bound.
func GoLe(bound float64) string {
	return strconv.FormatFloat(bound, 'g', -1, 64)
}

func isIntegral(s string) bool {
	_, err := strconv.ParseInt(s, 10, 64)
	return err == nil
}

// String names a histogram for messages.
func (h *Histogram) String() string {
	return fmt.Sprintf("%s (buckets in %s)", h.Name, unitName(h.Unit))
}

func unitName(u float64) string {
	if u == 0.001 {
		return "milliseconds"
	}
	return "seconds"
}
