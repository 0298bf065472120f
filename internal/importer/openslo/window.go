package openslo

import (
	"fmt"
	"strconv"

	"github.com/slogen-dev/slogen/internal/importer"
)

// periods are slogen's SLO periods in days (docs/spec.md, window).
var periods = []int{7, 28, 30}

// unitDays is each duration-shorthand unit in days; a month, quarter and
// year as slogen would count them, in whole days.
var unitDays = map[string]float64{"m": 1.0 / 1440, "h": 1.0 / 24, "d": 1, "w": 7, "M": 30, "Q": 91, "Y": 365}

// window maps timeWindow onto slogen's period, reporting how.
func window(w timeWindow, n *importer.Notes) string {
	if w.Duration == "" {
		n.Changed = append(n.Changed, "no timeWindow: slogen's default period, 30d")
		return ""
	}
	days := durationDays(w.Duration)
	nearest := periods[0]
	for _, p := range periods {
		if abs(float64(p)-days) < abs(float64(nearest)-days) {
			nearest = p
		}
	}
	period := strconv.Itoa(nearest) + "d"
	exact := days == float64(nearest) && w.Duration[len(w.Duration)-1] != 'M'
	switch {
	case !w.Rolling:
		n.Dropped = append(n.Dropped, fmt.Sprintf("timeWindow %s calendar-aligned (%s, at %s): slogen's periods roll, so the budget does not reset at the calendar's boundaries; the SLO uses a rolling %s", w.Duration, cmpOr(w.Calendar, "isRolling: false"), w.At, period))
	case exact:
		n.Exact = append(n.Exact, fmt.Sprintf("timeWindow %s rolling as window %s", w.Duration, period))
	default:
		n.Changed = append(n.Changed, fmt.Sprintf("timeWindow %s becomes window %s: slogen's periods are 7d, 28d and 30d, and its burn-rate alerts are scaled to the period", w.Duration, period))
	}
	return period
}

// durationDays reads a duration shorthand the reader checked.
func durationDays(d string) float64 {
	m := shorthand.FindStringSubmatch(d)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v * unitDays[m[2]]
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
