package main

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/generate/gputests"
	"github.com/slogen-dev/slogen/internal/generate/scrape"
	"github.com/slogen-dev/slogen/internal/gpu"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// vetGPU explains the GPU half of a service: its GPUs, how their series
// are found, how both targets are scraped, and which GPU and serving
// alerts it gets, which not and why, and which get no test. tests is the
// vet run's cache; working out what is untested writes no test.
func vetGPU(out io.Writer, svc model.Service, tests *gputests.Cache) {
	say := func(format string, args ...any) {
		fmt.Fprintf(out, "%s: "+format+"\n", append([]any{svc.Name}, args...)...)
	}
	if g := svc.GPU; g.Product != "" {
		detail := "not in slogen's catalog"
		if p, ok := gpu.Lookup(g.Product); ok {
			detail = fmt.Sprintf("%s, compute %s, DCGM profiling metrics %s", p.Generation, p.ComputeCapability, map[bool]string{true: "supported", false: "unsupported"}[p.Profiling])
		}
		say("GPU %d × %s, %d MiB each (%s)", g.Count, g.Product, g.MemoryMiB, detail)
	}
	d := svc.DCGM
	series := (&parser.VectorSelector{LabelMatchers: d.Matchers}).String()
	if d.Mapping == model.MappingHost {
		say("GPU series %s: host mapping, by dcgm-exporter's Hostname label", series)
	} else {
		say("GPU series %s: pod mapping; with honor_labels %t dcgm-exporter's pod and namespace labels arrive as %s and %s", series, d.HonorLabels, d.PodLabel(), d.NamespaceLabel())
	}
	say("%s", scrapeLine(svc))
	plan := gpualerts.NewPlan(svc)
	for _, line := range plan.Describe() {
		say("alert %s", line)
	}
	for _, s := range plan.Skipped {
		say("no %s: %s", s.Alert, s.Reason)
	}
	for _, s := range tests.Untested(plan) {
		say("untested: %s: %s", s.Alert, s.Reason)
	}
}

func scrapeLine(svc model.Service) string {
	s := svc.Scrape
	runtimeFile, dcgmFile := scrape.ConfigFile, scrape.DCGMConfigFile
	if s.Mode == model.ScrapeOperator {
		runtimeFile, dcgmFile = scrape.MonitorsFile, scrape.DCGMMonitorsFile
	}
	target := func(e model.Endpoint) string {
		if len(e.Targets) > 0 {
			return fmt.Sprintf("job %s on %s, path %s", e.Job, strings.Join(e.Targets, ", "), e.Path)
		}
		return fmt.Sprintf("job %s on :%d%s", e.Job, e.Port, e.Path)
	}
	return fmt.Sprintf("scrape (%s): runtime %s in %s; dcgm-exporter %s in %s", s.Mode, target(s.Runtime),
		path.Join(generate.ServiceDir(svc), runtimeFile), target(s.DCGM), dcgmFile)
}

// vetCounters names the DCGM fields the GPU health alerts read that
// dcgm-exporter leaves out by default, and the counters file build writes
// to collect them.
func vetCounters(out io.Writer) {
	var off []string
	for _, f := range dcgm.Read {
		if !f.Default {
			off = append(off, f.Name)
		}
	}
	fmt.Fprintf(out, "dcgm-exporter: its default counters leave out %s, which %s, %s and %s read; run it with the %s that build writes, which lists every field slogen reads\n",
		strings.Join(off, ", "), gpualerts.Throttled, gpualerts.ECCErrors, gpualerts.NVLinkErrors, scrape.CountersFile)
}
