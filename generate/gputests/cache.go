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

// tested are the alerts the scenarios test, in the order of holds.
var tested = [...]string{
	gpualerts.MemoryHigh, gpualerts.KVCacheHigh, gpualerts.QueueBacklog, gpualerts.TemperatureHigh,
	gpualerts.UtilizationHigh, gpualerts.XIDErrors, gpualerts.OOMEvents, gpualerts.ExporterDown,
	gpualerts.MemoryLeak, gpualerts.Saturated, gpualerts.InputErrors, gpualerts.MemoryLeakSuspect,
	gpualerts.Throttled, gpualerts.ECCErrors, gpualerts.RowRemapFailure, gpualerts.PCIeReplays, gpualerts.NVLinkErrors,
	gpualerts.Preemptions, gpualerts.QueueTimeHigh, gpualerts.PrefixCacheCold,
}

// holds are the tested alerts a service has and their `for`s.
type holds [len(tested)]struct {
	has  bool
	hold time.Duration
}

func holdsOf(alerts []gpualerts.Alert) holds {
	var h holds
	for _, a := range alerts {
		for i, name := range tested {
			if a.Name == name {
				h[i].has, h[i].hold = true, a.For
			}
		}
	}
	return h
}

// of is the alert's `for`, and whether the service has the alert.
func (h holds) of(alert string) (time.Duration, bool) {
	for i, name := range tested {
		if name == alert {
			return h[i].hold, h[i].has
		}
	}
	return 0, false
}
