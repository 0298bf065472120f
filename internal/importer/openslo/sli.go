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
	m := mapping(o.Spec)
	s := sli{At: o.At, Name: o.Name}
	ratio, threshold := m["ratioMetric"], m["thresholdMetric"]
	if (ratio == nil) == (threshold == nil) {
		r.errorf(o.Spec, path+"ratioMetric", "want exactly one of ratioMetric and thresholdMetric")
		return s, false
	}
	before := len(r.errs)
	if threshold != nil {
		r.fields(threshold, path+"thresholdMetric.", "metricSource")
		s.Threshold = r.source(threshold, path+"thresholdMetric.", ix)
		return s, len(r.errs) == before
	}
	r.ratio(&s, ratio, path+"ratioMetric.", ix)
	return s, len(r.errs) == before
}

func (r *reader) ratio(s *sli, n *yaml.Node, path string, ix index) {
	r.fields(n, path, "counter", "good", "bad", "total", "rawType", "raw")
	m := mapping(n)
	if c := m["counter"]; c != nil {
		switch c.Value {
		case "true":
			s.Counter = true
		case "false":
		default:
			r.errorf(c, path+"counter", "want true or false (got %q)", c.Value)
		}
	}
	if m["raw"] != nil {
		if m["good"] != nil || m["bad"] != nil || m["total"] != nil {
			r.errorf(m["raw"], path+"raw", "raw cannot be used with good, bad or total")
		}
		s.Raw = r.source(m["raw"], path+"raw.", ix)
		t := m["rawType"]
		if t == nil || (t.Value != "success" && t.Value != "failure") {
			r.errorf(n, path+"rawType", "want success or failure: how the raw ratio was computed")
			return
		}
		s.RawFailure = t.Value == "failure"
		return
	}
	if (m["good"] == nil) == (m["bad"] == nil) {
		r.errorf(n, path+"good", "want exactly one of good and bad, with total")
	}
	if m["total"] == nil {
		r.errorf(n, path+"total", "missing: the denominator of good or bad")
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
	ms := mapping(n)["metricSource"]
	if ms == nil {
		r.errorf(n, path+"metricSource", "missing")
		return nil
	}
	path += "metricSource."
	r.fields(ms, path, "metricSourceRef", "type", "spec")
	m := mapping(ms)
	typ, at, field := "", ms, path+"type"
	if t := m["type"]; t != nil {
		typ, at = t.Value, t
	} else if ref := m["metricSourceRef"]; ref != nil {
		ds, ok := ix.ref("DataSource", ref.Value)
		if !ok {
			r.errorf(ref, path+"metricSourceRef", "no DataSource %q in the files imported; add it, or give type: Prometheus here", ref.Value)
			return nil
		}
		at, field = ref, path+"metricSourceRef"
		if t := mapping(ds.Spec)["type"]; t != nil {
			typ = t.Value
		}
	}
	switch {
	case typ == "":
		r.errorf(ms, path+"type", "missing: type Prometheus, or a metricSourceRef naming a Prometheus DataSource")
		return nil
	case !strings.EqualFold(typ, "prometheus"):
		r.errorf(at, field, "a %q source: slogen reads Prometheus queries only; rewrite this SLI's queries in PromQL with type: Prometheus, or leave its SLO out of the import", typ)
		return nil
	}
	q := r.str(ms, mapping(m["spec"]), path+"spec.", "query", true)
	if m["spec"] == nil || q == "" {
		return nil
	}
	return &source{At: r.pos(mapping(m["spec"])["query"]), Field: path + "spec.query", Query: q}
}
