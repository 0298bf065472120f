package promtest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

// ruleParser parses rule expressions and expected sample labels with
// promtool's default parser options (no feature flags).
var ruleParser = parser.NewParser(parser.Options{})

// ruleFile is a parsed and validated rule file. Rules carry evaluation
// state, so each test group builds fresh ones from it with newGroups.
type ruleFile struct {
	path   string
	groups []rulefmt.RuleGroup
}

// loadRuleFiles parses the rule files. Legacy name validation keeps the
// verdicts of Prometheus 2.x, which rejects UTF-8 metric and label names.
func loadRuleFiles(paths []string) ([]ruleFile, error) {
	var files []ruleFile
	seen := map[string]bool{}
	for _, p := range paths {
		// promtool keys groups by file and name, so a file listed twice
		// is evaluated once.
		if seen[p] {
			continue
		}
		seen[p] = true
		rgs, errs := rulefmt.ParseFile(p, false, model.LegacyValidation, ruleParser, promslog.NewNopLogger())
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		files = append(files, ruleFile{path: p, groups: rgs.Groups})
	}
	return files, nil
}

// alertContext is what alert templates can see besides the sample.
type alertContext struct {
	externalLabels map[string]string
	externalURL    string
}

// newGroups builds evaluable groups in file order and rule order, then
// applies group_eval_order. Each group's `interval` is ignored: promtool
// evaluates every group at every evaluation_interval step.
func newGroups(files []ruleFile, order map[string]int, ac alertContext) ([]*group, error) {
	var groups []*group
	for _, f := range files {
		for _, rg := range f.groups {
			g, err := newGroup(f.path, rg, ac)
			if err != nil {
				return nil, err
			}
			groups = append(groups, g)
		}
	}
	// promtool sorts groups by their position in group_eval_order, with
	// unlisted groups at position 0; a stable sort keeps file order for ties.
	slices.SortStableFunc(groups, func(a, b *group) int { return order[a.name] - order[b.name] })
	return groups, nil
}

func newGroup(file string, rg rulefmt.RuleGroup, ac alertContext) (*group, error) {
	g := &group{name: rg.Name, file: file, limit: rg.Limit}
	if rg.QueryOffset != nil {
		g.queryOffset = time.Duration(*rg.QueryOffset)
	}
	for _, r := range rg.Rules {
		expr, err := ruleParser.ParseExpr(r.Expr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		// Rule labels override group labels, as rules.FromMaps does.
		lset := labels.FromMap(mergeMaps(rg.Labels, r.Labels))
		if r.Alert != "" {
			g.rules = append(g.rules, newAlertingRule(r, expr.String(), lset, ac))
			continue
		}
		g.rules = append(g.rules, &recordingRule{metric: r.Record, expr: expr.String(), labels: lset})
	}
	g.prevSeries = make([]map[string]labels.Labels, len(g.rules))
	return g, nil
}

func mergeMaps(base, over map[string]string) map[string]string {
	m := maps.Clone(base)
	if m == nil {
		m = map[string]string{}
	}
	maps.Copy(m, over)
	return m
}

// evalOrder indexes group_eval_order, rejecting repeats as promtool does.
func evalOrder(names []string) (map[string]int, error) {
	order := make(map[string]int, len(names))
	for i, n := range names {
		if _, ok := order[n]; ok {
			return nil, fmt.Errorf("group name repeated in evaluation order: %s", n)
		}
		order[n] = i
	}
	return order, nil
}
