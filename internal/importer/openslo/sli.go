package openslo

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/importer"
)

// sli is an SLI's metric: a ratio (good or bad over total), a raw
// precomputed ratio, or a threshold metric (README.md, SLI).
type sli struct {
	At   importer.Pos
	Name string
	// Counter is ratioMetric.counter: the queries read counters.
	Counter               bool
	Good, Bad, Total, Raw *source
	RawFailure            bool // rawType: failure
	Threshold             *source
}

// source is a metricSource's Prometheus query.
type source struct {
	At    importer.Pos
	Field string
	Query string
}

// indicator reads an SLI object's spec: exactly one of ratioMetric and
// thresholdMetric, each query from a Prometheus source.
func (r *reader) indicator(o Object, ix index) (sli, bool) {
	path := o.Path + "spec."
	r.fields(o.Spec, path, "description", "thresholdMetric", "ratioMetric")
	m := importer.Mapping(o.Spec)
	s := sli{At: o.At, Name: o.Name}
	ratio, threshold := m["ratioMetric"], m["thresholdMetric"]
	if (ratio == nil) == (threshold == nil) {
		r.Errorf(o.Spec, path+"ratioMetric", "want exactly one of ratioMetric and thresholdMetric")
		return s, false
	}
	before := len(r.Errs)
	if threshold != nil {
		r.fields(threshold, path+"thresholdMetric.", "metricSource")
		s.Threshold = r.source(threshold, path+"thresholdMetric.", ix)
		return s, len(r.Errs) == before
	}
	r.ratio(&s, ratio, path+"ratioMetric.", ix)
	return s, len(r.Errs) == before
}

func (r *reader) ratio(s *sli, n *yaml.Node, path string, ix index) {
	r.fields(n, path, "counter", "good", "bad", "total", "rawType", "raw")
	m := importer.Mapping(n)
	if c := m["counter"]; c != nil {
		switch c.Value {
		case "true":
			s.Counter = true
		case "false":
		default:
			r.Errorf(c, path+"counter", "want true or false (got %q)", c.Value)
		}
	}
	if m["raw"] != nil {
		if m["good"] != nil || m["bad"] != nil || m["total"] != nil {
			r.Errorf(m["raw"], path+"raw", "raw cannot be used with good, bad or total")
		}
		s.Raw = r.source(m["raw"], path+"raw.", ix)
		t := m["rawType"]
		if t == nil || (t.Value != "success" && t.Value != "failure") {
			r.Errorf(n, path+"rawType", "want success or failure: how the raw ratio was computed")
			return
		}
		s.RawFailure = t.Value == "failure"
		return
	}
	if (m["good"] == nil) == (m["bad"] == nil) {
		r.Errorf(n, path+"good", "want exactly one of good and bad, with total")
	}
	if m["total"] == nil {
		r.Errorf(n, path+"total", "missing: the denominator of good or bad")
	}
	for key, dst := range map[string]**source{"good": &s.Good, "bad": &s.Bad, "total": &s.Total} {
		if m[key] != nil {
			*dst = r.source(m[key], path+key+".", ix)
		}
	}
}

// source reads {metricSource: {metricSourceRef, type, spec: {query}}}:
// the type is given or the DataSource's, and must be Prometheus.
func (r *reader) source(n *yaml.Node, path string, ix index) *source {
	r.fields(n, path, "metricSource")
	ms := importer.Mapping(n)["metricSource"]
	if ms == nil {
		r.Errorf(n, path+"metricSource", "missing")
		return nil
	}
	path += "metricSource."
	r.fields(ms, path, "metricSourceRef", "type", "spec")
	m := importer.Mapping(ms)
	typ, at, field := "", ms, path+"type"
	if t := m["type"]; t != nil {
		typ, at = t.Value, t
	} else if ref := m["metricSourceRef"]; ref != nil {
		ds, ok := ix.ref("DataSource", ref.Value)
		if !ok {
			r.Errorf(ref, path+"metricSourceRef", "no DataSource %q in the files imported; add it, or give type: Prometheus here", ref.Value)
			return nil
		}
		at, field = ref, path+"metricSourceRef"
		if t := importer.Mapping(ds.Spec)["type"]; t != nil {
			typ = t.Value
		}
	}
	switch {
	case typ == "":
		r.Errorf(ms, path+"type", "missing: type Prometheus, or a metricSourceRef naming a Prometheus DataSource")
		return nil
	case !strings.EqualFold(typ, "prometheus"):
		r.Errorf(at, field, "a %q source: slogen reads Prometheus queries only; rewrite this SLI's queries in PromQL with type: Prometheus, or leave its SLO out of the import", typ)
		return nil
	}
	q := r.Str(ms, importer.Mapping(m["spec"]), path+"spec.", "query", true)
	if m["spec"] == nil || q == "" {
		return nil
	}
	return &source{At: r.Pos(importer.Mapping(m["spec"])["query"]), Field: path + "spec.query", Query: q}
}
