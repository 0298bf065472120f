package loki_test

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/generate/loki"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestExpressionsAreWellFormedLogQL: every expression's brackets
// balance, its strings unquote, its selector is label, operator and
// string, and its regular expressions compile in Go's regexp (RE2, as
// Loki's); one matcher never matches an empty value, as Loki asks.
func TestExpressionsAreWellFormedLogQL(t *testing.T) {
	for name, cue := range specs {
		for _, g := range decode(t, build(t, cue)).Groups {
			for _, r := range g.Rules {
				q, err := readQuery(r.Expr)
				if err != nil {
					t.Errorf("%s: %s: %v in\n%s", name, r.Alert, err, r.Expr)
					continue
				}
				for _, m := range q.streams {
					if m.Type == labels.MatchRegexp {
						if _, err := regexp.Compile("^(?:" + m.Value + ")$"); err != nil {
							t.Errorf("%s: %s: %v", name, r.Alert, err)
						}
					}
				}
				if !slices.ContainsFunc(q.streams, func(m *labels.Matcher) bool { return !m.Matches("") }) {
					t.Errorf("%s: %s: every matcher of %v matches an empty value", name, r.Alert, q.streams)
				}
			}
		}
	}
}

// TestEachConditionMatchesItsLineAndNotItsNeighbour: each alert's line
// filter holds its line as the runtime's source writes it, the same line
// the Collector's count is tested on, and not an ordinary line beside it;
// its streams are the service's pod, not a pod of another namespace.
func TestEachConditionMatchesItsLineAndNotItsNeighbour(t *testing.T) {
	for _, runtime := range []string{"vllm", "sglang"} {
		f := decode(t, build(t, specs[runtime]))
		tested := map[string]bool{}
		for _, r := range f.Groups[0].Rules {
			q, err := readQuery(r.Expr)
			if err != nil || len(q.filters) != 1 {
				t.Fatalf("%s: %v: want one line filter in %s", r.Alert, err, r.Expr)
			}
			for _, l := range testenv.FatalLines {
				if l.Runtime != runtime || l.Event != gpualerts.LogEvents[r.Alert] {
					continue
				}
				tested[r.Alert] = true
				if !strings.Contains(l.Line, q.filters[0]) {
					t.Errorf("%s's filter %q misses its line %q", r.Alert, q.filters[0], l.Line)
				}
				if strings.Contains(l.Neighbour, q.filters[0]) {
					t.Errorf("%s's filter %q matches the harmless %q", r.Alert, q.filters[0], l.Neighbour)
				}
			}
			own := labels.FromStrings("namespace", "inference", "pod", "chat-7d9f8-x2k4q", "container", runtime)
			other := labels.FromStrings("namespace", "staging", "pod", "chat-7d9f8-x2k4q", "container", runtime)
			if !matchesAll(q.streams, own) || matchesAll(q.streams, other) {
				t.Errorf("%s: streams %v: want %v, not %v", r.Alert, q.streams, own, other)
			}
		}
		if len(tested) != len(f.Groups[0].Rules) {
			t.Errorf("%s: lines tested for %v, want every alert of the file", runtime, slices.Sorted(maps.Keys(tested)))
		}
	}
}

func matchesAll(ms []*labels.Matcher, ls labels.Labels) bool {
	for _, m := range ms {
		if !m.Matches(ls.Get(m.Name)) {
			return false
		}
	}
	return true
}

// TestSpecValuesAndLinesAreEscaped: a namespace, container or line
// holding quotes, backslashes or regular-expression metacharacters reads
// back as itself, the line matched literally; a pod pattern stays the
// regular expression the spec wrote, its escapes kept.
func TestSpecValuesAndLinesAreEscaped(t *testing.T) {
	const (
		namespace = `in"fer\ence`
		container = `c"1 .*`
		pod       = `llama\.cpp-(a|b)-.*`
		line      = `Error: "CUDA" \ out of memory (.*) [x]`
	)
	l := model.Loki{Namespace: "namespace", Pod: "pod", Streams: []*labels.Matcher{
		labels.MustNewMatcher(labels.MatchEqual, "namespace", namespace),
		labels.MustNewMatcher(labels.MatchRegexp, "pod", pod),
		labels.MustNewMatcher(labels.MatchEqual, "container", container),
	}}
	expr := loki.Expr(l, line)
	q, err := readQuery(expr)
	if err != nil {
		t.Fatalf("%v in %s", err, expr)
	}
	got := map[string]string{}
	for _, m := range q.streams {
		got[m.Name] = m.Value
	}
	if want := map[string]string{"namespace": namespace, "pod": pod, "container": container}; !maps.Equal(got, want) {
		t.Errorf("streams read back as %v, want %v, from %s", got, want, expr)
	}
	if len(q.filters) != 1 || q.filters[0] != line {
		t.Errorf("filter reads back as %q, want %q, from %s", q.filters, line, expr)
	}
	written := labels.FromStrings("namespace", namespace, "pod", "llama.cpp-a-0", "container", container)
	if !matchesAll(q.streams, written) || matchesAll(q.streams, labels.FromStrings("namespace", namespace, "pod", "llamaXcpp-a-0", "container", container)) {
		t.Errorf("%v: want llama.cpp-a-0's streams and not llamaXcpp-a-0's", q.streams)
	}
	if !strings.Contains(`[E] `+line+` at 12:00`, q.filters[0]) || strings.Contains(`Error: "CUDA" \ out of memory (anything) [x]`, q.filters[0]) {
		t.Errorf("filter %q: want the line matched as written, not as a pattern", q.filters[0])
	}
}

// TestAlertsAreThePrometheusVersions: each Loki alert has its Prometheus
// version's name, `for`, annotations and labels, plus service_name, which
// the Prometheus version takes from the count; it groups by the pod's
// labels under the count's names, so that the two fire with the same
// labels.
func TestAlertsAreThePrometheusVersions(t *testing.T) {
	svcs := services(t, specs["fleet"])
	f := decode(t, build(t, specs["fleet"]))
	prom := map[string]gpualerts.Alert{}
	for _, a := range gpualerts.NewPlan(svcs[0]).Alerts {
		if _, logged := gpualerts.LogEvents[a.Name]; logged {
			prom[a.Name] = a
		}
	}
	if len(prom) == 0 || len(f.Groups[0].Rules) != len(prom) {
		t.Fatalf("service a has %d Loki alerts and %d Prometheus ones on its lines", len(f.Groups[0].Rules), len(prom))
	}
	for _, r := range f.Groups[0].Rules {
		p, ok := prom[r.Alert]
		if !ok {
			t.Errorf("%s has no Prometheus version", r.Alert)
			continue
		}
		wantLabels := maps.Clone(p.Labels)
		wantLabels["service_name"] = "a"
		if r.For != "" || p.For != 0 || !maps.Equal(r.Annotations, p.Annotations) || !maps.Equal(r.Labels, wantLabels) {
			t.Errorf("%s: for %q, labels %v, annotations %v; Prometheus's: for %v, labels %v (and service_name), annotations %v", r.Alert, r.For, r.Labels, r.Annotations, p.For, p.Labels, p.Annotations)
		}
		by := "sum by (" + strings.Join(gpualerts.LogIdentity[1:], ", ") + ") "
		if !strings.HasPrefix(r.Expr, by) || !strings.Contains(r.Expr, "label_format k8s_namespace_name=namespace, k8s_pod_name=pod") || !strings.HasSuffix(r.Expr, "[10m])) > 0") {
			t.Errorf("%s: %s: want it by the pod under %v, over the last 10m", r.Alert, r.Expr, gpualerts.LogIdentity[1:])
		}
	}
}
