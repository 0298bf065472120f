package ruletests

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// The clusters the global tests feed, and the one that fails.
const (
	failingCluster = "a"
	healthyCluster = "b"
)

// globalTests feed the global ruler's rules, alone, with two clusters'
// recordings, as their Prometheus servers would remote-write them: an
// outage in one cluster pages globally and names it; a cluster that
// stops sending opens a ticket.
func globalTests(svc model.Service) []testfile.Test {
	slos := testable(svc)
	if svc.Global == nil || len(slos) == 0 {
		return nil
	}
	under := slos[0]
	if avail, ok := fullOutageSLO(svc); ok {
		under = avail
	}
	return []testfile.Test{clusterOutage(svc, under), clusterMissing(svc)}
}

// clusterOutage: both clusters serve the same traffic for an hour, then
// every request of one SLO fails in one cluster: half the global traffic.
// The global page fires when the math on the clusters' sum says, and its
// description names the failing cluster only.
func clusterOutage(svc model.Service, under model.SLO) testfile.Test {
	pm, h := rules.HealthyPerMinute(svc), rules.HealthyRatio(under)
	global := rules.Traffic{Start: -historyMinutes, Stretches: []rules.Stretch{{Until: 0, PerMinute: 2 * pm, Ratio: h}, {Until: math.Inf(1), PerMinute: 2 * pm, Ratio: (1 + h) / 2}}}
	s := schedule{under.Name: rules.PredictTiers(svc, under, global, 24*60, 1)}
	fast := s.page(under.Name)
	fire := firstSettled(svc, s, fast.Latest)
	length := historyMinutes + int(fire)
	var series []testfile.Series
	for _, c := range []string{failingCluster, healthyCluster} {
		for _, slo := range testable(svc) {
			after := rules.HealthyRatio(slo)
			if c == failingCluster && slo.Name == under.Name {
				after = 1
			}
			series = append(series, recordedSeries(svc, slo, c, rules.ChangeAt(pm, historyMinutes, rules.HealthyRatio(slo), after), length)...)
		}
	}
	checks := burnTest(svc, s, historyMinutes, 1, math.Ceil(fast.Earliest)-1, fire)
	for i := range checks {
		for j, a := range checks[i].ExpAlerts {
			slo, rule := sloNamed(svc, a.ExpLabels["slo"]), burnRule(a.ExpLabels)
			ls := merged(a.ExpLabels, valued(slo.GroupBy, recordedGroup))
			checks[i].ExpAlerts[j] = testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: rules.BurnAnnotationsAt(svc, slo, rule, []string{failingCluster}, ls)}
		}
	}
	// Not a page before the math on the sum allows: one cluster's own
	// ratio crosses the threshold sooner.
	notYet := math.Max(math.Ceil(fast.Earliest)-1, 0)
	page := alertFilter{labels.MustNewMatcher(labels.MatchEqual, "tier", model.PageRule.Name)}
	return testfile.Test{
		Name: fmt.Sprintf("every request of %s failing in %s %s, half the traffic, pages globally %s, naming that %s only, and not within %s",
			describe(under), svc.Global.Label, failingCluster, pageSpan(fast, fire), svc.Global.Label, genfile.Duration(minutes(notYet))),
		Interval:    "1m",
		InputSeries: series,
		AlertTests:  checks,
		ExprTests:   []testfile.ExprTest{neverActive(svc, historyMinutes+notYet, page)},
	}
}

// recordedGroup is the value a split SLO's recordings carry in its
// group_by labels in the global tests.
const recordedGroup = "m1"

// clusterMissing: both clusters healthy, then one stops sending. Its
// recordings stay visible for the lookback delta, then SLOClusterMissing
// holds for its `for`; no burn-rate alert fires over the other's. When
// the other stops too, no cluster is missing among those that send: the
// ticket resolves, and the clusters' own SLOMetricsAbsent speak.
func clusterMissing(svc model.Service) testfile.Test {
	const stop = 30
	pm := rules.HealthyPerMinute(svc)
	// The last sample is seen for 5m (4m59s on Prometheus 3), then `for`.
	fire := stop + lookbackDelta.Minutes() + rules.ClusterMissingFor.Minutes() + 1
	allGone := fire + 2 + lookbackDelta.Minutes() + 1
	var series []testfile.Series
	for _, c := range []string{failingCluster, healthyCluster} {
		length := int(fire) + 2
		if c == healthyCluster {
			length = stop
		}
		for _, slo := range testable(svc) {
			series = append(series, recordedSeries(svc, slo, c, rules.SteadyTraffic(pm, rules.HealthyRatio(slo)), length)...)
		}
	}
	expect := func(minute float64, firing bool) testfile.AlertTest {
		exp := []testfile.ExpAlert{}
		if firing {
			exp = append(exp, testfile.ExpAlert{ExpLabels: merged(rules.ClusterMissingLabels(svc), map[string]string{svc.Global.Label: healthyCluster}),
				ExpAnnotations: rules.ClusterMissingAnnotationsAt(svc, healthyCluster)})
		}
		return testfile.AlertTest{EvalTime: genfile.Duration(minutes(minute)), Alertname: rules.ClusterMissingAlert, ExpAlerts: exp}
	}
	return testfile.Test{
		Name: fmt.Sprintf("%s %s stops sending: %s fires %s later, and no burn-rate alert over the other", svc.Global.Label, healthyCluster,
			rules.ClusterMissingAlert, genfile.Duration(minutes(fire-stop))),
		Interval:    "1m",
		InputSeries: series,
		AlertTests: []testfile.AlertTest{expect(stop, false), expect(fire-2, false), expect(fire, true),
			{EvalTime: genfile.Duration(minutes(fire)), Alertname: rules.BurnAlert, ExpAlerts: []testfile.ExpAlert{}}, expect(allGone, false)},
	}
}

// recordedSeries are what a cluster's Prometheus records of an SLO over
// the windows it reads from raw series, for traffic tr over length
// minutes: each window's rates over the part of it that holds data.
func recordedSeries(svc model.Service, slo model.SLO, cluster string, tr rules.Traffic, length int) []testfile.Series {
	var out []testfile.Series
	for _, w := range rules.Windows() {
		if !rules.FromRawSeries(w) {
			continue
		}
		reqs, errs := make([]float64, length+1), make([]float64, length+1)
		for m := range length + 1 {
			x := float64(m) + tr.Start // minutes after the change
			from := math.Max(x-w.Minutes(), tr.Start)
			requests, failed := tr.Counted(from, x)
			reqs[m], errs[m] = math.NaN(), math.NaN()
			if x > from {
				reqs[m], errs[m] = requests/((x-from)*60), failed/((x-from)*60)
			}
		}
		ls := merged(map[string]string{"service": svc.Name, "slo": slo.Name, svc.Global.Label: cluster}, valued(slo.GroupBy, recordedGroup))
		out = append(out,
			testfile.Series{Series: seriesOf(rules.Errors(w), ls), Values: testfile.Samples(errs)},
			testfile.Series{Series: seriesOf(rules.Requests(w), ls), Values: testfile.Samples(reqs)})
	}
	return out
}

// seriesOf writes a series in PromQL notation, its labels sorted.
func seriesOf(name string, ls map[string]string) string {
	b := labels.NewScratchBuilder(len(ls) + 1)
	b.Add(labels.MetricName, name)
	for _, k := range slices.Sorted(maps.Keys(ls)) {
		b.Add(k, ls[k])
	}
	b.Sort()
	return strings.TrimSpace(b.Labels().String())
}
