package gputests

import (
	"time"

	"github.com/slogen-dev/slogen/internal/memo"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// Cache is what the services of one build share in their tests: services
// of one shape get the same scenarios, checks and series values, and
// differ only in labels, which most of a fleet does. Create one per build
// and pass it to every service's Tests; it is safe for concurrent use.
type Cache struct {
	schedules memo.Memo[shape, *schedule]
}

// NewCache returns an empty cache, for one build.
func NewCache() *Cache { return &Cache{} }

func (c *Cache) schedule(plan gpualerts.Plan) *schedule {
	return c.schedules.Get(shape{newPredictor(plan), holdsOf(plan.Alerts)}, newSchedule)
}

// shape is all that the scenarios, the predictor and the series' values
// read of a service: the predictor's facts (thresholds, GPU memory, error
// budget, whether the diagnosis reads errors) and which alerts it has,
// with their `for`s. Names, selectors and labels are left out.
type shape struct {
	predictor
	alerts holds
}

// holds are the alerts a service has, in its plan's order (the
// catalog's), with their `for`s: an array, so that a shape is comparable.
type holds [maxAlerts]struct {
	name string
	hold time.Duration
}

// maxAlerts is more alerts than gpualerts' catalog has.
const maxAlerts = 32

func holdsOf(alerts []gpualerts.Alert) holds {
	var h holds
	if len(alerts) > len(h) {
		panic("gputests: a plan has more alerts than maxAlerts; raise it")
	}
	for i, a := range alerts {
		h[i].name, h[i].hold = a.Name, a.For
	}
	return h
}

// of is the alert's `for`, and whether the service has the alert.
func (h holds) of(alert string) (time.Duration, bool) {
	for _, x := range h {
		if alert != "" && x.name == alert {
			return x.hold, true
		}
	}
	return 0, false
}
