package gputests

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/testfile"
)

func TestCountersKeepEightDigitsAndTheirRuns(t *testing.T) {
	requests := reading{of: completed}
	steady := world{step: 5 * time.Minute, length: 31 * time.Hour, at: constant(state{reqPerMin: 599.88})}
	if got := testfile.Samples(requests.values(steady, 0)); got != "0+2999.4x372" {
		t.Errorf("a steady counter past a million is %q; want one run", got)
	}
	doubling := world{step: time.Minute, length: 90 * time.Minute, at: func(t time.Duration) state {
		return state{reqPerMin: 600 * math.Pow(2, t.Hours())}
	}}
	for _, v := range requests.values(doubling, 0) {
		if digits := len(strings.Trim(strings.Replace(strconv.FormatFloat(v, 'f', -1, 64), ".", "", 1), "0")); digits > counterDigits {
			t.Fatalf("%v keeps %d digits", v, digits)
		}
	}
}
