package parallel

import (
	"sync/atomic"
	"testing"
)

// Each calls do once for every index, never on more goroutines at once
// than it is given, and for no index when there are none.
func TestEach(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {100, 1}, {100, 3}} {
		calls := make([]atomic.Int32, tc.n)
		var running, most atomic.Int32
		Each(tc.n, tc.workers, func(i int) {
			now := running.Add(1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			calls[i].Add(1)
			running.Add(-1)
		})
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n=%d: index %d called %d times", tc.n, i, c)
			}
		}
		if m := most.Load(); int(m) > tc.workers {
			t.Errorf("n=%d: %d calls at once, workers %d", tc.n, m, tc.workers)
		}
	}
}
