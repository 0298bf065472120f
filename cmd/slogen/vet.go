package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/generate/gputests"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
)

func newVet() *cobra.Command {
	var tf targetFlags
	var details bool
	cmd := &cobra.Command{
		Use:   "vet [--details] SPEC...",
		Short: "Validate spec files and explain what slogen will and will not generate",
		Long: `Vet checks the spec files as build does and prints every warning: tiers that
cannot fire at a low objective, SLOs whose alerts get no generated tests,
metrics that need a runtime flag. For each service it then says how much
history each SLO's error budget needs, how its GPU
series are found, how it is scraped, and which GPU and serving alerts it
gets and which not, and why. For a spec of several services it says which
share a shape, whose files build makes once, and why each other one has
none, and it prints what services share once, naming them; --details
prints every service's lines. With --target operator (and build's other
flags for it) it says which labels the PrometheusRules, monitors and
dashboard ConfigMap carry, which kube-prometheus-stack setting selects
each, and where the ConfigMap goes, and refuses what build would refuse.
It writes nothing. It exits 2 on errors.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := spec.Load(args...)
			if err != nil {
				return specError(err)
			}
			gen, resolved, err := tf.options(res.Spec)
			if err != nil {
				return err
			}
			res.Spec = resolved
			if details || len(res.Spec.Services) < 2 {
				vetAll(cmd.OutOrStdout(), res, gen)
				return nil
			}
			var b strings.Builder
			vetAll(&b, res, gen)
			names := make([]string, len(res.Spec.Services))
			for i, svc := range res.Spec.Services {
				names[i] = svc.Name
			}
			summarize(cmd.OutOrStdout(), b.String(), names)
			fmt.Fprintln(cmd.OutOrStdout(), "slogen vet --details prints each service's lines in full")
			return nil
		},
	}
	tf.register(cmd)
	cmd.Flags().BoolVar(&details, "details", false, "print every service's lines instead of what services share once")
	return cmd
}

// vetAll writes what vet says of a spec, service by service.
func vetAll(out io.Writer, res spec.Result, gen generate.Options) {
	for _, w := range res.Warnings {
		fmt.Fprintln(out, "warning:", w)
	}
	for _, n := range res.Notes {
		fmt.Fprintln(out, "note:", n)
	}
	gpuTests := gputests.NewCache() // services alike share their GPU tests' schedule
	for _, svc := range res.Spec.Services {
		fmt.Fprintf(out, "%s: runtime %s, %d SLO(s), from %s\n", svc.Name, svc.Runtime, len(svc.SLOs), svc.File)
		if svc.Global != nil {
			fmt.Fprintf(out, "%s: spans clusters told apart by the external label %s: each cluster's Prometheus runs rules.yaml (the SLI recordings, %s and %s on its own series) and remote-writes the recordings to a global ruler, which runs rules.global.yaml (the sums, the budget, every SLO alert and %s)\n",
				svc.Name, svc.Global.Label, rules.NoDataAlert, rules.TrafficDropAlert, rules.ClusterMissingAlert)
		}
		vetSLOs(out, svc)
		vetGPU(out, svc, gpuTests)
		if gen.Target == target.Operator {
			vetOperator(out, svc, gen)
		}
	}
	if len(res.Spec.Services) > 0 {
		vetCounters(out)
	}
	vetShapes(out, res)
}

// vetShapes says, for a spec of several services, how many share a shape,
// whose files build makes once, and why each other one has none, so that
// a slow build of a big fleet can be told why.
func vetShapes(out io.Writer, res spec.Result) {
	if len(res.Spec.Services) < 2 {
		return
	}
	shapes := map[*model.Shape]bool{}
	shared := 0
	for _, svc := range res.Spec.Services {
		if svc.Shape != nil {
			shapes[svc.Shape] = true
			shared++
			continue
		}
		if why := res.NoShape[svc.Name]; why != "" {
			fmt.Fprintf(out, "%s: build generates it on its own, not from a shape: %s\n", svc.Name, why)
		}
	}
	fmt.Fprintf(out, "shapes: %d of %d services share %d shape(s), whose files build makes once and fills in with each service's name, team, model, GPU and selector values\n",
		shared, len(res.Spec.Services), len(shapes))
}

// defaultRetention is how long Prometheus keeps samples unless
// --storage.tsdb.retention.time says otherwise.
const defaultRetention = 15 * 24 * time.Hour

// vetSLOs says, per SLO, how soon every request failing pages, as the generated
// tests assert, and how much history its budget reads: its period of the
// period group's recordings, which a Prometheus that keeps less, or is
// younger, cannot hold. The budget then counts the part it covers.
func vetSLOs(out io.Writer, svc model.Service) {
	for _, slo := range svc.SLOs {
		early, late := rules.FirstPage(svc, slo)
		fmt.Fprintf(out, "%s: slo %s: when %s, the page fires %s to %s after it starts\n", svc.Name, slo.Name, everyEventBad(slo),
			genfile.Duration(time.Duration(math.Ceil(math.Max(early, 0)))*time.Minute), genfile.Duration(time.Duration(math.Ceil(late))*time.Minute))
		p := slo.Period.Duration
		advice := fmt.Sprintf("within Prometheus's default retention of %s", genfile.Duration(defaultRetention))
		if p > defaultRetention {
			advice = fmt.Sprintf("more than Prometheus's default of %s: set --storage.tsdb.retention.time=%s or more", genfile.Duration(defaultRetention), genfile.Duration(p))
		}
		fmt.Fprintf(out, "%s: slo %s: the error budget reads %s of history, %s; until it has that, the budget counts the share it covers (%s)\n",
			svc.Name, slo.Name, slo.Period.Name, advice, rules.CoverageMetric)
		if len(slo.GroupBy) > 0 {
			n := rules.GroupSeries(svc, slo)
			fmt.Fprintf(out, "%s: slo %s: split by %s: %d recorded series per value, %d at the cap of %d values, past which %s opens a ticket\n",
				svc.Name, slo.Name, strings.Join(slo.GroupBy, ", "), n, n*slo.MaxGroups, slo.MaxGroups, rules.TooManyGroupsAlert)
		}
	}
}

// everyEventBad says what breaks every event of an SLO's SLI. A failed
// request is not one: latency histograms observe only requests that
// finish, so it never reaches a latency SLI at all.
func everyEventBad(slo model.SLO) string {
	switch slo.Kind {
	case model.Availability:
		return "every request fails"
	case model.Goodput:
		return "every request misses a bound"
	case model.Ratio:
		return "every event is bad"
	}
	return fmt.Sprintf("every %s takes longer than %s (failed requests are not observed)", latencyEvent[slo.Kind], slo.Threshold)
}

// latencyEvent names what each latency SLI times.
var latencyEvent = map[model.Kind]string{
	model.Latency: "request",
	model.TTFT:    "first token",
	model.ITL:     "gap between tokens",
	model.TPOT:    "output token",
	model.Queue:   "wait in the queue",
}
