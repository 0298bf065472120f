package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// defaultMaxGroups is how many values a group_by may take before
// SLOTooManyGroups fires, unless the spec says.
const defaultMaxGroups = 50

// churningLabel matches labels whose values change with every pod,
// process, replica, host, GPU or bucket: an SLO split by one would start
// new series at each restart and never hold a window's worth of any of
// them. Labels that name what users see (model_id, tenant_id) pass.
var churningLabel = regexp.MustCompile(`(?i)^((exported_|kubernetes_)?(pod|pod_name|pod_uid|pod_ip|instance|container|container_name|container_id|node|node_name|host|hostname|replica)|` +
	`le|gpu|uuid|gpu_uuid|engine|pid|id|uid|prometheus_replica|[a-z_]*_(uid|rank|pid|pod|ip))$`)

// groupBy checks an SLO's group_by labels: names Prometheus 2.42 reads,
// none that churn or that slogen sets, and, unless the SLO is a ratio
// whose queries state their own labels, only labels that every metric
// the SLI reads carries.
func (r *resolver) groupBy(slo model.SLO, raw rawSLO, p profile.Profile, scope profile.Scope, at func(...string) []string) ([]string, int) {
	if len(raw.GroupBy) == 0 {
		if raw.MaxGroups != 0 {
			r.errorf(at("max_groups"), "max_groups caps the values of group_by, which this SLO does not set; remove it or add group_by")
		}
		return nil, 0
	}
	ok := true
	for i, l := range raw.GroupBy {
		if !r.groupLabel(slo, l, slices.Contains(raw.GroupBy[:i], l), p, scope, at) {
			ok = false
		}
	}
	if !ok {
		return nil, 0
	}
	maxGroups := raw.MaxGroups
	if maxGroups == 0 {
		maxGroups = defaultMaxGroups
	}
	return slices.Sorted(slices.Values(raw.GroupBy)), maxGroups
}

// groupLabel reports whether one group_by label is usable, saying why
// not at the field.
func (r *resolver) groupLabel(slo model.SLO, l string, repeated bool, p profile.Profile, scope profile.Scope, at func(...string) []string) bool {
	fail := func(format string, args ...any) bool {
		r.errorf(at("group_by"), "%q: %s", l, fmt.Sprintf(format, args...))
		return false
	}
	modelLabel := l == p.ModelLabel || slices.Contains(p.ModelLabels, l)
	switch {
	case !promcompat.LegacyLabelName(l) || strings.HasPrefix(l, "__"):
		return fail("not a label name Prometheus 2.42 can read and keep: letters, digits and underscores, not starting with a digit or __")
	case repeated:
		return fail("listed twice; name each label once")
	case slices.Contains(reservedLabels, l) || l == "alertstate":
		return fail("slogen sets this label on every recording or alert; group by a label of your metrics")
	case slices.Contains(r.alertLabels, l):
		return fail("alerting.labels (or team) sets it on every alert, which would overwrite the value; group by another label or drop it from the alert labels")
	case !modelLabel && churningLabel.MatchString(l):
		return fail("its values change with every pod, process, host or bucket, so each restart would start new series and split the SLO; group by what users see, such as the model")
	case slices.ContainsFunc(scope.Selector, func(s labels.Label) bool { return s.Name == l }):
		return fail("the selector pins it to one value, so there is nothing to group; remove it from the selector or from group_by")
	case slo.Kind == model.Ratio:
		return ratioKeeps(slo, l, fail)
	case l == scope.ModelLabel && scope.Model != "":
		return fail("model: pins the service to one model, so there is nothing to group; remove model to split this SLO by %s", l)
	}
	for _, k := range readKinds(slo) {
		for _, sel := range p.Reads(k) {
			if !p.Carries(sel, l) {
				return fail("%s's %s SLI reads %s, which has no %s label; %s", p.Runtime, slo.Kind, sel.Name, l, groupableHint(p, k))
			}
		}
	}
	return true
}

// readKinds are the kinds whose metrics an SLO reads: a goodput SLO's
// bounds', or its own.
func readKinds(slo model.SLO) []model.Kind {
	if slo.Kind != model.Goodput {
		return []model.Kind{slo.Kind}
	}
	var ks []model.Kind
	for _, b := range slo.Bounds {
		ks = append(ks, b.Kind)
	}
	return ks
}

// groupableHint says what this kind can be grouped by, or what to do
// when nothing.
func groupableHint(p profile.Profile, k model.Kind) string {
	if ls := p.Groupable(k); len(ls) > 0 {
		return withArticle(string(k)) + " SLO can be grouped by " + strings.Join(ls, ", ")
	}
	var kinds, by []string
	for _, o := range model.Kinds {
		if ls := p.Groupable(o); o != model.Ratio && len(ls) > 0 {
			kinds = append(kinds, string(o))
			if by == nil {
				by = ls
			}
		}
	}
	if len(kinds) > 0 {
		return fmt.Sprintf("group %s SLO by %s instead, or write a ratio SLO whose queries keep the label", withArticle(orList(kinds)), strings.Join(by, ", "))
	}
	return "write a ratio SLO whose queries keep the label"
}

// withArticle is a word with "a" or "an" before it.
func withArticle(word string) string {
	if strings.ContainsAny(word[:1], "aeiou") {
		return "an " + word
	}
	return "a " + word
}

// orList joins words as prose: "a", "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// ratioKeeps reports whether both queries of a ratio SLO keep label l:
// their outermost aggregations must group by it, and nothing outside
// them may make series without it (vector(0)), or the split SLO's errors
// and requests would never match and its alerts never fire.
func ratioKeeps(slo model.SLO, l string, fail func(string, ...any) bool) bool {
	for _, q := range []struct {
		field string
		e     parser.Expr
	}{{"bad", slo.SLI.Errors}, {"total", slo.SLI.Requests}} {
		field, user := q.field, q.e
		if agg, ok := user.(*parser.AggregateExpr); ok { // RatioSLI's own sum around the query
			user = agg.Expr
		}
		if drops := dropsLabel(user, l); drops != "" {
			return fail("the %s query drops it in %s; keep it, e.g. sum by (%s) (...), and write no vector() outside the aggregation", field, drops, l)
		}
	}
	return true
}

// dropsLabel is the first part of e, outside any aggregation, that makes
// series without label l; empty when there is none.
func dropsLabel(e parser.Expr, l string) string {
	var found string
	parser.Inspect(e, func(n parser.Node, path []parser.Node) error {
		if found != "" || insideAggregation(path) {
			return nil
		}
		switch n := n.(type) {
		case *parser.AggregateExpr:
			if slices.Contains(n.Grouping, l) == n.Without {
				found = n.String()
			}
		case *parser.Call:
			if n.Func.Name == "vector" || n.Func.Name == "absent" || n.Func.Name == "absent_over_time" {
				found = n.String()
			}
		}
		return nil
	})
	return found
}

func insideAggregation(path []parser.Node) bool {
	return slices.ContainsFunc(path, func(n parser.Node) bool { _, ok := n.(*parser.AggregateExpr); return ok })
}
