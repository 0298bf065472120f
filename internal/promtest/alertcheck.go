package promtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
)

// alertChecks schedules a test group's alert_rule_test cases. promtool
// checks the cases with eval_time in [ts, ts+evaluation_interval) right
// after the evaluation at ts.
type alertChecks struct {
	times  []model.Duration // distinct eval times, ascending
	byTime map[model.Duration][]alertTestCase
	next   int // index into times of the next check
}

func newAlertChecks(tg *testGroup) (*alertChecks, error) {
	c := &alertChecks{byTime: map[model.Duration][]alertTestCase{}}
	for _, tc := range tg.AlertRuleTests {
		if tc.Alertname == "" {
			var in string
			if tg.Name != "" {
				in = fmt.Sprintf(" (in TestGroup %s)", tg.Name)
			}
			return nil, fmt.Errorf("an item under alert_rule_test misses required attribute alertname at eval_time %v%s", tc.EvalTime, in)
		}
		if _, ok := c.byTime[tc.EvalTime]; !ok {
			c.times = append(c.times, tc.EvalTime)
		}
		c.byTime[tc.EvalTime] = append(c.byTime[tc.EvalTime], tc)
	}
	slices.Sort(c.times)
	return c, nil
}

// run checks every case due after the evaluation at offset since the
// start of the test (ts - mint).
func (c *alertChecks) run(offset, every time.Duration, groups []*group, testName string) []error {
	var errs []error
	for c.next < len(c.times) {
		t := time.Duration(c.times[c.next])
		if t < offset || t >= offset+every {
			break
		}
		cases := c.byTime[c.times[c.next]]
		got := firingAlerts(groups, cases)
		for _, tc := range cases {
			if err := compareAlerts(tc, got[tc.Alertname], testName); err != nil {
				errs = append(errs, err)
			}
		}
		c.next++
	}
	return errs
}

// firingAlerts collects the firing alerts of every rule named in cases;
// one alert name may be used in several groups.
func firingAlerts(groups []*group, cases []alertTestCase) map[string]labelsAndAnnotations {
	names := map[string]bool{}
	for _, tc := range cases {
		names[tc.Alertname] = true
	}
	got := map[string]labelsAndAnnotations{}
	for _, g := range groups {
		for _, r := range g.rules {
			if ar, ok := r.(*alertingRule); ok && names[ar.name] {
				got[ar.name] = append(got[ar.name], ar.firing()...)
			}
		}
	}
	return got
}

// compareAlerts compares sorted expected and firing alerts and words a
// mismatch as promtool does.
func compareAlerts(tc alertTestCase, got labelsAndAnnotations, testName string) error {
	var exp labelsAndAnnotations
	for _, a := range tc.ExpAlerts {
		// Users leave out alertname; Prometheus adds it to every alert.
		lm := mergeMaps(a.ExpLabels, map[string]string{labels.AlertName: tc.Alertname})
		exp = append(exp, labelAndAnnotation{Labels: labels.FromMap(lm), Annotations: labels.FromMap(a.ExpAnnotations)})
	}
	exp.sort()
	got.sort()
	if slices.EqualFunc(exp, got, labelAndAnnotation.equal) {
		return nil
	}
	var name string
	if testName != "" {
		name = fmt.Sprintf("    name: %s,\n", testName)
	}
	const indent = "            "
	return fmt.Errorf("%s    alertname: %s, time: %s, \n        exp:%v, \n        got:%v",
		name, tc.Alertname, tc.EvalTime, indentLines(exp.String(), indent), indentLines(got.String(), indent))
}

type labelAndAnnotation struct {
	Labels      labels.Labels
	Annotations labels.Labels
}

func (la labelAndAnnotation) equal(o labelAndAnnotation) bool {
	return labels.Equal(la.Labels, o.Labels) && labels.Equal(la.Annotations, o.Annotations)
}

func (la labelAndAnnotation) String() string {
	return "Labels:" + la.Labels.String() + "\nAnnotations:" + la.Annotations.String()
}

type labelsAndAnnotations []labelAndAnnotation

func (la labelsAndAnnotations) sort() {
	slices.SortFunc(la, func(a, b labelAndAnnotation) int {
		if c := labels.Compare(a.Labels, b.Labels); c != 0 {
			return c
		}
		return labels.Compare(a.Annotations, b.Annotations)
	})
}

// String lists the alerts numbered, one field per line, as promtool does.
func (la labelsAndAnnotations) String() string {
	if len(la) == 0 {
		return "[]"
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, l := range la {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(strconv.Itoa(i) + ":" + indentLines("\n"+l.String(), "  "))
	}
	b.WriteString("\n]")
	return b.String()
}

// indentLines prefixes every line but the first with indent.
func indentLines(lines, indent string) string {
	return strings.ReplaceAll(lines, "\n", "\n"+indent)
}
