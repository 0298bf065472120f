package scrape

import (
	"cmp"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	commonmodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/slogen-dev/slogen/internal/model"
)

// meaning is what a monitor does, read from the operator's types or from
// the endpoint of slogen's model it was made for. The operator's defaults
// are filled in, so the two are equal when the monitor does what the spec
// asks, however it spells it.
type meaning struct {
	Kind, Namespace   string
	Labels, Selector  map[string]string
	Namespaces        []string // "*" is any namespace
	Endpoints         int
	Port              string // a name or a number; two would conflict
	Path, Scheme      string
	Interval, Timeout time.Duration
	HonorLabels       bool
	Relabelings       []string
	Credentials       []string
}

// monitorCase is an endpoint and the name its monitor is made with.
type monitorCase struct {
	name     string
	scrape   model.Scrape
	endpoint model.Endpoint
}

// TestMonitorsDoWhatTheSpecSays writes each endpoint's monitor, reads it
// back into the operator's types and compares what it does with what
// the endpoint says.
func TestMonitorsDoWhatTheSpecSays(t *testing.T) {
	for id, c := range monitorCases(t) {
		t.Run(id, func(t *testing.T) {
			data, err := MarshalMonitors([]Monitor{NewMonitor(c.scrape, c.endpoint, c.name)})
			if err != nil {
				t.Fatal(err)
			}
			objs, err := decodeMonitors(data)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkMonitor(objs[0]); err != nil {
				t.Error(err)
			}
			got, want := operatorMeaning(objs[0]), specMeaning(c.scrape, c.endpoint)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the monitor does\n%+v\nthe spec says\n%+v\n%s", got, want, data)
			}
		})
	}
}

// monitorCases are the fixtures' operator endpoints, and endpoints that
// take the branches the fixtures do not.
func monitorCases(t *testing.T) map[string]monitorCase {
	t.Helper()
	cases := map[string]monitorCase{}
	for _, fx := range fixtures(t) {
		for _, svc := range services(t, fx) {
			if s := svc.Scrape; s.Mode == model.ScrapeOperator {
				cases[fx+"/"+svc.Name] = monitorCase{svc.Name, s, s.Runtime}
				cases[fx+"/"+svc.Name+"/dcgm"] = monitorCase{s.DCGM.Job, s, s.DCGM}
			}
		}
	}
	s := model.Scrape{Mode: model.ScrapeOperator, Interval: 15 * time.Second, Timeout: 10 * time.Second,
		MonitorLabels: []labels.Label{{Name: "release", Value: "on"}}}
	key := func(name, key string) *model.SecretKey { return &model.SecretKey{Name: name, Key: key} }
	cases["service by port number, client certificate"] = monitorCase{"Ranker_Triton", s, model.Endpoint{
		Job: "triton", Monitor: model.ServiceMonitor, Port: 8002, Path: "/metrics", Scheme: "https", Namespace: "ml",
		MatchLabels: []labels.Label{{Name: "app", Value: "triton"}}, PodName: "ranker-.*", HonorLabels: true,
		Labels:        []labels.Label{{Name: "cluster", Value: "eu-1"}, {Name: "tier", Value: ""}},
		Authorization: &model.Authorization{Type: "Bearer", Secret: key("tok", "token")},
		TLS:           &model.TLS{CertSecret: key("client", "tls.crt"), KeySecret: key("client", "tls.key"), InsecureSkipVerify: true},
	}}
	cases["pod by port name, values YAML 1.1 reads as other types"] = monitorCase{"yes", s, model.Endpoint{
		Job: "yes", Monitor: model.PodMonitor, PortName: "on", Path: "/metrics", Scheme: "http",
		MatchLabels: []labels.Label{{Name: "a", Value: "1:20"}, {Name: "b", Value: "~"}, {Name: "c", Value: "0x1F"}},
		Labels:      []labels.Label{{Name: "gpu", Value: "no"}},
		BasicAuth:   &model.BasicAuth{Secret: "basic", UsernameKey: "on", PasswordKey: "off"},
	}}
	return cases
}

// specMeaning is what the endpoint asks of its monitor.
func specMeaning(s model.Scrape, e model.Endpoint) meaning {
	m := meaning{
		Kind: monitoringv1.PodMonitorsKind, Namespace: e.Namespace,
		Labels: labelMap(s.MonitorLabels), Selector: labelMap(e.MatchLabels),
		Namespaces: []string{cmp.Or(e.Namespace, "*")}, Endpoints: 1,
		Port: cmp.Or(e.PortName, strconv.Itoa(e.Port)), Path: e.Path, Scheme: e.Scheme,
		Interval: s.Interval, Timeout: s.Timeout, HonorLabels: e.HonorLabels,
		Credentials: specCredentials(e),
	}
	if e.Monitor == model.ServiceMonitor {
		m.Kind = monitoringv1.ServiceMonitorsKind
	}
	if e.PodName != "" {
		m.Relabelings = append(m.Relabelings, "keep [__meta_kubernetes_pod_name] =~ "+e.PodName)
	}
	// The job the rules query, and the constant labels, whatever the
	// target's labels are.
	for _, l := range append([]labels.Label{{Name: "job", Value: e.Job}}, e.Labels...) {
		m.Relabelings = append(m.Relabelings, fmt.Sprintf("replace [] =~ (.*) -> %s = %s", l.Name, l.Value))
	}
	return m
}

func specCredentials(e model.Endpoint) []string {
	var cs []string
	if a := e.Authorization; a != nil {
		cs = append(cs, "authorization "+cmp.Or(a.Type, "Bearer")+" "+keyName(a.Secret))
	}
	if b := e.BasicAuth; b != nil {
		cs = append(cs, "basic "+b.Secret+"/"+b.UsernameKey+" "+b.Secret+"/"+b.PasswordKey)
	}
	if t := e.TLS; t != nil {
		cs = append(cs, tlsMeaning(keyName(t.CASecret), keyName(t.CertSecret), keyName(t.KeySecret), t.ServerName, t.InsecureSkipVerify))
	}
	return cs
}

func keyName(k *model.SecretKey) string {
	if k == nil {
		return "-"
	}
	return k.Name + "/" + k.Key
}

func tlsMeaning(ca, cert, key, serverName string, insecure bool) string {
	return fmt.Sprintf("tls ca=%s cert=%s key=%s server=%q insecure=%t", ca, cert, key, serverName, insecure)
}

// operatorMeaning is what a decoded PodMonitor or ServiceMonitor does.
func operatorMeaning(o any) meaning {
	switch m := o.(type) {
	case *monitoringv1.PodMonitor:
		got := objectMeaning(m.Kind, m.ObjectMeta.Namespace, m.Labels, m.Spec.Selector.MatchLabels, m.Spec.NamespaceSelector)
		got.Endpoints = len(m.Spec.PodMetricsEndpoints)
		if got.Endpoints > 0 {
			e := m.Spec.PodMetricsEndpoints[0]
			got.Port = portMeaning(deref(e.Port), e.PortNumber, e.TargetPort)
			got.endpoint(e.Path, e.Scheme, e.Interval, e.ScrapeTimeout, e.HonorLabels, e.RelabelConfigs)
			got.Credentials = operatorCredentials(e.HTTPConfigWithoutTLS, e.TLSConfig)
		}
		return got
	case *monitoringv1.ServiceMonitor:
		got := objectMeaning(m.Kind, m.ObjectMeta.Namespace, m.Labels, m.Spec.Selector.MatchLabels, m.Spec.NamespaceSelector)
		got.Endpoints = len(m.Spec.Endpoints)
		if got.Endpoints > 0 {
			e := m.Spec.Endpoints[0]
			got.Port = portMeaning(e.Port, nil, e.TargetPort)
			got.endpoint(e.Path, e.Scheme, e.Interval, e.ScrapeTimeout, e.HonorLabels, e.RelabelConfigs)
			var tls *monitoringv1.SafeTLSConfig
			if e.TLSConfig != nil {
				tls = &e.TLSConfig.SafeTLSConfig
			}
			got.Credentials = operatorCredentials(e.HTTPConfigWithoutTLS, tls)
		}
		return got
	}
	return meaning{}
}

func objectMeaning(kind, ns string, lbls, selector map[string]string, nss monitoringv1.NamespaceSelector) meaning {
	m := meaning{Kind: kind, Namespace: ns, Labels: lbls, Selector: selector, Namespaces: nss.MatchNames}
	if nss.Any {
		m.Namespaces = append(m.Namespaces, "*")
	}
	return m
}

// endpoint reads what pod and Service endpoints share; an unset scheme is
// the operator's http.
func (m *meaning) endpoint(path string, scheme *monitoringv1.Scheme, interval, timeout monitoringv1.Duration, honor bool, rcs []monitoringv1.RelabelConfig) {
	m.Path, m.Scheme, m.HonorLabels = path, cmp.Or(string(deref(scheme)), "http"), honor
	m.Interval, m.Timeout = operatorDuration(interval), operatorDuration(timeout)
	for _, r := range rcs {
		m.Relabelings = append(m.Relabelings, relabelMeaning(r))
	}
}

// portMeaning joins every port the endpoint sets.
func portMeaning(name string, number *int32, target *intstr.IntOrString) string {
	var ps []string
	if name != "" {
		ps = append(ps, name)
	}
	if number != nil {
		ps = append(ps, strconv.Itoa(int(*number)))
	}
	if target != nil {
		ps = append(ps, target.String())
	}
	return strings.Join(ps, ",")
}

// relabelMeaning spells a relabeling out with the operator's defaults:
// action replace, regex (.*), replacement $1.
func relabelMeaning(r monitoringv1.RelabelConfig) string {
	action, regex := cmp.Or(strings.ToLower(r.Action), "replace"), cmp.Or(r.Regex, "(.*)")
	if action == "keep" || action == "drop" {
		return fmt.Sprintf("%s %v =~ %s", action, r.SourceLabels, regex)
	}
	repl := "$1"
	if r.Replacement != nil {
		repl = *r.Replacement
	}
	return fmt.Sprintf("%s %v =~ %s -> %s = %s", action, r.SourceLabels, regex, r.TargetLabel, repl)
}

func operatorCredentials(h monitoringv1.HTTPConfigWithoutTLS, tls *monitoringv1.SafeTLSConfig) []string {
	var cs []string
	if a := h.Authorization; a != nil {
		cs = append(cs, "authorization "+cmp.Or(a.Type, "Bearer")+" "+selectorName(a.Credentials))
	}
	if b := h.BasicAuth; b != nil {
		cs = append(cs, "basic "+selectorName(&b.Username)+" "+selectorName(&b.Password))
	}
	if tls != nil {
		cs = append(cs, tlsMeaning(selectorName(tls.CA.Secret), selectorName(tls.Cert.Secret), selectorName(tls.KeySecret),
			deref(tls.ServerName), deref(tls.InsecureSkipVerify)))
	}
	return cs
}

func selectorName(k *corev1.SecretKeySelector) string {
	if k == nil {
		return "-"
	}
	return k.Name + "/" + k.Key
}

func operatorDuration(d monitoringv1.Duration) time.Duration {
	if d == "" {
		return 0
	}
	v, err := commonmodel.ParseDuration(string(d))
	if err != nil {
		return -1
	}
	return time.Duration(v)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
