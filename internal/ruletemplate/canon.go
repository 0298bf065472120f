package ruletemplate

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/promcompat"
)

// ruleFile is what a rule file holds, as Prometheus reads it.
type ruleFile struct {
	Groups []struct {
		Name        string            `yaml:"name"`
		Interval    string            `yaml:"interval"`
		Limit       int               `yaml:"limit"`
		QueryOffset string            `yaml:"query_offset"`
		Labels      map[string]string `yaml:"labels"`
		Rules       []struct {
			Record        string            `yaml:"record"`
			Alert         string            `yaml:"alert"`
			Expr          string            `yaml:"expr"`
			For           string            `yaml:"for"`
			KeepFiringFor string            `yaml:"keep_firing_for"`
			Labels        map[string]string `yaml:"labels"`
			Annotations   map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// rule is one rule of a file with the identity set aside: where it is,
// and each of its fields, its query parsed and printed again.
type rule struct {
	where  string
	fields [][2]string // name, value
}

// canonical parses a rule file and sets the identity's values aside in
// every group name, label, annotation and label matcher or string of
// every query: what is left is the file's template.
func canonical(data []byte, values []string) ([]rule, error) {
	var f ruleFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	var out []rule
	for _, g := range f.Groups {
		out = append(out, rule{where: fmt.Sprintf("group %q", g.Name), fields: [][2]string{
			{"name", asideValue(g.Name, values)}, {"interval", g.Interval}, {"limit", fmt.Sprint(g.Limit)},
			{"query_offset", g.QueryOffset}, {"labels", pairs(g.Labels, values)},
		}})
		for i, r := range g.Rules {
			expr, err := canonicalExpr(r.Expr, values)
			if err != nil {
				return nil, fmt.Errorf("group %q, rule %d: %w", g.Name, i+1, err)
			}
			out = append(out, rule{where: fmt.Sprintf("group %q, rule %d (%s)", g.Name, i+1, r.Record+r.Alert), fields: [][2]string{
				{"record", r.Record}, {"alert", r.Alert}, {"expr", expr}, {"for", r.For}, {"keep_firing_for", r.KeepFiringFor},
				{"labels", pairs(r.Labels, values)}, {"annotations", pairs(r.Annotations, values)},
			}})
		}
	}
	return out, nil
}

// canonicalExpr parses a query as Prometheus 2.42 does and prints it with
// the identity set aside in its label matchers and strings.
func canonicalExpr(text string, values []string) (string, error) {
	expr, err := promcompat.Parser().ParseExpr(text)
	if err != nil {
		return "", err
	}
	parser.Inspect(expr, func(n parser.Node, _ []parser.Node) error {
		switch n := n.(type) {
		case *parser.VectorSelector:
			for i, m := range n.LabelMatchers {
				n.LabelMatchers[i] = asideMatcher(m, values)
			}
		case *parser.StringLiteral:
			n.Val = asideValue(n.Val, values)
		}
		return nil
	})
	return expr.String(), nil
}

// asideMatcher is the matcher with the identity set aside in its value.
// It is only printed, so its pattern is not compiled.
func asideMatcher(m *labels.Matcher, values []string) *labels.Matcher {
	if m.Name == labels.MetricName {
		return m
	}
	aside := asideValue
	if m.Type == labels.MatchRegexp || m.Type == labels.MatchNotRegexp {
		aside = asidePattern
	}
	v := aside(m.Value, values)
	return &labels.Matcher{Type: m.Type, Name: m.Name, Value: v}
}

// pairs prints a label set with the identity set aside in its values.
func pairs(m map[string]string, values []string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s: %s\n", k, asideValue(m[k], values))
	}
	return b.String()
}
