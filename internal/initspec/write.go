package initspec

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/literal"

	"github.com/slogen-dev/slogen/internal/gpu"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// defaultDCGMJob is the job dcgm-exporter's Helm chart scrapes it as, the
// spec's default.
const defaultDCGMJob = "dcgm-exporter"

// Write writes the services as one commented CUE spec.
func Write(server string, now time.Time, services []Service) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "// Written by slogen init from the Prometheus at %s, from the %s of\n", server, days(History))
	fmt.Fprintf(&b, "// history up to %s (or what it keeps). Each objective is one the\n", now.UTC().Format(time.RFC3339))
	b.WriteString("// service met over that history, rounded down; each threshold is a bucket\n")
	b.WriteString("// boundary its exporter writes. The figures behind them are in the comments:\n")
	b.WriteString("// read them, and tighten what your users need, before you commit this spec.\n")
	b.WriteString("package slo\n\n")
	for _, s := range services {
		writeService(&b, s)
	}
	out, err := format.Source([]byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("formatting the spec: %w", err)
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out, nil
}

func writeService(b *strings.Builder, s Service) {
	if !s.Proposed() {
		fmt.Fprintf(b, "// Left out: %s in job %s%s (told by %s), for which the history proposes no SLO:\n",
			s.Profile.Title, q(s.Job), inNamespace(s.Namespace), strings.Join(s.Families, ", "))
		for _, p := range s.SLOs {
			fmt.Fprintf(b, "// %s: %s.\n", p.Kind, p.Skipped)
		}
		if len(s.SLOs) == 0 {
			b.WriteString("// no request in it.\n")
		}
		b.WriteString("\n")
		return
	}
	fmt.Fprintf(b, "// %s in job %s%s, told by %s.\n", s.Profile.Title, q(s.Job), inNamespace(s.Namespace), strings.Join(s.Families, ", "))
	fmt.Fprintf(b, "services: %s: {\n", q(s.Name))
	fmt.Fprintf(b, "runtime: %s\n", q(s.Profile.Runtime))
	if newest, _ := profile.ByRuntime(s.Profile.Runtime); newest.Since != s.Profile.Since {
		fmt.Fprintf(b, "// Its families are those %s exported from release %s on.\n", s.Profile.Title, s.Profile.Since)
		fmt.Fprintf(b, "version: %s\n", q(s.Profile.Since))
	}
	if s.Model != "" {
		fmt.Fprintf(b, "model: %s\n", q(s.Model))
	}
	fmt.Fprintf(b, "selector: {job: %s", q(s.Job))
	if s.Namespace != "" {
		fmt.Fprintf(b, ", namespace: %s", q(s.Namespace))
	}
	b.WriteString("}\n")
	writeGPUs(b, s)
	writeBuckets(b, s)
	b.WriteString("slos: {\n")
	for _, p := range s.SLOs {
		writeSLO(b, p)
	}
	b.WriteString("}\n}\n\n")
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return ", namespace " + q(ns)
}

// writeGPUs writes the gpu and dcgm blocks, and under host mapping the
// static scrape that needs.
func writeGPUs(b *strings.Builder, s Service) {
	g := s.GPUs
	switch {
	case g.Count == 0 && g.Mapping == model.MappingPod:
		fmt.Fprintf(b, "// No dcgm-exporter series (%s) names pods of this service: add its gpu block by hand, or run slogen discover on its host.\n", "DCGM_FI_DEV_FB_USED")
	case g.Count == 0:
		fmt.Fprintf(b, "// No dcgm-exporter series has a Hostname of the hosts it is scraped on, %s: set dcgm.hosts to its GPU hosts.\n", list(g.Hosts))
	default:
		fmt.Fprintf(b, "// dcgm-exporter (job %s) reports %d GPU(s) behind it: %s.\n", q(g.Job), g.Count, strings.Join(quoted(g.Products), ", "))
		writeGPU(b, g)
	}
	writeDCGM(b, s)
}

func writeGPU(b *strings.Builder, g GPUs) {
	p, known := gpu.Lookup(g.Products[0])
	if !known {
		fmt.Fprintf(b, "// %s is not in slogen's GPU catalog: add product and memory_mib.\n", q(g.Products[0]))
		fmt.Fprintf(b, "gpu: count: %d\n", g.Count)
		return
	}
	fmt.Fprintf(b, "gpu: {product: %s, count: %d}\n", q(p.Name), g.Count)
}

func writeDCGM(b *strings.Builder, s Service) {
	g := s.GPUs
	var fields []string
	if g.Job != "" && g.Job != defaultDCGMJob {
		fields = append(fields, "job: "+q(g.Job))
	}
	if g.Mapping == model.MappingHost {
		fields = append(fields, `mapping: "host"`, "hosts: "+list(g.Hosts))
		if g.LowerHostname {
			b.WriteString("// This dcgm-exporter labels hosts hostname, which slogen's host mapping does not read yet (it reads Hostname).\n")
		}
	} else if len(s.Pods) > 0 && !podsNamedAfter(s.Name, s.Pods) {
		fields = append(fields, "pod: "+q(podPattern(s.Pods)))
	}
	if g.HonorLabels {
		fields = append(fields, "honor_labels: true")
	}
	if len(fields) > 0 {
		fmt.Fprintf(b, "dcgm: {%s}\n", strings.Join(fields, ", "))
	}
	if s.Namespace == "" {
		b.WriteString("// Scraped without Kubernetes labels: by these targets.\n")
		fmt.Fprintf(b, "scrape: {mode: \"static\", runtime: targets: %s", list(s.Instances))
		if len(g.Instances) > 0 {
			fmt.Fprintf(b, ", dcgm: targets: %s", list(g.Instances))
		}
		b.WriteString("}\n")
	}
}

// podsNamedAfter reports whether the spec's default dcgm.pod, pods named
// after the service, matches every pod.
func podsNamedAfter(service string, pods []string) bool {
	for _, p := range pods {
		if !strings.HasPrefix(p, service+"-") {
			return false
		}
	}
	return true
}

// podPattern matches pods named as these are: their common prefix up to
// its last dash, where a Deployment's or StatefulSet's pod names end.
func podPattern(pods []string) string {
	prefix := pods[0]
	for _, p := range pods[1:] {
		for !strings.HasPrefix(p, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if i := strings.LastIndex(prefix, "-"); i > 0 {
		return regexp.QuoteMeta(prefix[:i+1]) + ".*"
	}
	return regexp.QuoteMeta(prefix) + ".*"
}

// writeBuckets writes the boundaries the exporter really has, where they
// differ from the runtime table's.
func writeBuckets(b *strings.Builder, s Service) {
	if len(s.Buckets) == 0 {
		return
	}
	b.WriteString("// The exporter's le boundaries, where they differ from slogen's table.\n")
	b.WriteString("buckets: {\n")
	for _, k := range model.LatencyKinds {
		if les, ok := s.Buckets[k]; ok {
			fmt.Fprintf(b, "%s: %s\n", k, numbers(les))
		}
	}
	b.WriteString("}\n")
}

func writeSLO(b *strings.Builder, p Proposal) {
	figures := fmt.Sprintf("%d of the last %s held %.0f requests", p.Days, days(History), p.Requests)
	if p.Kind == model.Availability {
		figures += fmt.Sprintf(", %.0f of them failed: %s succeeded", p.Bad, percent(p.Met))
	} else {
		var shares []string
		for _, w := range p.Within {
			shares = append(shares, fmt.Sprintf("%s within %s", percent(w.Share), w.Bound))
		}
		if len(shares) > 0 {
			figures += ": " + strings.Join(shares, ", ")
		}
	}
	if p.Skipped != "" {
		fmt.Fprintf(b, "// %s: none proposed. %s; %s.\n", p.Kind, figures, p.Skipped)
		return
	}
	if p.Threshold == "" {
		fmt.Fprintf(b, "// %s; rounded down to %g.\n", figures, p.Objective)
		fmt.Fprintf(b, "%s: objective: %g\n", p.Kind, p.Objective)
		return
	}
	why := fmt.Sprintf("%s is the smallest boundary that held %g %%", p.Threshold, latencyTarget*100)
	if p.Met < latencyTarget {
		why = fmt.Sprintf("no boundary held %g %%, and %s is the largest", latencyTarget*100, p.Threshold)
	}
	fmt.Fprintf(b, "// %s. %s; %s, rounded down to %g.\n", figures, why, percent(p.Met), p.Objective)
	fmt.Fprintf(b, "%s: {objective: %g, threshold: %s}\n", p.Kind, p.Objective, q(p.Threshold))
}

func list(ss []string) string { return "[" + strings.Join(quoted(ss), ", ") + "]" }

// quoted are label values as CUE strings, so that none can end a comment
// or write CUE of its own.
func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = q(s)
	}
	return out
}

func numbers(fs []float64) string {
	ss := make([]string, len(fs))
	for i, f := range fs {
		ss[i] = profile.GoLe(f)
	}
	return "[" + strings.Join(ss, ", ") + "]"
}

func q(s string) string { return literal.String.Quote(s) }
