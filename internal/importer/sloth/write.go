package sloth

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/literal"
)

// Spec writes the converted services as one commented CUE spec.
func Spec(services []Converted) ([]byte, error) {
	var b strings.Builder
	b.WriteString("// Imported from Sloth by slogen import: each Sloth SLO is a ratio SLO with\n")
	b.WriteString("// its queries. Read the report slogen import printed before you build it.\n")
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

func writeService(b *strings.Builder, s Converted) {
	if s.Empty() {
		fmt.Fprintf(b, "// Sloth service %s (%s) is left out: slogen can carry none of its SLOs.\n\n", q(s.Name), s.From.At)
		return
	}
	fmt.Fprintf(b, "// Sloth service %s (%s).\n", q(s.Name), s.From.At)
	fmt.Fprintf(b, "services: %s: {\n", q(s.Name))
	b.WriteString("// Sloth's queries name their metrics; custom is the runtime for those.\n")
	b.WriteString("runtime: \"custom\"\n")
	b.WriteString("// Counted by slogen's traffic-drop alert and dashboard.\n")
	fmt.Fprintf(b, "metrics: requests: %s\n", q(s.Metric))
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
	b.WriteString("// Sloth's tickets fire as soon as their windows burn; so do these.\n")
	b.WriteString("for: {ticket_fast: \"0s\", ticket_slow: \"0s\"}\n")
	b.WriteString("}\n")
	b.WriteString("slos: {\n")
	for _, slo := range s.SLOs {
		writeSLO(b, slo)
	}
	b.WriteString("}\n}\n")
}

func writeSLO(b *strings.Builder, s ConvertedSLO) {
	if s.Skip {
		fmt.Fprintf(b, "// %s (%s) is left out: %s\n", q(s.From.Name), s.From.At, strings.Join(s.Notes.Dropped, "; "))
		return
	}
	fmt.Fprintf(b, "// Sloth SLO %s (%s).\n", q(s.From.Name), s.From.At)
	fmt.Fprintf(b, "%s: {\n", q(s.Name))
	b.WriteString("sli: \"ratio\"\n")
	fmt.Fprintf(b, "objective: %v\n", s.From.Objective)
	if s.From.Description != "" {
		fmt.Fprintf(b, "description: %s\n", q(s.From.Description))
	}
	fmt.Fprintf(b, "bad: %s\n", q(s.Bad))
	fmt.Fprintf(b, "total: %s\n", q(s.Total))
	b.WriteString("}\n")
}

// q quotes a string for CUE; a query's \( stays a backslash and a paren.
func q(s string) string { return literal.String.Quote(s) }

// Report writes, for each service and SLO, where it was read, what maps
// exactly, what changes and what cannot be carried.
func Report(w io.Writer, services []Converted) {
	for _, s := range services {
		fmt.Fprintf(w, "%s: service %s\n", s.From.At, s.Name)
		writeNotes(w, s.Notes)
		for _, slo := range s.SLOs {
			verdict := "ratio SLO"
			if slo.Skip {
				verdict = "left out"
			}
			fmt.Fprintf(w, "%s: SLO %s/%s: %s\n", slo.From.At, s.Name, slo.Name, verdict)
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
