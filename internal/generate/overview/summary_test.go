package overview

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
)

// TestSummaryCountsWhatTheTableShows: over the two teams' recordings, the
// summary counts four SLOs (chat's TTFT twice, once per model), two with
// their budget spent, two burning faster than allowed over the last hour,
// and one service alerting; with search alone picked, one SLO and zeros,
// not "no data".
func TestSummaryCountsWhatTheTableShows(t *testing.T) {
	svcs := load(t, "two.cue", twoTeams)
	d := build(t, svcs)
	r := store(t, twoTeamsRecordings)
	for _, tc := range []struct {
		vars map[string]string
		want map[string]float64
	}{
		{grafanatest.AllPicked(d), map[string]float64{SLOCount: 4, BudgetSpent: 2, BurningFast: 2, ServicesFiring: 1}},
		{map[string]string{"team": "search", "runtime": ".*"}, map[string]float64{SLOCount: 1, BudgetSpent: 0, BurningFast: 0, ServicesFiring: 0}},
	} {
		for title, want := range tc.want {
			v := query(t, r, panelQueries(t, d, title)[0].Expr, tc.vars)
			if len(v) != 1 || v[0].F != want {
				t.Errorf("team %s: %s reads %v, want %v", tc.vars["team"], title, v, want)
			}
		}
	}
}
