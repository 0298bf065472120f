package importer

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/literal"
)

// CustomRuntime is the runtime of a service whose queries name their own
// metrics (profile.CustomRuntime).
const CustomRuntime = "custom"

// Spec writes the imported services as one commented CUE spec.
func Spec(services []Service) ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Imported by slogen import: each SLO is a ratio SLO with its queries, or\n")
	b.WriteString("// the runtime's kind where they read a runtime's histogram or error ratio.\n")
	b.WriteString("// Read the report slogen import printed before you build it.\n")
	b.WriteString("package slo\n\n")
	for _, s := range services {
		writeService(&b, s)
	}
	out, err := format.Source([]byte(b.String()))
	if err != nil {
		return nil, fmt.Errorf("formatting the imported spec: %w", err)
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out, nil
}

func writeService(b *strings.Builder, s Service) {
	if s.Empty() {
		fmt.Fprintf(b, "// %s service %s (%s) is left out: slogen can carry none of its SLOs.\n\n", s.Origin, q(s.Name), s.At)
		return
	}
	fmt.Fprintf(b, "// %s service %s (%s).\n", s.Origin, q(s.Name), s.At)
	fmt.Fprintf(b, "services: %s: {\n", q(s.Name))
	if s.Team != "" {
		fmt.Fprintf(b, "team: %s\n", q(s.Team))
	}
	writeRuntime(b, s)
	writeAlerting(b, s)
	b.WriteString("slos: {\n")
	for _, slo := range s.SLOs {
		writeSLO(b, s.Origin, slo)
	}
	b.WriteString("}\n}\n")
}

func writeRuntime(b *strings.Builder, s Service) {
	if s.Runtime == CustomRuntime {
		fmt.Fprintf(b, "// %s's queries name their metrics; custom is the runtime for those.\n", s.Origin)
		b.WriteString("runtime: \"custom\"\n")
		b.WriteString("// Counted by slogen's traffic-drop alert and dashboard.\n")
		fmt.Fprintf(b, "metrics: requests: %s\n", q(s.Metric))
		writeSelector(b, s.Selector)
		return
	}
	b.WriteString("// Read from the queries: they are this runtime's metrics.\n")
	fmt.Fprintf(b, "runtime: %s\n", q(s.Runtime))
	if s.Version != "" {
		fmt.Fprintf(b, "version: %s\n", q(s.Version))
	}
	if s.Model != "" {
		fmt.Fprintf(b, "model: %s\n", q(s.Model))
	}
	writeSelector(b, s.Selector)
}

func writeSelector(b *strings.Builder, selector []Label) {
	if len(selector) == 0 {
		return
	}
	b.WriteString("selector: {\n")
	for _, l := range selector {
		fmt.Fprintf(b, "%s: %s\n", q(l.Key), q(l.Value))
	}
	b.WriteString("}\n")
}

func writeAlerting(b *strings.Builder, s Service) {
	if len(s.Labels) == 0 && s.Runbook == "" && s.Page == "" && s.Ticket == "" && len(s.For) == 0 {
		return
	}
	b.WriteString("alerting: {\n")
	if len(s.Labels) > 0 {
		b.WriteString("labels: {\n")
		for _, l := range s.Labels {
			fmt.Fprintf(b, "%s: %s // %s\n", q(l.Key), q(l.Value), l.At)
		}
		b.WriteString("}\n")
	}
	if s.Runbook != "" {
		fmt.Fprintf(b, "runbook_url: %s\n", q(s.Runbook))
	}
	if s.Page != "" {
		fmt.Fprintf(b, "page_severity: %s\n", q(s.Page))
	}
	if s.Ticket != "" {
		fmt.Fprintf(b, "ticket_severity: %s\n", q(s.Ticket))
	}
	if len(s.For) > 0 {
		fmt.Fprintf(b, "// %s\n", s.ForWhy)
		var fors []string
		for _, f := range s.For {
			fors = append(fors, fmt.Sprintf("%s: %s", f.Key, q(f.Value)))
		}
		fmt.Fprintf(b, "for: {%s}\n", strings.Join(fors, ", "))
	}
	b.WriteString("}\n")
}

func writeSLO(b *strings.Builder, origin string, s SLO) {
	if s.Skip {
		fmt.Fprintf(b, "// %s (%s) is left out: %s\n", q(s.From), s.At, strings.Join(s.Notes.Dropped, "; "))
		return
	}
	fmt.Fprintf(b, "// %s SLO %s (%s).\n", origin, q(s.From), s.At)
	fmt.Fprintf(b, "%s: {\n", q(s.Name))
	fmt.Fprintf(b, "sli: %s\n", q(s.Kind))
	fmt.Fprintf(b, "objective: %s\n", strconv.FormatFloat(s.Objective, 'f', -1, 64))
	if s.Window != "" {
		fmt.Fprintf(b, "window: %s\n", q(s.Window))
	}
	if s.Threshold != "" {
		fmt.Fprintf(b, "threshold: %s\n", q(s.Threshold))
	}
	if s.Description != "" {
		fmt.Fprintf(b, "description: %s\n", q(s.Description))
	}
	if s.Kind == "ratio" {
		fmt.Fprintf(b, "bad: %s\n", q(s.Bad))
		fmt.Fprintf(b, "total: %s\n", q(s.Total))
	}
	b.WriteString("}\n")
}

// q quotes a string for CUE; a query's \( stays a backslash and a paren.
func q(s string) string { return literal.String.Quote(s) }

// Report writes, for each service and SLO, where it was read, what maps
// exactly, what changes and what cannot be carried.
func Report(w io.Writer, services []Service) {
	for _, s := range services {
		fmt.Fprintf(w, "%s: service %s\n", s.At, s.Name)
		n := s.Notes
		if s.Runtime == CustomRuntime && !s.Empty() {
			scope := "; add a selector (job, namespace) that scopes it to this service"
			if len(s.Selector) > 0 {
				scope = ", within the service's selector"
			}
			n.Changed = append([]string{fmt.Sprintf("runtime: \"custom\", its metrics.requests %q read from the first SLO's total query: slogen's traffic-drop alert and dashboard read it%s", s.Metric, scope)}, n.Changed...)
		}
		writeNotes(w, n)
		for _, slo := range s.SLOs {
			verdict := slo.Kind + " SLO"
			if slo.Skip {
				verdict = "left out"
			}
			fmt.Fprintf(w, "%s: SLO %s/%s: %s\n", slo.At, s.Name, slo.Name, verdict)
			writeNotes(w, slo.Notes)
		}
	}
}

func writeNotes(w io.Writer, n Notes) {
	for _, group := range []struct {
		title string
		lines []string
	}{{"exact", n.Exact}, {"changed", n.Changed}, {"not carried", n.Dropped}} {
		for _, l := range group.lines {
			fmt.Fprintf(w, "  %s: %s\n", group.title, l)
		}
	}
}
