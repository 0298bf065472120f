package openslo

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/importer"
)

// policy is an AlertPolicy (README.md, AlertPolicy), its conditions
// resolved.
type policy struct {
	At                          importer.Pos
	Name                        string
	NoData, Resolved, Breaching bool
	Conditions                  []condition
	Targets                     int
}

// condition is an AlertCondition (README.md, AlertCondition).
type condition struct {
	At         importer.Pos
	Name       string
	Severity   string
	Kind       string // burnrate, the default
	Op         string
	Threshold  float64
	Lookback   string
	AlertAfter string
}

// policies reads spec.alertPolicies: each an alertPolicyRef or an inline
// AlertPolicy.
func (r *reader) policies(n *yaml.Node, path string, ix index) []policy {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.Errorf(n, path, "want a list of alert policies")
		return nil
	}
	var out []policy
	for i, e := range n.Content {
		if o, ok := r.refOrInline(e, fmt.Sprintf("%s[%d].", path, i), "AlertPolicy", "alertPolicyRef", "policy", ix); ok {
			out = append(out, r.policyIn(o, ix))
		}
	}
	return out
}

// policyIn reads an AlertPolicy's spec. It is read where it is, so an
// error names the policy's own file.
func (r *reader) policyIn(o Object, ix index) policy {
	in := &reader{Reader: importer.Reader{File: o.At.File}}
	defer func() { r.Errs = append(r.Errs, in.Errs...) }()
	path := o.Path + "spec."
	in.fields(o.Spec, path, "description", "alertWhenNoData", "alertWhenResolved", "alertWhenBreaching", "conditions", "notificationTargets")
	m := importer.Mapping(o.Spec)
	p := policy{At: o.At, Name: o.Name, NoData: value(m["alertWhenNoData"]) == "true", Resolved: value(m["alertWhenResolved"]) == "true", Breaching: value(m["alertWhenBreaching"]) == "true"}
	if t := m["notificationTargets"]; t != nil {
		p.Targets = len(t.Content)
	}
	conds := m["conditions"]
	if conds == nil || conds.Kind != yaml.SequenceNode || len(conds.Content) == 0 {
		in.Errorf(o.Spec, path+"conditions", "missing or empty: one condition, inline or a conditionRef")
		return p
	}
	for i, e := range conds.Content {
		if c, ok := in.refOrInline(e, fmt.Sprintf("%sconditions[%d].", path, i), "AlertCondition", "conditionRef", "condition", ix); ok {
			p.Conditions = append(p.Conditions, in.condition(c))
		}
	}
	return p
}

func (r *reader) condition(o Object) condition {
	in := &reader{Reader: importer.Reader{File: o.At.File}}
	defer func() { r.Errs = append(r.Errs, in.Errs...) }()
	path := o.Path + "spec."
	in.fields(o.Spec, path, "description", "severity", "condition")
	m := importer.Mapping(o.Spec)
	c := condition{At: o.At, Name: o.Name, Severity: in.Str(o.Spec, m, path, "severity", true), Kind: "burnrate"}
	cn := m["condition"]
	if cn == nil {
		in.Errorf(o.Spec, path+"condition", "missing: kind, op, threshold, lookbackWindow")
		return c
	}
	path += "condition."
	in.fields(cn, path, "kind", "op", "threshold", "lookbackWindow", "alertAfter")
	cm := importer.Mapping(cn)
	if k := value(cm["kind"]); k != "" {
		c.Kind = k
	}
	if c.Kind != "burnrate" {
		return c
	}
	c.Op = in.Str(cn, cm, path, "op", true)
	c.Lookback = in.Str(cn, cm, path, "lookbackWindow", true)
	c.AlertAfter = value(cm["alertAfter"])
	for _, d := range []struct{ key, v string }{{"lookbackWindow", c.Lookback}, {"alertAfter", c.AlertAfter}} {
		if d.v != "" && !shorthand.MatchString(d.v) {
			in.Errorf(cm[d.key], path+d.key, "want a duration shorthand, e.g. 1h (got %q)", d.v)
		}
	}
	t, err := strconv.ParseFloat(in.Str(cn, cm, path, "threshold", true), 64)
	if err != nil && cm["threshold"] != nil {
		in.Errorf(cm["threshold"], path+"threshold", "want a burn rate, e.g. 14.4 (got %q)", cm["threshold"].Value)
	}
	c.Threshold = t
	return c
}

// refOrInline is the object a list entry names by its refKey, of kind,
// or else the entry itself, inline; false, with the error reported, when
// the name is of no object imported or the entry is no object.
func (r *reader) refOrInline(e *yaml.Node, path, kind, refKey, noun string, ix index) (Object, bool) {
	ref := importer.Mapping(e)[refKey]
	if ref == nil {
		return r.object(e, path, false)
	}
	o, ok := ix.ref(kind, ref.Value)
	if !ok {
		r.Errorf(ref, path+refKey, "no %s %q in the files imported; add it, or inline the %s", kind, ref.Value, noun)
	}
	return o, ok
}
