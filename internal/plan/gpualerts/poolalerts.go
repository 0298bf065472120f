package gpualerts

import (
	"maps"
	"slices"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// PoolAlert is what a generated test may know of a pool's alert, all but
// its expressions. A per-GPU alert is two rules of one name: one for the
// GPUs a service of the pool claims, which takes Joined from the claim
// and has the Claimed annotations, and, in a pool with Unclaimed, one for
// the GPUs no service claims, with the Unclaimed annotations (nil
// otherwise). GPUExporterDown is about the job: it has only the
// Unclaimed rule, labelled with the job.
type PoolAlert struct {
	Name string
	For  time.Duration
	// Labels are the rules' own: severity, the alerting labels every
	// service of the pool sets alike, so that routing finds them on an
	// unclaimed GPU's alert too, and the job. The claimed GPUs' rule adds
	// the pool's PoolLabel: no two rules of one name have one label set,
	// which promtool check rules would report.
	Labels             map[string]string
	Joined             []string
	Claimed, Unclaimed map[string]string
	Keeps              []string
	From               string
}

// PoolPlan is a pool's alerts and their rules.
type PoolPlan struct {
	Pool   Pool
	Alerts []PoolAlert
	rules  []rules.Rule
}

// Plan works out the pool's alerts.
func (p Pool) Plan() PoolPlan {
	pp := PoolPlan{Pool: p}
	labels, joined := p.labels()
	for _, e := range catalog {
		if e.about != ofGPU {
			continue
		}
		a := PoolAlert{Name: e.name, For: e.hold, Labels: p.ruleLabels(labels, e.name), Joined: joined}
		switch {
		case e.name != ExporterDown:
			pp.add(a, p.perGPU(e, &a)...)
		case p.Unclaimed:
			pp.add(a, p.exporterDown(&a))
		}
	}
	return pp
}

// perGPU are a per-GPU alert's rules: on the GPUs the pool's services
// claim, and where the pool has them, on those no service claims.
func (p Pool) perGPU(e entry, a *PoolAlert) []rules.Rule {
	claimed := e.write.gpus(p.claimedGPUs())
	a.Keeps, a.From = claimed.keeps, claimed.from
	a.Claimed = claimed.annotationsFor(label("service")+": ", p.runbook(e.name))
	r := claimed.rule(Alert{Name: a.Name, For: a.For, Labels: with(a.Labels, PoolLabel, p.ID), Annotations: a.Claimed})
	r.Expr = pql.Mul(claimed.expr, p.claims(true), pql.On(ClaimKey...).GroupLeft(a.Joined...))
	if !p.Unclaimed {
		return []rules.Rule{r}
	}
	unclaimed := e.write.gpus(p.unclaimedGPUs())
	a.Unclaimed = unclaimed.annotationsFor("", p.runbook(e.name))
	u := unclaimed.rule(Alert{Name: a.Name, For: a.For, Labels: a.Labels, Annotations: a.Unclaimed})
	u.Expr = pql.Unless(unclaimed.expr, p.claims(false), pql.On(ClaimKey...))
	return []rules.Rule{r, u}
}

func (pp *PoolPlan) add(a PoolAlert, rs ...rules.Rule) {
	pp.Alerts = append(pp.Alerts, a)
	pp.rules = append(pp.rules, rs...)
}

// claims selects the job's claims; the pool's own, or every service's.
func (p Pool) claims(own bool) *parser.VectorSelector {
	if own {
		return pql.Metric(Claims, pql.Eq(PoolLabel, p.ID), pql.Eq("job", p.Job))
	}
	return pql.Metric(Claims, pql.Eq("job", p.Job))
}

func (p Pool) runbook(alert string) string { return rules.FleetRunbook(p.Services[0], alert) }

// labels are the alerting labels every service of the pool sets alike,
// and the names of the others with service first, which a claimed GPU's
// alert takes from the claim.
func (p Pool) labels() (shared map[string]string, joined []string) {
	shared = map[string]string{}
	for _, l := range p.Services[0].Alerting.Labels {
		shared[l.Name] = l.Value
	}
	others := map[string]bool{}
	for _, svc := range p.Services {
		own := map[string]string{}
		for _, l := range svc.Alerting.Labels {
			own[l.Name] = l.Value
			if shared[l.Name] != l.Value {
				others[l.Name] = true
			}
		}
		for n := range shared {
			if _, ok := own[n]; !ok {
				others[n] = true
			}
		}
	}
	for n := range others {
		delete(shared, n)
	}
	return shared, append([]string{"service"}, slices.Sorted(maps.Keys(others))...)
}

func (p Pool) ruleLabels(shared map[string]string, alert string) map[string]string {
	return with(with(shared, "severity", p.Services[0].Alerting.CauseSeverity(alert)), "job", p.Job)
}

// with is ls and one more label, as a new map.
func with(ls map[string]string, name, value string) map[string]string {
	out := maps.Clone(ls)
	out[name] = value
	return out
}

// exporterDown is the job's GPUExporterDown: an exporter instance that
// served GPUs in the last ExporterMemory is down, or the job has no GPU
// series at all. It keeps the job, as each job's has its own.
func (p Pool) exporterDown(a *PoolAlert) rules.Rule {
	d := jobExporterDown(p.claimedGPUs())
	a.Keeps, a.From = d.keeps, d.from
	a.Unclaimed = d.annotationsFor("", p.runbook(ExporterDown))
	return d.rule(Alert{Name: a.Name, For: a.For, Labels: a.Labels, Annotations: a.Unclaimed})
}

func jobExporterDown(g gpus) alertDef {
	job := g.svc.DCGM.Job
	up := pql.Metric("up", pql.Eq("job", job))
	fb := g.field(dcgm.FBUsed)
	servedLately := pql.Group(pql.Call("last_over_time", pql.Range(fb, ExporterMemory)), pql.By("instance"))
	down := pql.Gt(pql.Count(pql.And(pql.EqOp(up, pql.Num(0)), servedLately, pql.On("instance")), pql.By("job")), pql.Num(0))
	return alertDef{
		keeps: []string{"job"}, from: "up",
		expr:    pql.Chain(parser.LOR, pql.On(), down, pql.Max(pql.Call("absent", fb), pql.By("job"))),
		summary: "GPU metrics missing",
		title:   text("GPU metrics missing from dcgm-exporter job %s", job),
		description: text("A dcgm-exporter of job %s that served GPUs in the last %s is down, or the job exports no GPU series: the alerts about its GPUs, and those of every service on them that read its series, are blind. Check the exporter's pods.",
			job, genfile.Duration(ExporterMemory)),
	}
}

// BuildPools returns the pools' rule groups, one per dcgm-exporter job in
// the order jobs first come: the job's deduplicated claims, then each of
// its pools' alerts.
func BuildPools(plans []PoolPlan) []rules.Group {
	var out []rules.Group
	at := map[string]int{}
	for _, pp := range plans {
		job := pp.Pool.Job
		i, ok := at[job]
		if !ok {
			i = len(out)
			at[job] = i
			out = append(out, rules.Group{Name: PoolGroupName(job), Rules: []rules.Rule{dedupedClaims(job)}})
		}
		out[i].Rules = append(out[i].Rules, pp.rules...)
	}
	return out
}

// PoolGroupName is the rule group of the alerts about a dcgm-exporter
// job's GPUs.
func PoolGroupName(job string) string { return "slogen-gpus-" + job }
