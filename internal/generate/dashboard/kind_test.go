package dashboard

import (
	"bytes"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// kindServices are two services of one kind (testdata/fleet-kind.cue).
func kindServices(t *testing.T) (a, b model.Service) {
	t.Helper()
	svcs := services(t, filepath.Join("testdata", "fleet-kind.cue"))
	if len(svcs) != 2 || plan.Kind(svcs[0]) != plan.Kind(svcs[1]) {
		t.Fatalf("testdata/fleet-kind.cue should hold two services of one kind: %v", svcs)
	}
	return svcs[0], svcs[1]
}

func buildKind(t *testing.T, svc model.Service) (dashboard.Dashboard, []byte) {
	t.Helper()
	d, err := BuildKind(plan.NewIn(svc, plan.Fleet))
	if err != nil {
		t.Fatal(err)
	}
	js, err := grafana.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return d, js
}

// Every runtime's kind dashboard parses as Prometheus 2.42 would, reads
// only what the runtime, dcgm-exporter and the rules provide, and leaves
// no variable undefined.
func TestKindDashboardQueries(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := buildKind(t, svc)
		if err := checkQueries(d); err != nil {
			t.Errorf("%s: %v", svc.Name, err)
		}
		allowed := append(provided(svc), rules.InfoMetric, rules.ThresholdMetric)
		for what, q := range everyQuery(d, AllSelected(d, "1m")) {
			for _, name := range selectedMetrics(t, q) {
				if !slices.Contains(allowed, name) {
					t.Errorf("%s, %s reads %s, which nothing provides", svc.Name, what, name)
				}
			}
		}
		for what, q := range everyQuery(d, kindValues(t, d, svc)) {
			if strings.Contains(q, "$") {
				t.Errorf("%s, %s: an undefined variable is left: %s", svc.Name, what, q)
			}
		}
	}
}

// kindValues are the values Grafana gives a kind dashboard's variables
// with svc picked and every filter on All: each hidden variable reads
// its label off svc's slogen:service_info, and Grafana writes it in as
// the variable asks, escaped for a regular expression when multi-value.
func kindValues(t *testing.T, d dashboard.Dashboard, svc model.Service) map[string]string {
	t.Helper()
	info := serviceInfo(t, svc)
	vals := AllSelected(d, "1m")
	vals[serviceVar] = svc.Name
	for _, v := range d.Templating.List {
		q := variableQuery(v)
		label, ok := strings.CutPrefix(q, "label_values("+rules.InfoMetric+`{service="$service"}, `)
		if !ok {
			continue
		}
		value := info[strings.TrimSuffix(label, ")")]
		if v.Multi != nil && *v.Multi {
			value = grafanaEscape(value)
		}
		vals[v.Name] = value
	}
	return vals
}

func variableQuery(v dashboard.VariableModel) string {
	if v.Query == nil || v.Query.String == nil {
		return ""
	}
	return *v.Query.String
}

// serviceInfo are the labels of svc's slogen:service_info in a fleet.
func serviceInfo(t *testing.T, svc model.Service) map[string]string {
	t.Helper()
	p := plan.NewIn(svc, plan.Fleet)
	for _, g := range append(p.Local, p.Global...) {
		for _, r := range g.Rules {
			if r.Record == rules.InfoMetric {
				return r.Labels
			}
		}
	}
	t.Fatalf("%s records no %s", svc.Name, rules.InfoMetric)
	return nil
}

// A kind dashboard is the same whichever of its services it is built
// from, and with a service picked its queries are that service's own
// dashboard's: each one either is, as Grafana sends it, a query of the
// dashboard the service gets alone, or reads the service's identity,
// objective or threshold from its recordings (what the variables list,
// where the other drew a constant). TestKindDashboardEndToEnd runs them.
func TestKindDashboardIsEachServicesOwn(t *testing.T) {
	a, b := kindServices(t)
	d, fromA := buildKind(t, a)
	if _, fromB := buildKind(t, b); !bytes.Equal(fromA, fromB) {
		t.Fatal("the kind dashboard differs with the service it is built from")
	}
	for _, svc := range []model.Service{a, b} {
		own, err := Build(plan.New(svc))
		if err != nil {
			t.Fatal(err)
		}
		ownQueries := slices.Collect(maps.Values(everyQuery(own, AllSelected(own, "1m"))))
		for what, q := range everyQuery(d, kindValues(t, d, svc)) {
			if slices.Contains(ownQueries, q) || readsFleetRecordings(q) {
				continue
			}
			t.Errorf("%s, %s is none of its own dashboard's queries:\n%s", svc.Name, what, q)
		}
	}
}

// readsFleetRecordings: the query reads what only a kind dashboard
// reads, the service's identity, objectives or thresholds.
func readsFleetRecordings(q string) bool {
	return strings.Contains(q, rules.ObjectiveMetric) || strings.Contains(q, rules.ThresholdMetric) || strings.Contains(q, rules.InfoMetric)
}

// The hidden variables carry values that need escaping: a model with
// regex metacharacters, a pod regular expression with a backslash. Their
// queries parse and match exactly the spec's values.
func TestKindDashboardEscapesIdentity(t *testing.T) {
	svc := services(t, filepath.Join("testdata", "fleet-kind.cue"))[0]
	svc.DCGM.Matchers[len(svc.DCGM.Matchers)-1].Value = `chat-a-\d+`
	svc.DCGM.Pod = `chat-a-\d+`
	d, _ := buildKind(t, svc)
	p := promcompat.Parser()
	for what, q := range everyQuery(d, kindValues(t, d, svc)) {
		e, err := p.ParseExpr(q)
		if err != nil {
			t.Fatalf("%s: %v\n%s", what, err, q)
		}
		for _, ms := range parser.ExtractSelectors(e) {
			for _, m := range ms {
				switch m.Name {
				case "exported_pod":
					if m.Value != `chat-a-\d+` && m.Value != grafana.AllValue {
						t.Errorf("%s: exported_pod=~%q, want the spec's chat-a-\\d+", what, m.Value)
					}
				case "model_name":
					if !m.Matches(svc.Model) || m.Matches(strings.ReplaceAll(svc.Model, ".", "x")) {
						t.Errorf("%s: model_name %s does not match the model %q alone", what, m, svc.Model)
					}
				}
			}
		}
	}
}

// TestGoldenKind keeps the kind dashboard of testdata/fleet-kind.cue for
// review.
func TestGoldenKind(t *testing.T) {
	a, _ := kindServices(t)
	_, js := buildKind(t, a)
	golden(t, js)
}

// A kind dashboard passes the SDK's strict decoder, keeps to the panel
// limit, says it is generated, and has a UID Grafana accepts.
func TestKindDashboardIsAValidDashboard(t *testing.T) {
	plugins.RegisterDefaultPlugins()
	uid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,40}$`)
	for _, svc := range services(t, specFiles(t)...) {
		d, js := buildKind(t, svc)
		if err := validateStrict(js); err != nil {
			t.Errorf("%s: %v", svc.Name, err)
		}
		if len(d.Panels) > maxPanels {
			t.Errorf("%s: %d panels, rows included; the limit is %d", svc.Name, len(d.Panels), maxPanels)
		}
		if !uid.MatchString(grafanatest.Deref(d.Uid)) {
			t.Errorf("%s: UID %q", svc.Name, grafanatest.Deref(d.Uid))
		}
		if !strings.HasSuffix(grafanatest.Deref(d.Description), Generated) {
			t.Errorf("%s: description %q", svc.Name, grafanatest.Deref(d.Description))
		}
	}
}
