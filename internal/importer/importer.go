// Package importer is what slogen import's readers share: the positions
// and errors they report, and the services they convert to, which it
// writes as one commented CUE spec with a report of what changed.
// internal/importer/sloth and internal/importer/openslo read the formats;
// internal/importer/recognise turns queries of a runtime's metrics into
// that runtime's kinds.
package importer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Pos is a place in an input file.
type Pos struct {
	File string
	Line int
}

func (p Pos) String() string { return p.File + ":" + strconv.Itoa(p.Line) }

// Error is a problem in an input file: where, which field, what to do.
type Error struct {
	At    Pos
	Field string
	Msg   string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s: %s", e.At, e.Field, e.Msg) }

// Label is a key and value, in the file's order, with where it was.
type Label struct {
	Key, Value string
	At         Pos
}

// Notes is the report for one service or SLO.
type Notes struct {
	Exact, Changed, Dropped []string
}

// Service is one imported service as slogen's spec will hold it.
type Service struct {
	At Pos
	// Origin names the format, "Sloth" or "OpenSLO", for comments.
	Origin string
	From   string // the service's name in the input
	Name   string
	Team   string
	// Runtime is "custom" until recognise finds a runtime's metrics in
	// the queries; Version, Model and Selector come with it.
	Runtime  string
	Version  string
	Model    string
	Selector []Label
	// Metric is custom's metrics.requests.
	Metric  string
	Labels  []Label
	Page    string // alerting.page_severity, "" for slogen's default
	Ticket  string
	Runbook string
	// For is alerting.for, and ForWhy the comment that says why.
	For    []Label
	ForWhy string
	SLOs   []SLO
	Notes  Notes
}

// SLO is one imported SLO; Skip says it was left out, and its Notes why.
type SLO struct {
	At   Pos
	From string // the SLO's name in the input
	Name string // its key in slogen's spec
	// Kind is "ratio", or a runtime's kind that recognise found.
	Kind        string
	Objective   float64
	Window      string // "" for slogen's default, 30d
	Threshold   string
	Description string
	Bad, Total  string
	Skip        bool
	Notes       Notes
}

// Empty says no SLO of the service could be carried.
func (s Service) Empty() bool {
	return !slices.ContainsFunc(s.SLOs, func(s SLO) bool { return !s.Skip })
}

// Unique refuses two services, or two SLOs of a service, that slogen
// would name alike.
func Unique(services []Service) error {
	seen := map[string]Pos{}
	for _, s := range services {
		if at, dup := seen[s.Name]; dup {
			return &Error{At: s.At, Field: "service", Msg: fmt.Sprintf("%q is also the service at %s; slogen needs a name per service: rename one", s.Name, at)}
		}
		seen[s.Name] = s.At
		slos := map[string]Pos{}
		for _, slo := range s.SLOs {
			if at, dup := slos[slo.Name]; dup && !slo.Skip {
				return &Error{At: slo.At, Field: "name", Msg: fmt.Sprintf("SLO %q of service %q is also the SLO at %s; rename one", slo.Name, s.Name, at)}
			}
			slos[slo.Name] = slo.At
		}
	}
	return nil
}

// QueryNote says a note is about how an SLO's queries were carried,
// which no longer holds once recognise writes the runtime's own: the
// notes on sli.events (Sloth), ratioMetric and a query's field (OpenSLO).
func QueryNote(note string) bool {
	return strings.HasPrefix(note, "sli.events:") || strings.HasPrefix(note, "ratioMetric ") || strings.Contains(note, "metricSource.spec.query (")
}
