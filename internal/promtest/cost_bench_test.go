//go:build unix

// The CPU times come from getrusage, which Windows lacks.

package promtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
)

// The case docs/slo-rules.md's evaluation cost is measured on: replicas scraped
// every minute, enough healthy history that every window up to 3d is
// full, then two hours measured at one-minute steps.
const (
	costScrape   = time.Minute // the scrape and the global evaluation interval
	costHistory  = 72 * time.Hour
	costMeasured = 2 * time.Hour
)

// BenchmarkRuleEvaluationCost measures the steady-state cost of slogen's
// SLO groups against the rules Sloth generates for the same three SLOs
// (testdata/cost), evaluated by Prometheus's engine, at 4 replicas and at
// 1. Each rule set first gets 72h of history (see warmUp); then both run
// over the next two hours, every group at the steps that are multiples of
// its interval, the two sets taking turns step by step. Only those two
// hours count: the CPU time of each group, reported in milliseconds per
// one-minute cycle, so that a group run every 4 minutes counts a quarter
// of its evaluation. Run it with -v to see every group's share.
//
// Sloth's rules are generated at bench time by the sloth binary on PATH
// (or $SLOTH); without one the benchmark skips.
func BenchmarkRuleEvaluationCost(b *testing.B) {
	svc := costService(b)
	slogen, sloth := slogenRuleFile(b, svc), slothRuleFile(b)
	for _, replicas := range []int{4, 1} {
		b.Run(fmt.Sprintf("replicas=%d", replicas), func(b *testing.B) {
			start := time.Unix(0, 0).UTC()
			from := start.Add(costHistory)
			ng := promql.NewEngine(promql.EngineOpts{MaxSamples: 50_000_000, Timeout: 2 * time.Minute, LookbackDelta: 5 * time.Minute})
			sets := []*costSet{newCostSet(b, "slogen", slogen), newCostSet(b, "sloth", sloth)}
			for _, s := range sets {
				s.history = rawHistory(b, svc, replicas, start, from.Add(costMeasured))
				s.warmUp(b, ng, start, from)
			}
			for b.Loop() {
				measure(b, ng, sets, from)
			}
			report(b, sets, replicas)
		})
	}
}

// measure runs both sets over the measured two hours after from, on
// copies of their history, taking turns step by step so that a busy
// machine slows both alike.
func measure(b *testing.B, ng *promql.Engine, sets []*costSet, from time.Time) {
	b.StopTimer()
	stores := make([]*memStorage, len(sets))
	for i, s := range sets {
		stores[i] = s.history.clone()
	}
	b.StartTimer()
	for ts := from.Add(costScrape); !ts.After(from.Add(costMeasured)); ts = ts.Add(costScrape) {
		for i, s := range sets {
			s.run(b, ng, stores[i], ts, ts, true)
		}
	}
	for _, s := range sets {
		s.runs++
	}
}

// report gives each set's total as a metric, and logs every group's share.
func report(b *testing.B, sets []*costSet, replicas int) {
	for _, s := range sets {
		b.ReportMetric(s.msPerCycle(), s.name+"-ms/cycle")
		for i, g := range s.groups {
			b.Logf("%d replica(s): %-52s every %-4s %6.3f ms/cycle", replicas, g.name, genfile.Duration(s.intervals[i]), s.groupMsPerCycle(i))
		}
	}
	slogen, sloth := sets[0].msPerCycle(), sets[1].msPerCycle()
	b.ReportMetric(slogen/sloth, "slogen/sloth")
	b.Logf("%d replica(s): slogen %.3f ms/cycle, Sloth %.3f ms/cycle: %.2fx", replicas, slogen, sloth, slogen/sloth)
}

// costSet is one rule set under measurement: its groups with their
// intervals, its history and the CPU time each group has spent in
// measured evaluations.
type costSet struct {
	name      string
	file      ruleFile
	groups    []*group
	intervals []time.Duration
	history   *memStorage
	spent     []time.Duration
	runs      int
}

func newCostSet(b *testing.B, name string, f ruleFile) *costSet {
	groups, err := newGroups([]ruleFile{f}, nil, alertContext{})
	if err != nil {
		b.Fatal(err)
	}
	s := &costSet{name: name, file: f, groups: groups, spent: make([]time.Duration, len(groups))}
	// newGroups keeps file order when no evaluation order is given.
	for _, rg := range f.groups {
		every := time.Duration(rg.Interval)
		if every == 0 {
			every = costScrape
		}
		s.intervals = append(s.intervals, every)
	}
	return s
}

// warmUp evaluates the set over its history up to end, every group at its
// own interval, storing what it records as Prometheus would, so that the
// recordings the set reads back have their past. Over most of the history
// it runs only the rules whose past some rule reads (historyRead); over
// the last hour, every rule, for the reads that look back 5 minutes and
// no further. The measured steps then see what they would after
// evaluating everything all along, which would take minutes, not seconds.
func (s *costSet) warmUp(b *testing.B, ng *promql.Engine, start, end time.Time) {
	lastHour := end.Add(-time.Hour)
	needed := s.historyRead(b)
	query := engineQuery(ng, s.history)
	for ts := start.Add(costScrape); ts.Before(lastHour); ts = ts.Add(costScrape) {
		for i, g := range s.groups {
			if !s.due(i, ts) {
				continue
			}
			for j, r := range g.rules {
				if !needed[r.ruleName()] {
					continue
				}
				if err := g.evalRule(context.Background(), j, ts, query, s.history); err != nil {
					b.Fatalf("%s: %s: %v", g.name, r.ruleName(), err)
				}
			}
		}
	}
	s.run(b, ng, s.history, lastHour, end, false)
}

// historyRead names the recordings whose past some rule reads: those
// read over a range, and, as their history is made of them, every
// recording their own rules read.
func (s *costSet) historyRead(b *testing.B) map[string]bool {
	reads := map[string][]string{} // recording -> what its rules read
	needed := map[string]bool{}
	for _, rg := range s.file.groups {
		for _, r := range rg.Rules {
			expr, err := ruleParser.ParseExpr(r.Expr)
			if err != nil {
				b.Fatal(err)
			}
			parser.Inspect(expr, func(n parser.Node, path []parser.Node) error {
				vs, ok := n.(*parser.VectorSelector)
				if !ok {
					return nil
				}
				reads[r.Record] = append(reads[r.Record], vs.Name)
				if overRange(path) {
					needed[vs.Name] = true
				}
				return nil
			})
		}
	}
	for grown := true; grown; {
		grown = false
		for name := range needed {
			for _, read := range reads[name] {
				grown = grown || !needed[read]
				needed[read] = true
			}
		}
	}
	return needed
}

// overRange reports whether a selector at the end of path is read over a
// range: inside a range selector or a subquery.
func overRange(path []parser.Node) bool {
	for _, n := range path {
		switch n.(type) {
		case *parser.MatrixSelector, *parser.SubqueryExpr:
			return true
		}
	}
	return false
}

// due reports whether group i runs at ts: when ts is a multiple of its
// interval.
func (s *costSet) due(i int, ts time.Time) bool {
	return ts.UnixNano()%int64(s.intervals[i]) == 0
}

// run evaluates, at every step from first to last, the groups whose
// interval divides the step's time, in file order; measured runs add each
// group's time to its account.
func (s *costSet) run(b *testing.B, ng *promql.Engine, st *memStorage, first, last time.Time, measured bool) {
	ctx := context.Background()
	query := engineQuery(ng, st)
	for ts := first; !ts.After(last); ts = ts.Add(costScrape) {
		for i, g := range s.groups {
			if !s.due(i, ts) {
				continue
			}
			began := cpuTime(b)
			if errs := g.eval(ctx, ts, query, st); len(errs) > 0 {
				b.Fatalf("%s: %v", g.name, errs)
			}
			if measured {
				s.spent[i] += cpuTime(b) - began
			}
		}
	}
}

// cpuTime is the CPU time the process has used: the cost of what ran
// since, with the garbage collection it caused, on a machine where other
// processes may take turns on the cores.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// groupMsPerCycle is group i's CPU time per one-minute measured cycle.
func (s *costSet) groupMsPerCycle(i int) float64 {
	cycles := float64(s.runs) * float64(costMeasured/costScrape)
	return float64(s.spent[i].Microseconds()) / 1000 / cycles
}

func (s *costSet) msPerCycle() float64 {
	var total float64
	for i := range s.groups {
		total += s.groupMsPerCycle(i)
	}
	return total
}

func costService(b *testing.B) model.Service {
	data, err := os.ReadFile(filepath.Join("testdata", "cost", "chat-llama.cue"))
	if err != nil {
		b.Fatal(err)
	}
	res, err := spec.LoadSources(spec.Source{Name: "chat-llama.cue", Data: data})
	if err != nil {
		b.Fatal(err)
	}
	return res.Spec.Services[0]
}

// slogenRuleFile writes the service's SLO rule file as slogen does.
func slogenRuleFile(b *testing.B, svc model.Service) ruleFile {
	out, err := rules.Marshal(rules.File{Groups: rules.Build(svc)})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "slogen.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		b.Fatal(err)
	}
	return loadCostRules(b, path)
}

// slothRuleFile runs Sloth on testdata/cost/sloth.yaml.
func slothRuleFile(b *testing.B) ruleFile {
	bin := os.Getenv("SLOTH")
	if bin == "" {
		bin = "sloth"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		b.Skipf("no Sloth to compare with (%v): install it (go install github.com/slok/sloth/cmd/sloth@v0.16.0) or set $SLOTH", err)
	}
	out := filepath.Join(b.TempDir(), "sloth.yaml")
	cmd := exec.Command(path, "generate", "--no-log", "-i", filepath.Join("testdata", "cost", "sloth.yaml"), "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("sloth generate: %v\n%s", err, msg)
	}
	return loadCostRules(b, out)
}

func loadCostRules(b *testing.B, path string) ruleFile {
	files, err := loadRuleFiles([]string{path})
	if err != nil {
		b.Fatal(err)
	}
	return files[0]
}

// rawHistory stores the counters behind the service's SLIs, from every
// replica, scraped every minute from start to end. Traffic is healthy: one
// request in a thousand fails or is slow, well inside every budget.
func rawHistory(b *testing.B, svc model.Service, replicas int, start, end time.Time) *memStorage {
	const perScrape, badShare = 60.0, 0.001
	st := newMemStorage()
	for _, in := range sliCounters(svc) {
		for r := range replicas {
			ls := labels.NewBuilder(in.Series).Set("pod", fmt.Sprintf("vllm-%d", r)).Labels()
			perStep := perScrape * ((1-badShare)*in.Good + badShare*in.Bad)
			for t, i := start, 0; !t.After(end); t, i = t.Add(costScrape), i+1 {
				if err := st.append(ls, timestamp.FromTime(t), perStep*float64(i)); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return st
}

// sliCounters lists the counters behind the SLIs.
func sliCounters(svc model.Service) []model.Input {
	var ins []model.Input
	for _, slo := range svc.SLOs {
		ins = append(ins, slo.SLI.Inputs...)
	}
	return ins
}

// clone copies the storage so that a measured run can append to it and
// leave the original for the next. Each copy has room for the samples a
// run adds, so appends during the run do not copy the history.
func (s *memStorage) clone() *memStorage {
	c := newMemStorage()
	for key, ser := range s.series {
		samples := slices.Grow(slices.Clip(ser.samples), int(costMeasured/costScrape)+1)
		c.series[key] = &memSeries{lset: ser.lset, samples: samples}
	}
	return c
}
