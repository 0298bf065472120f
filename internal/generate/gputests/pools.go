package gputests

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// PoolTests returns promtool tests of a fleet's alerts about GPUs, the
// pools' rule file: for each pool, the scenarios of its first service
// built alone that check one of those alerts, played on up to three GPUs
// of the pool's job at once: one the first service claims, one the
// second claims, and, where the pool alerts about them, one no service
// claims. An alert must fire on each GPU once, when the service's own
// alert would, with the labels of the service that claims the GPU or
// with none. The claims are input series, labelled as the services'
// rule files record them (Cache.Tests checks that they do), so that the
// test reads no rule file of a service. c holds what services of one
// shape share.
func (c *Cache) PoolTests(plans []gpualerts.PoolPlan) []testfile.Test {
	var out []testfile.Test
	for _, pp := range plans {
		out = append(out, c.poolTests(pp, exporterAlerts(plans, pp.Pool.Job))...)
	}
	return out
}

// poolTests are one pool's tests; elsewhere are the other jobs'
// GPUExporterDown, which fire in every test as those jobs have no series.
func (c *Cache) poolTests(pp gpualerts.PoolPlan, elsewhere []testfile.ExpAlert) []testfile.Test {
	svc := pp.Pool.Services[0]
	alone := gpualerts.NewPlan(svc)
	ins, err := inputs(svc)
	gs, gerr := poolGPUs(pp.Pool)
	if err != nil || gerr != nil {
		return nil // the services' own tests say why
	}
	var out []testfile.Test
	for _, pl := range c.schedule(alone).scenarios {
		if pl.err != nil || pl.eval != EvaluationInterval {
			continue
		}
		if t, ok := pl.poolTest(pp, dedupe(ins), gs, elsewhere); ok {
			out = append(out, t)
		}
	}
	return out
}

// poolGPU is one GPU of a pool's test: its identity labels, and the
// labels of the claim on it, nil where no service claims it.
type poolGPU struct {
	labels map[string]string
	claim  map[string]string
}

// poolGPUs are the GPUs a pool's tests play each scenario on, each on a
// host and with a UUID of its own.
func poolGPUs(p gpualerts.Pool) ([]poolGPU, error) {
	var out []poolGPU
	for i, svc := range p.Services[:min(2, len(p.Services))] {
		ls, err := gpuIdentityLabels(svc)
		if err != nil {
			return nil, err
		}
		out = append(out, poolGPU{onHost(ls, i), gpualerts.ClaimLabels(svc)})
	}
	if p.Unclaimed {
		ls := maps.Clone(out[0].labels)
		svc := p.Services[0]
		if svc.DCGM.Mapping != model.MappingHost {
			// no pod uses it
			delete(ls, svc.DCGM.PodLabel())
			delete(ls, svc.DCGM.NamespaceLabel())
		}
		out = append(out, poolGPU{labels: onHost(ls, len(out))})
	}
	return out, nil
}

// onHost gives a test GPU the i-th host and UUID, keeping the host a
// host mapping matches.
func onHost(ls map[string]string, i int) map[string]string {
	ls = maps.Clone(ls)
	if _, ok := ls["Hostname"]; !ok || i == 2 {
		ls["Hostname"] = fmt.Sprintf("gpu-node-%d", i)
	}
	ls["UUID"] = fmt.Sprintf("GPU-00000000-0000-0000-0000-%012d", i)
	return ls
}

// poolTest is the scenario on the pool's GPUs, checking only the alerts
// about GPUs; false when it checks none.
func (pl *planned) poolTest(pp gpualerts.PoolPlan, ins []input, gs []poolGPU, elsewhere []testfile.ExpAlert) (testfile.Test, bool) {
	t := testfile.Test{Name: "pool " + pp.Pool.ID + " of job " + pp.Pool.Job + ": " + pl.name, Interval: genfile.Duration(pl.world.step)}
	for _, c := range pl.checks {
		i := slices.IndexFunc(pp.Alerts, func(a gpualerts.PoolAlert) bool { return a.Name == c.alert })
		if i < 0 {
			continue
		}
		at := testfile.AlertTest{EvalTime: genfile.Duration(c.at), Alertname: c.alert, ExpAlerts: []testfile.ExpAlert{}}
		if c.firing {
			at.ExpAlerts = pl.poolAlerts(pp.Alerts[i], c.at, ins, gs)
		}
		if c.alert == gpualerts.ExporterDown {
			at.ExpAlerts = append(at.ExpAlerts, firedBy(elsewhere, c.at, pp.Alerts[i].For)...)
		}
		t.AlertTests = append(t.AlertTests, at)
	}
	if len(t.AlertTests) == 0 {
		return t, false
	}
	t.InputSeries = pl.poolSeries(ins, gs)
	return t, true
}

// poolSeries are the scenario's DCGM series on each of the pool's GPUs,
// the exporter's up, and the claims.
func (pl *planned) poolSeries(ins []input, gs []poolGPU) []testfile.Series {
	var out []testfile.Series
	for _, in := range ins {
		switch {
		case !pl.writes(in.reading):
		case in.metric == "up":
			out = append(out, testfile.Series{Series: in.series, Values: pl.encoded(in.reading)})
		case strings.HasPrefix(in.metric, "DCGM_"):
			for _, g := range gs {
				out = append(out, testfile.Series{Series: gpuLabels(g.labels, in.metric).String(), Values: pl.encoded(in.reading)})
			}
		}
	}
	ones := make([]float64, len(pl.world.samples()))
	for i := range ones {
		ones[i] = 1
	}
	for _, g := range gs {
		if g.claim != nil {
			out = append(out, testfile.Series{Series: claimSeries(g).String(), Values: testfile.Samples(ones)})
		}
	}
	return out
}

// claimSeries is the claim on g, as its service's rule file records it.
func claimSeries(g poolGPU) labels.Labels {
	b := labels.NewBuilder(labels.FromMap(g.claim))
	b.Set(labels.MetricName, gpualerts.ServiceClaims)
	for _, n := range append([]string{"job"}, gpualerts.ClaimKey...) {
		b.Set(n, g.labels[n])
	}
	return b.Labels()
}

// poolAlerts are the alert firing at t: on each GPU for a per-GPU alert,
// once for GPUExporterDown.
func (pl *planned) poolAlerts(a gpualerts.PoolAlert, t time.Duration, ins []input, gs []poolGPU) []testfile.ExpAlert {
	value := func() (float64, bool) { return pl.valueAt(a.Name, t) }
	if a.Name == gpualerts.ExporterDown {
		ls := maps.Clone(a.Labels)
		ls["job"] = gs[0].labels["job"]
		return []testfile.ExpAlert{{ExpLabels: ls, ExpAnnotations: expanded(a.Unclaimed, ls, value)}}
	}
	var out []testfile.ExpAlert
	from := slices.IndexFunc(ins, func(in input) bool { return in.metric == a.From })
	if from < 0 {
		return []testfile.ExpAlert{{ExpLabels: map[string]string{"slogen_cannot_predict": a.Name + " reads no series of the test"}}}
	}
	for _, g := range gs {
		ls := maps.Clone(a.Labels)
		maps.Copy(ls, identity(gpuLabels(g.labels, ins[from].metric), a.Keeps))
		templates := a.Unclaimed
		if g.claim != nil {
			for _, n := range a.Joined {
				if v, ok := g.claim[n]; ok {
					ls[n] = v
				}
			}
			ls[gpualerts.PoolLabel] = g.claim[gpualerts.PoolLabel]
			templates = a.Claimed
		}
		out = append(out, testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: expanded(templates, ls, value)})
	}
	return out
}

// exporterAlerts are the GPUExporterDown of every job but job, as they
// fire in a test that has no series of theirs.
func exporterAlerts(plans []gpualerts.PoolPlan, job string) []testfile.ExpAlert {
	var out []testfile.ExpAlert
	for _, pp := range plans {
		for _, a := range pp.Alerts {
			if a.Name != gpualerts.ExporterDown || pp.Pool.Job == job {
				continue
			}
			ls := maps.Clone(a.Labels)
			ls["job"] = pp.Pool.Job
			out = append(out, testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: expanded(a.Unclaimed, ls, func() (float64, bool) { return 1, true })})
		}
	}
	return out
}

// firedBy are the alerts of elsewhere that fire at t: absent from the
// start, they are pending for their `for`, hold.
func firedBy(elsewhere []testfile.ExpAlert, t, hold time.Duration) []testfile.ExpAlert {
	if t < hold {
		return nil
	}
	return elsewhere
}

// claimTest checks that a fleet's service claims its GPU, with the labels
// the pools' tests give its claims; false for a service built alone.
func claimTest(plan gpualerts.Plan) (testfile.Test, bool) {
	if plan.Claim == nil {
		return testfile.Test{}, false
	}
	gpu, err := gpuIdentityLabels(plan.Service)
	if err != nil {
		return testfile.Test{}, false
	}
	return testfile.Test{
		Name:        "claims its GPUs",
		Interval:    genfile.Duration(time.Minute),
		InputSeries: []testfile.Series{{Series: gpuLabels(gpu, fbUsed).String(), Values: testfile.Samples([]float64{1000, 1000, 1000})}},
		ExprTests: []testfile.ExprTest{{
			Expr: gpualerts.ServiceClaims, EvalTime: genfile.Duration(time.Minute),
			ExpSamples: []testfile.ExpSample{{Labels: claimSeries(poolGPU{gpu, plan.Claim}).String(), Value: 1}},
		}},
	}, true
}
