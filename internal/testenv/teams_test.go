package testenv_test

import (
	"bytes"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// A Hugging Face repository id: owner/name.
var hfName = regexp.MustCompile(`^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$`)

// TestTeamsFleetIsTheIssuesFleet loads 40 services of TeamsFleet as build
// does and checks they differ as issue 22 says a fleet does.
func TestTeamsFleetIsTheIssuesFleet(t *testing.T) {
	const n = 40 // every team, model, tier, GPU and runtime
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: testenv.TeamsFleet(n)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	teams, runtimes, models, tiers, gpus := set{}, set{}, set{}, set{}, set{}
	namespaces, jobs := set{}, set{}
	for _, s := range res.Spec.Services {
		teams.add(s.Team)
		runtimes.add(s.Runtime)
		if hfName.MatchString(s.Model) {
			models.add(s.Model)
		}
		tiers.add(objectives(s))
		gpus.add(s.GPU.Product)
		namespaces.add(selector(s, "namespace"))
		job := selector(s, "job")
		jobs.add(job)
		if job != s.Runtime+"-"+s.Name {
			t.Errorf("%s: job %q, want %q", s.Name, job, s.Runtime+"-"+s.Name)
		}
	}
	if len(res.Spec.Services) != n {
		t.Fatalf("%d services, want %d", len(res.Spec.Services), n)
	}
	for _, c := range []struct {
		what string
		got  set
		want int
	}{
		{"teams", teams, 10},
		{"runtimes", runtimes, 2},
		{"tiers", tiers, 3},
		{"GPU products", gpus, 4},
		{"namespaces", namespaces, n},
		{"jobs", jobs, n},
	} {
		if len(c.got) != c.want {
			t.Errorf("%d distinct %s, want %d: %v", len(c.got), c.what, c.want, c.got)
		}
	}
	if len(models) < 6 || !strings.ContainsAny(strings.Join(models.keys(), ""), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t.Errorf("models %v: want 6 or more Hugging Face names (owner/name), with capitals", models)
	}
}

type set map[string]bool

func (s set) add(v string) { s[v] = true }

func (s set) keys() []string {
	var keys []string
	for k := range s {
		keys = append(keys, k)
	}
	return keys
}

// objectives is a service's tier, as the objectives of its SLOs.
func objectives(s model.Service) string {
	var b strings.Builder
	for _, slo := range s.SLOs {
		b.WriteString(slo.Name + "=" + slo.Objective.RatString() + " ")
	}
	return b.String()
}

func selector(s model.Service, name string) string {
	for _, l := range s.Selector {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// TestSlothTeamsFleetReadsWhatSlogenReads checks that Sloth gets the
// same SLOs as slogen: per service, the same objectives over the same
// series (every selector, le bound and model matcher alike).
func TestSlothTeamsFleetReadsWhatSlogenReads(t *testing.T) {
	const n = 20 // both runtimes
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: testenv.TeamsFleet(n)})
	if err != nil {
		t.Fatal(err)
	}
	sloth := slothSLOs(t, testenv.SlothTeamsFleet(n))
	if len(sloth) != n {
		t.Fatalf("Sloth has %d services, want %d", len(sloth), n)
	}
	for _, s := range res.Spec.Services {
		got := map[string]string{}
		for _, slo := range sloth[s.Name] {
			got[slo.Name] = slo.Objective + " " + selectors(t, slo.SLI.Events.ErrorQuery, slo.SLI.Events.TotalQuery)
		}
		for _, slo := range s.SLOs {
			objective, _ := slo.Objective.Float64()
			want := strconv.FormatFloat(objective*100, 'f', -1, 64) + " " + selectors(t, slo.SLI.Errors.String(), slo.SLI.Requests.String())
			if got[slo.Name] != want {
				t.Errorf("%s, slo %s:\nSloth  %s\nslogen %s", s.Name, slo.Name, got[slo.Name], want)
			}
		}
		if len(got) != len(s.SLOs) {
			t.Errorf("%s: Sloth has %d SLOs, slogen %d", s.Name, len(got), len(s.SLOs))
		}
	}
}

type slothSLO struct {
	Name      string
	Objective string
	SLI       struct {
		Events struct {
			ErrorQuery string `yaml:"error_query"`
			TotalQuery string `yaml:"total_query"`
		}
	}
}

// slothSLOs reads Sloth's specs, by service.
func slothSLOs(t *testing.T, data []byte) map[string][]slothSLO {
	t.Helper()
	byService := map[string][]slothSLO{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc struct {
			Service string
			SLOs    []slothSLO
		}
		if err := dec.Decode(&doc); err == io.EOF {
			return byService
		} else if err != nil {
			t.Fatal(err)
		}
		byService[doc.Service] = doc.SLOs
	}
}

// pythonBound writes slogen's matcher of a whole bound, which takes
// either form (le=~"1(\\.0)?"), as the one prometheus_client, the client
// of both runtimes, writes: le="1.0".
func pythonBound(m *labels.Matcher) *labels.Matcher {
	if whole, ok := strings.CutSuffix(m.Value, `(\.0)?`); ok && m.Name == "le" && m.Type == labels.MatchRegexp {
		return labels.MustNewMatcher(labels.MatchEqual, "le", whole+".0")
	}
	return m
}

// selectors lists the distinct series selectors the queries read, each
// with its matchers sorted.
func selectors(t *testing.T, queries ...string) string {
	t.Helper()
	found := set{}
	for _, q := range queries {
		expr, err := parser.NewParser(parser.Options{}).ParseExpr(strings.ReplaceAll(q, "{{.window}}", "5m"))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
			if vs, ok := node.(*parser.VectorSelector); ok {
				var ms []string
				for _, m := range vs.LabelMatchers {
					ms = append(ms, pythonBound(m).String())
				}
				slices.Sort(ms)
				found.add(strings.Join(ms, ","))
			}
			return nil
		})
	}
	keys := found.keys()
	slices.Sort(keys)
	return strings.Join(keys, " ")
}
