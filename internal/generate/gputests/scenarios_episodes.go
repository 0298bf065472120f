package gputests

import (
	"time"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// episode is a stretch of the diagnosis scenario's second day, and of
// its first at the same hour (nil: as usual); restart: the runtime
// restarts as today's begins, and its counters start again from zero.
// after is how long after the episode before it begins: time for the
// hour's windows and the alerts' `for` to forget that one.
type episode struct {
	yesterday, today change
	restart          bool
	after            time.Duration
}

// dayTwo is a world of base with each episode on day two, lasting
// lasts, and on day one at the same hour. The first starts a day and an
// hour in: a day later is the earliest a day-ago window is full.
func dayTwo(base state, eps []episode, step, lasts time.Duration) ([]time.Duration, world) {
	starts := []time.Duration{gpualerts.Baseline + time.Hour}
	for _, e := range eps[1:] {
		starts = append(starts, starts[len(starts)-1]+lasts+e.after)
	}
	return starts, world{step: step, length: starts[len(starts)-1] + lasts, at: func(t time.Duration) state {
		s := base
		for i, at := range starts {
			if eps[i].restart && t >= at {
				s.restarts++
			}
		}
		for i, at := range starts {
			if e := eps[i]; t >= at && t < at+lasts {
				return e.today.apply(s, t-at)
			} else if day1 := at - gpualerts.Baseline; e.yesterday != nil && t >= day1 && t < day1+lasts {
				return e.yesterday.apply(s, t-day1)
			}
		}
		return s
	}}
}

// change is what an episode does to the state, since it began.
type change func(s state, since time.Duration) state

func (c change) apply(s state, since time.Duration) state {
	if c == nil {
		return s
	}
	return c(s, since)
}

// steady is a change that holds from beginning to end.
func steady(f func(state) state) change {
	return func(s state, _ time.Duration) state { return f(s) }
}

// cacheChanges are what the prefix cache does in the diagnosis scenario,
// each on top of another change.
type cacheChanges struct {
	// coldFactor scales the hit ratio of a cache gone cold: a fifth
	// under PrefixCacheColdStart's share, so the hour's ratio crosses the
	// share once most of the hour is cold, and an alert at another share
	// fires early or never.
	coldFactor float64
	// barelyHit is a cache's hit ratio too low to compare with: half of
	// PrefixCacheHitFloor.
	barelyHit, healthyHit float64
	// warmUp is how long a restarted replica's cache stays empty: half of
	// what would take the hour's ratio down to the share.
	warmUp    time.Duration
	reqPerMin float64 // healthy traffic
}

func prefixCacheChanges(p predictor, base state) cacheChanges {
	share := p.th.PrefixCacheHitVsYesterday
	return cacheChanges{
		coldFactor: 0.8 * share,
		barelyHit:  gpualerts.PrefixCacheHitFloor / 2, healthyHit: base.prefixHit,
		warmUp:    time.Duration(float64(gpualerts.DiagnosisWindow) * (1 - share) / 2),
		reqPerMin: base.reqPerMin,
	}
}

// cold: the cache goes cold and stays cold.
func (c cacheChanges) cold(then change) change {
	return func(s state, since time.Duration) state {
		s = then.apply(s, since)
		s.prefixHit *= c.coldFactor
		return s
	}
}

// warming: a restarted replica's cache fills again within warmUp.
func (c cacheChanges) warming(then change) change {
	return func(s state, since time.Duration) state {
		s = then.apply(s, since)
		if since < c.warmUp {
			s.prefixHit = 0
		}
		return s
	}
}

// barely: the cache finds barelyHit where it found its healthy share.
func (c cacheChanges) barely(then change) change {
	return func(s state, since time.Duration) state {
		s = then.apply(s, since)
		s.prefixHit *= c.barelyHit / c.healthyHit
		return s
	}
}

// busier is twice the traffic, past the band of normal.
func (c cacheChanges) busier(s state) state { s.reqPerMin = 2 * c.reqPerMin; return s }

// trickle is traffic at half PrefixCacheMinPerMinute, too little to
// compare with.
func (c cacheChanges) trickle(s state) state {
	s.reqPerMin = gpualerts.PrefixCacheMinPerMinute / 2
	return s
}
