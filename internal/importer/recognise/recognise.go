// Package recognise turns imported ratio SLOs whose queries are a
// runtime's SLI (a histogram's bucket over its count, a runtime's error
// ratio) into that runtime's kinds, the threshold read from the bucket's
// le, which must be one of the runtime's buckets (internal/profile).
package recognise

import (
	"fmt"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/profile"
)

// Services recognises the SLOs of every service in place.
func Services(services []importer.Service) {
	for i := range services {
		service(&services[i])
	}
}

// service picks the runtime from the first SLO that reads a runtime's
// own metrics; the SLOs that read that runtime with the same model and
// selector become its kinds, and every other stays a ratio SLO.
func service(s *importer.Service) {
	if s.Runtime != importer.CustomRuntime {
		return
	}
	matches := map[int]match{}
	var anchor *match
	for i, slo := range s.SLOs {
		if slo.Skip || slo.Kind != "ratio" {
			continue
		}
		m, ok, why := find(slo.Bad, slo.Total)
		if why != "" {
			s.SLOs[i].Notes.Changed = append(s.SLOs[i].Notes.Changed, why)
		}
		if !ok {
			continue
		}
		matches[i] = m
		if anchor == nil && !m.generic {
			anchor = &m
		}
	}
	if anchor == nil {
		for i, m := range matches {
			s.SLOs[i].Notes.Changed = append(s.SLOs[i].Notes.Changed, fmt.Sprintf("its queries are %s, but %s is what any HTTP app may count, so slogen keeps the queries; with another SLO on %s's own metrics in the service, it would be %s's %s SLO", m.what, m.p.Availability.Total[0].Name, m.p.Title, m.p.Title, m.kind))
		}
		return
	}
	adopt(s, *anchor)
	for i := range s.SLOs {
		slo := &s.SLOs[i]
		m, ok := matches[i]
		if ok && m.fits(*anchor) {
			become(slo, m)
			continue
		}
		if ok {
			slo.Notes.Changed = append(slo.Notes.Changed, fmt.Sprintf("its queries are %s, but for %s, not the service's %s; slogen keeps the queries", m.what, m.scope(), anchor.scope()))
		}
	}
}

// adopt makes the service the match's runtime, generation, model and
// selector.
func adopt(s *importer.Service, m match) {
	s.Runtime, s.Model, s.Selector, s.Metric = m.p.Runtime, m.model, m.selector, ""
	if newest, _ := profile.ByRuntime(m.p.Runtime); newest.Since != m.p.Since {
		s.Version = m.p.Since
	}
	note := fmt.Sprintf("runtime %q, read from the queries of its SLOs (%s)", m.p.Runtime, m.what)
	if s.Version != "" {
		note += fmt.Sprintf(", version %q: the oldest release of the names and buckets they read", s.Version)
	}
	if m.model != "" {
		note += fmt.Sprintf("; model %q from their %s matcher", m.model, m.p.ModelLabel)
	}
	if len(m.selector) > 0 {
		note += fmt.Sprintf("; selector {%s} from their other matchers", selector(m.selector))
	}
	s.Notes.Changed = append([]string{note}, s.Notes.Changed...)
}

// become turns a ratio SLO into the match's kind.
func become(slo *importer.SLO, m match) {
	kind := string(m.kind)
	slo.Kind, slo.Threshold, slo.Bad, slo.Total = kind, m.threshold, "", ""
	if slo.Name == kind+"-ratio" && strings.EqualFold(slo.From, kind) {
		unrename(slo, kind)
	}
	slo.Notes.Exact = slices.DeleteFunc(slo.Notes.Exact, importer.QueryNote)
	slo.Notes.Changed = slices.DeleteFunc(slo.Notes.Changed, importer.QueryNote)
	threshold := ""
	if m.threshold != "" {
		threshold = " with threshold " + m.threshold
	}
	slo.Notes.Changed = append([]string{fmt.Sprintf("sli: its queries are %s: a %s SLO%s, whose queries slogen writes from the runtime table (the same series)", m.what, kind, threshold)}, slo.Notes.Changed...)
}

func selector(ls []importer.Label) string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s=%q", l.Key, l.Value))
	}
	return strings.Join(out, ", ")
}

// unrename gives back the name of an SLO that named its kind, which the
// importer renamed while it was a ratio SLO, and its notes with it.
func unrename(slo *importer.SLO, kind string) {
	renamed := fmt.Sprintf("is %q", slo.Name)
	slo.Notes.Changed = slices.DeleteFunc(slo.Notes.Changed, func(n string) bool { return strings.Contains(n, renamed) })
	for i, n := range slo.Notes.Changed {
		slo.Notes.Changed[i] = strings.ReplaceAll(n, fmt.Sprintf("slo=%q", slo.Name), fmt.Sprintf("slo=%q", kind))
	}
	slo.Name = kind
}
