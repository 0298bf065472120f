package gputests

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"strings"
)

// action is one template action of an annotation: an escaped brace, a
// label of the alert, or its value through a function.
var action = regexp.MustCompile(`\{\{ ("\{\{"|"\}\}"|\$labels\.(\w+)|\$value \| (\w+)) \}\}`)

// expanded is what Prometheus makes of an alert's annotation templates
// for an alert with labels ls and value v, worked out here from the
// templates' few actions, not by Prometheus's template engine: a template
// that names a label the alert lacks, or a function Prometheus lacks,
// renders otherwise there and fails the test. An action this cannot
// predict is written into the expectation, so that the test fails too.
func expanded(templates, ls map[string]string, v func() (float64, bool)) map[string]string {
	out := maps.Clone(templates)
	for k, t := range templates {
		var problems []string
		s := action.ReplaceAllStringFunc(t, func(a string) string {
			m := action.FindStringSubmatch(a)
			switch {
			case m[1] == `"{{"`, m[1] == `"}}"`:
				return m[1][1:3]
			case m[2] != "":
				if l, ok := ls[m[2]]; ok {
					return l
				}
				problems = append(problems, "the alert has no label "+m[2])
			default:
				if s, ok := humanized(m[3], v); ok {
					return s
				}
				problems = append(problems, "no prediction of $value | "+m[3])
			}
			return a
		})
		if strings.Contains(action.ReplaceAllString(t, ""), "{{") {
			problems = append(problems, "an action it cannot predict")
		}
		if len(problems) > 0 {
			s = fmt.Sprintf("<slogen cannot predict %s: %s>", k, strings.Join(problems, "; "))
		}
		out[k] = s
	}
	return out
}

// humanized writes the alert's value as Prometheus's humanize and
// humanizePercentage do, for the values the scenarios give: a ratio, or a
// number from 1 to 999.
func humanized(fn string, v func() (float64, bool)) (string, bool) {
	x, ok := v()
	switch {
	case !ok:
		return "", false
	case fn == "humanizePercentage":
		return fmt.Sprintf("%.4g%%", x*100), true
	case fn == "humanize":
		return humanize(x), true
	}
	return "", false
}

// humanize writes x as Prometheus's humanize template function does: four
// significant digits and an SI prefix, k to Y above 1, m to y below.
func humanize(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Sprintf("%.4g", x)
	}
	prefixes, scale := []string{"k", "M", "G", "T", "P", "E", "Z", "Y"}, 1.0/1000
	if math.Abs(x) < 1 {
		prefixes, scale = []string{"m", "u", "n", "p", "f", "a", "z", "y"}, 1000
	}
	prefix := ""
	for _, p := range prefixes {
		if (scale < 1 && math.Abs(x) < 1000) || (scale > 1 && math.Abs(x) >= 1) {
			break
		}
		prefix, x = p, x*scale
	}
	return fmt.Sprintf("%.4g%s", x, prefix)
}
