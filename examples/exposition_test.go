package examples_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	promodel "github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// expositions holds, per runtime, an exposition written from the
// runtime's own source at the release its profile reads (each file names
// the files and the release): what a scrape of it returns, without the
// labels the scrape adds.
const expositions = "../internal/profile/testdata/expositions"

var ruleParser = parser.NewParser(parser.Options{})

// scrapeLabels are added by Prometheus to every series it scrapes, from
// the target; an exposition never carries them.
var scrapeLabels = []string{"job", "instance", "namespace", "pod", "container", "service", "endpoint"}

// TestSelectorsMatchTheRuntimesExposition: every selector the examples'
// rule files write for a runtime's metrics matches a series of that
// runtime's exposition: its name, its labels, and its le values as the
// runtime's client library writes them. Labels the scrape adds, the
// spec's selector labels among them, are not in an exposition; the model
// label must be there, with any value.
func TestSelectorsMatchTheRuntimesExposition(t *testing.T) {
	for _, ex := range examples(t) {
		res, err := spec.Load(ex.specs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, svc := range res.Spec.Services {
			if svc.Runtime == profile.CustomRuntime {
				continue // its metrics are the spec's own
			}
			t.Run(ex.dir+"/"+svc.Name, func(t *testing.T) {
				series, err := testenv.ReadExposition(expositionFile(svc))
				if err != nil {
					t.Fatalf("%v: each runtime of the table has an exposition written from its source", err)
				}
				for _, file := range ruleFiles(ex.dir, svc.Name) {
					for _, problem := range unmatchedSelectors(t, file, svc, series) {
						t.Error(problem)
					}
				}
			})
		}
	}
}

// expositionFile is the exposition of the generation of its runtime a
// service reads: <runtime>.prom for the newest, <runtime>-<since>.prom
// for an older one.
func expositionFile(svc model.Service) string {
	gen, err := profile.For(svc.Runtime, svc.Version)
	if newest, _ := profile.Lookup(svc.Runtime); err == nil && gen.Since != newest.Since {
		return filepath.Join(expositions, svc.Runtime+"-"+gen.Since+".prom")
	}
	return filepath.Join(expositions, svc.Runtime+".prom")
}

// ruleFiles are the rule files generated for a service: in its
// directory, and a fleet's GPU pool rules at the top.
func ruleFiles(dir, service string) []string {
	var files []string
	for _, name := range []string{"rules.yaml", "rules.global.yaml", "gpu-rules.yaml"} {
		p := filepath.Join(dir, "generated", service, name)
		if _, err := os.Stat(p); err == nil {
			files = append(files, p)
		}
	}
	return files
}

// unmatchedSelectors names each selector of a rule file's expressions,
// on a metric of the runtime, that matches no series of the exposition.
func unmatchedSelectors(t *testing.T, file string, svc model.Service, series []labels.Labels) []string {
	t.Helper()
	groups, errs := rulefmt.ParseFile(file, false, promodel.LegacyValidation, ruleParser, promslog.NewNopLogger())
	if len(errs) > 0 {
		t.Fatalf("%s: %v", file, errs)
	}
	var problems []string
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			expr, err := ruleParser.ParseExpr(r.Expr)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			parser.Inspect(expr, func(n parser.Node, _ []parser.Node) error {
				vs, ok := n.(*parser.VectorSelector)
				if ok && runtimeMetric(vs.Name) && !matchesAny(vs, svc, series) {
					problems = append(problems, fmt.Sprintf("%s, %s%s: %s matches no series of %s", file, r.Record, r.Alert, vs, expositionFile(svc)))
				}
				return nil
			})
		}
	}
	return problems
}

// runtimeMetric reports whether a metric comes from the runtime's
// exporter: not a recording of slogen's, not dcgm-exporter's, not the
// Collector's counts of log lines (otelcol's TestAlertsReadTheNamesTheExporterWrites
// checks those), not Prometheus's own.
func runtimeMetric(name string) bool {
	return name != "" && !strings.HasPrefix(name, "slogen:") && !strings.HasPrefix(name, "DCGM_") && !isLogCount(name) &&
		!slices.Contains([]string{"up", "ALERTS", "ALERTS_FOR_STATE"}, name)
}

func isLogCount(name string) bool {
	for _, event := range gpualerts.LogEvents {
		if name == gpualerts.LogCountMetric(event) {
			return true
		}
	}
	return false
}

// matchesAny reports whether some series of the exposition has the
// selector's name and satisfies each of its matchers, where a label the
// scrape adds stands for itself and the model label takes any value.
func matchesAny(vs *parser.VectorSelector, svc model.Service, series []labels.Labels) bool {
	modelLabel := svc.Metrics.ModelLabel
	return slices.ContainsFunc(series, func(s labels.Labels) bool {
		for _, m := range vs.LabelMatchers {
			value, has := s.Get(m.Name), s.Has(m.Name)
			switch {
			case m.Name == labels.MetricName:
				if !m.Matches(value) {
					return false
				}
			case !has && (slices.Contains(scrapeLabels, m.Name) || isSelectorLabel(svc, m.Name)):
			case m.Name == modelLabel && modelLabel != "":
				if !has {
					return false
				}
			case !m.Matches(value):
				return false
			}
		}
		return true
	})
}

func isSelectorLabel(svc model.Service, name string) bool {
	return slices.ContainsFunc(svc.Selector, func(l labels.Label) bool { return l.Name == name }) ||
		svc.Global != nil && svc.Global.Label == name
}
