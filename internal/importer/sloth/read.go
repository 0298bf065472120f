// Package sloth reads Sloth's SLO specs, the prometheus/v1 file and the
// Kubernetes PrometheusServiceLevel resource, and writes them as a slogen
// spec with a report of what changed on the way.
//
// Field names are Sloth v0.16.0's: pkg/prometheus/api/v1/v1.go (snake_case
// YAML) and pkg/kubernetes/api/sloth/v1/types.go (camelCase JSON).
package sloth

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/importer"
)

// Service is one Sloth spec: a service and its SLOs.
type Service struct {
	At     Pos
	Name   string
	Labels []Label
	// Plugins are the ids of the service's slo_plugins chain.
	Plugins []string
	SLOs    []SLO
}

// SLO is one Sloth SLO. Exactly one of the SLI fields is set.
type SLO struct {
	At           Pos
	Name         string
	Description  string
	Objective    float64
	ObjectiveAt  Pos
	ErrorQuery   string
	TotalQuery   string
	ErrorRatio   string // sli.raw
	SLIPlugin    string // sli.plugin's id
	Plugins      []string
	Labels       []Label
	AlertName    string
	AlertLabels  []Label
	Annotations  []Label
	Page, Ticket Alert
}

// Alert is Sloth's page_alert or ticket_alert.
type Alert struct {
	Disable     bool
	Labels      []Label
	Annotations []Label
}

// Pos, Label and Error are what every importer reports with.
type (
	Pos   = importer.Pos
	Label = importer.Label
	Error = importer.Error
)

// Read parses every YAML document of a file as a Sloth spec. It reports
// every problem it finds, not only the first.
func Read(file string, data []byte) ([]Service, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []Service
	var errs []error
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &Error{At: Pos{File: file}, Field: "yaml", Msg: err.Error()}
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			errs = append(errs, &Error{At: Pos{File: file, Line: doc.Line}, Field: "document", Msg: "want a Sloth spec (version: \"prometheus/v1\") or a PrometheusServiceLevel (apiVersion: sloth.slok.dev/v1)"})
			continue
		}
		r := &reader{Reader: importer.Reader{File: file}}
		if s, ok := r.document(doc.Content[0]); ok {
			out = append(out, s)
		}
		errs = append(errs, r.Errs...)
	}
	if len(out) == 0 && len(errs) == 0 {
		errs = append(errs, &Error{At: Pos{File: file, Line: 1}, Field: "document", Msg: "the file holds no Sloth spec"})
	}
	return out, errors.Join(errs...)
}

// reader walks one document, collecting errors with their lines.
type reader struct {
	importer.Reader
	keys keys
}

func (r *reader) document(n *yaml.Node) (Service, bool) {
	m := importer.Mapping(n)
	if v := m["apiVersion"]; v != nil {
		return r.resource(n, v)
	}
	v := m["version"]
	if v == nil || v.Value != "prometheus/v1" {
		at := n
		if v != nil {
			at = v
		}
		r.Errorf(at, "version", `want "prometheus/v1" (Sloth's spec) or apiVersion: sloth.slok.dev/v1 with kind: PrometheusServiceLevel; an OpenSLO file's first document has apiVersion: openslo/v1`)
		return Service{}, false
	}
	r.keys = snakeKeys
	r.fields(n, "", "version", "service", "labels", "slo_plugins", "slos")
	return r.service(n, ""), true
}

// resource reads the Kubernetes PrometheusServiceLevel: its spec is the
// same service, with camelCase field names.
func (r *reader) resource(n, apiVersion *yaml.Node) (Service, bool) {
	m := importer.Mapping(n)
	if apiVersion.Value != "sloth.slok.dev/v1" || m["kind"] == nil || m["kind"].Value != "PrometheusServiceLevel" {
		r.Errorf(apiVersion, "apiVersion", "want apiVersion: sloth.slok.dev/v1 and kind: PrometheusServiceLevel")
		return Service{}, false
	}
	r.keys = camelKeys
	r.fields(n, "", "apiVersion", "kind", "metadata", "spec", "status")
	spec := m["spec"]
	if spec == nil {
		r.Errorf(n, "spec", "missing: the resource's spec holds the service and its SLOs")
		return Service{}, false
	}
	r.fields(spec, "spec.", "service", "labels", "sloPlugins", "slos")
	return r.service(spec, "spec."), true
}

func (r *reader) service(n *yaml.Node, path string) Service {
	m := importer.Mapping(n)
	s := Service{At: r.Pos(n)}
	s.Name = r.Str(n, m, path, "service", true)
	s.Labels = r.labels(m["labels"], path+"labels")
	s.Plugins = r.plugins(m[r.keys.sloPlugins], path+r.keys.sloPlugins)
	slos := m["slos"]
	if slos == nil || slos.Kind != yaml.SequenceNode || len(slos.Content) == 0 {
		r.Errorf(n, path+"slos", "missing or empty: a list of SLOs, each with name, objective, sli and alerting")
		return s
	}
	for i, e := range slos.Content {
		s.SLOs = append(s.SLOs, r.slo(e, fmt.Sprintf("%sslos[%d]", path, i)))
	}
	return s
}

func (r *reader) slo(n *yaml.Node, path string) SLO {
	m := importer.Mapping(n)
	r.fields(n, path+".", "name", "description", "objective", "plugins", "labels", "sli", "alerting")
	s := SLO{At: r.Pos(n)}
	s.Name = r.Str(n, m, path+".", "name", true)
	s.Description = r.Str(n, m, path+".", "description", false)
	s.Objective, s.ObjectiveAt = r.objective(n, m["objective"], path+".objective")
	s.Plugins = r.plugins(m["plugins"], path+".plugins")
	s.Labels = r.labels(m["labels"], path+".labels")
	r.sli(&s, n, m["sli"], path+".sli")
	r.alerting(&s, m["alerting"], path+".alerting")
	return s
}

func (r *reader) objective(parent, n *yaml.Node, field string) (float64, Pos) {
	if n == nil {
		r.Errorf(parent, field, "missing: the share of good events in percent, e.g. 99.9")
		return 0, r.Pos(parent)
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || n.Kind != yaml.ScalarNode || v <= 0 || v > 100 {
		r.Errorf(n, field, "want a percentage in (0, 100], e.g. 99.9 (got %q)", n.Value)
	}
	return v, r.Pos(n)
}

func (r *reader) sli(s *SLO, parent, n *yaml.Node, path string) {
	if n == nil {
		r.Errorf(parent, path, "missing: one of events, raw or plugin")
		return
	}
	r.fields(n, path+".", "events", "raw", "plugin")
	m := importer.Mapping(n)
	set := 0
	if e := m["events"]; e != nil {
		set++
		r.fields(e, path+".events.", r.keys.errorQuery, r.keys.totalQuery)
		em := importer.Mapping(e)
		s.ErrorQuery = r.Str(e, em, path+".events.", r.keys.errorQuery, true)
		s.TotalQuery = r.Str(e, em, path+".events.", r.keys.totalQuery, true)
	}
	if e := m["raw"]; e != nil {
		set++
		r.fields(e, path+".raw.", r.keys.errorRatioQuery)
		s.ErrorRatio = r.Str(e, importer.Mapping(e), path+".raw.", r.keys.errorRatioQuery, true)
	}
	if e := m["plugin"]; e != nil {
		set++
		r.fields(e, path+".plugin.", "id", "options")
		s.SLIPlugin = r.Str(e, importer.Mapping(e), path+".plugin.", "id", true)
	}
	if set != 1 {
		r.Errorf(n, path, "want exactly one of events, raw or plugin (got %d)", set)
	}
}

func (r *reader) alerting(s *SLO, n *yaml.Node, path string) {
	if n == nil {
		return
	}
	r.fields(n, path+".", "name", "labels", "annotations", r.keys.pageAlert, r.keys.ticketAlert)
	m := importer.Mapping(n)
	s.AlertName = r.Str(n, m, path+".", "name", false)
	s.AlertLabels = r.labels(m["labels"], path+".labels")
	s.Annotations = r.labels(m["annotations"], path+".annotations")
	s.Page = r.alert(m[r.keys.pageAlert], path+"."+r.keys.pageAlert)
	s.Ticket = r.alert(m[r.keys.ticketAlert], path+"."+r.keys.ticketAlert)
}

func (r *reader) alert(n *yaml.Node, path string) Alert {
	if n == nil {
		return Alert{}
	}
	r.fields(n, path+".", "disable", "labels", "annotations")
	m := importer.Mapping(n)
	a := Alert{Labels: r.labels(m["labels"], path+".labels"), Annotations: r.labels(m["annotations"], path+".annotations")}
	if d := m["disable"]; d != nil {
		v, err := strconv.ParseBool(d.Value)
		if err != nil {
			r.Errorf(d, path+".disable", "want true or false (got %q)", d.Value)
		}
		a.Disable = v
	}
	return a
}

// plugins reads a plugins block: {overridePrevious, chain: [{id, ...}]}.
func (r *reader) plugins(n *yaml.Node, path string) []string {
	if n == nil {
		return nil
	}
	chain := importer.Mapping(n)["chain"]
	if chain == nil || chain.Kind != yaml.SequenceNode {
		r.Errorf(n, path+".chain", "want a list of plugins, each with an id")
		return nil
	}
	var ids []string
	for i, p := range chain.Content {
		ids = append(ids, r.Str(p, importer.Mapping(p), fmt.Sprintf("%s.chain[%d].", path, i), "id", true))
	}
	return ids
}

func (r *reader) labels(n *yaml.Node, path string) []Label {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		r.Errorf(n, path, "want a map of label names to values")
		return nil
	}
	var out []Label
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			r.Errorf(v, path+"."+k.Value, "want a string value")
			continue
		}
		out = append(out, Label{Key: k.Value, Value: v.Value, At: r.Pos(k)})
	}
	return out
}

// fields reports every key of n that Sloth does not define, so that a
// misspelt field is not silently dropped.
func (r *reader) fields(n *yaml.Node, path string, known ...string) {
	if n.Kind != yaml.MappingNode {
		r.Errorf(n, path, "want a map")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(known, k.Value) {
			r.Errorf(k, path+k.Value, "not a field Sloth v0.16.0 knows here%s; the fields are %s", otherFormat(k.Value), strings.Join(known, ", "))
		}
	}
}

// keys are the field names that differ between Sloth's two formats.
type keys struct {
	errorQuery, totalQuery, errorRatioQuery, pageAlert, ticketAlert, sloPlugins string
}

var (
	snakeKeys = keys{"error_query", "total_query", "error_ratio_query", "page_alert", "ticket_alert", "slo_plugins"}
	camelKeys = keys{"errorQuery", "totalQuery", "errorRatioQuery", "pageAlert", "ticketAlert", "sloPlugins"}
)

// otherFormat hints at the spelling of the other format: Sloth's file is
// snake_case, its Kubernetes resource camelCase.
func otherFormat(key string) string {
	for i, snake := range snakeKeys.list() {
		camel := camelKeys.list()[i]
		switch key {
		case snake:
			return fmt.Sprintf(" (a PrometheusServiceLevel spells it %s)", camel)
		case camel:
			return fmt.Sprintf(` (a version: "prometheus/v1" file spells it %s)`, snake)
		}
	}
	return ""
}

func (k keys) list() []string {
	return []string{k.errorQuery, k.totalQuery, k.errorRatioQuery, k.pageAlert, k.ticketAlert, k.sloPlugins}
}
