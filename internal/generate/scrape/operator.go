package scrape

import (
	"regexp"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// Monitor is a prometheus-operator PodMonitor or ServiceMonitor, in the
// subset of the operator's fields slogen sets, in the operator's field
// order. The operator's own types cannot be used: with k8s.io/api and
// apimachinery they made 10 MB of a 45 MB binary. The tests decode every
// monitor strictly into them instead.
type Monitor struct {
	APIVersion string      `yaml:"apiVersion"`
	Kind       string      `yaml:"kind"`
	Metadata   ObjectMeta  `yaml:"metadata"`
	Spec       MonitorSpec `yaml:"spec"`
}

// ObjectMeta names the monitor; its labels are those Prometheus's monitor
// selector picks.
type ObjectMeta struct {
	Name      string            `yaml:"name,omitempty"`
	Namespace string            `yaml:"namespace,omitempty"`
	Labels    map[string]string `yaml:"labels,omitempty"`
}

// MonitorSpec holds the monitor's one endpoint: in PodMetricsEndpoints for
// a PodMonitor, in Endpoints for a ServiceMonitor.
type MonitorSpec struct {
	PodMetricsEndpoints []MonitorEndpoint `yaml:"podMetricsEndpoints,omitempty"`
	Endpoints           []MonitorEndpoint `yaml:"endpoints,omitempty"`
	Selector            LabelSelector     `yaml:"selector"`
	NamespaceSelector   NamespaceSelector `yaml:"namespaceSelector"`
}

// LabelSelector picks pods or Services by label; empty, it picks them all.
type LabelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels,omitempty"`
}

// NamespaceSelector is where the monitor looks: any namespace, or those named.
type NamespaceSelector struct {
	Any        bool     `yaml:"any,omitempty"`
	MatchNames []string `yaml:"matchNames,omitempty"`
}

// MonitorEndpoint is a PodMonitor's PodMetricsEndpoint or a
// ServiceMonitor's Endpoint. They differ in how they give a port by
// number: PortNumber for a pod's, TargetPort for a Service's target.
type MonitorEndpoint struct {
	Port          string       `yaml:"port,omitempty"`
	PortNumber    int          `yaml:"portNumber,omitempty"`
	TargetPort    int          `yaml:"targetPort,omitempty"`
	Path          string       `yaml:"path,omitempty"`
	Scheme        string       `yaml:"scheme"`
	Interval      string       `yaml:"interval,omitempty"`
	ScrapeTimeout string       `yaml:"scrapeTimeout,omitempty"`
	HonorLabels   bool         `yaml:"honorLabels,omitempty"`
	Relabelings   []Relabeling `yaml:"relabelings,omitempty"`
	// MetricRelabelings rewrite the scraped series (dcgm-exporter's
	// hostname label).
	MetricRelabelings []Relabeling          `yaml:"metricRelabelings,omitempty"`
	Authorization     *MonitorAuthorization `yaml:"authorization,omitempty"`
	BasicAuth         *MonitorBasicAuth     `yaml:"basicAuth,omitempty"`
	TLSConfig         *MonitorTLS           `yaml:"tlsConfig,omitempty"`
}

// Relabeling is one of the operator's relabelings. Replacement is a
// pointer because unset means "$1" to the operator: an empty value must
// be written out.
type Relabeling struct {
	SourceLabels []string `yaml:"sourceLabels,omitempty"`
	TargetLabel  string   `yaml:"targetLabel,omitempty"`
	Regex        string   `yaml:"regex,omitempty"`
	Replacement  *string  `yaml:"replacement,omitempty"`
	Action       string   `yaml:"action,omitempty"`
}

// MonitorAuthorization reads the header's credentials from a Secret.
type MonitorAuthorization struct {
	Type        string            `yaml:"type,omitempty"`
	Credentials SecretKeySelector `yaml:"credentials"`
}

// MonitorBasicAuth reads the username and the password from Secrets.
type MonitorBasicAuth struct {
	Username SecretKeySelector `yaml:"username"`
	Password SecretKeySelector `yaml:"password"`
}

// MonitorTLS reads certificates and the key from Secrets.
type MonitorTLS struct {
	CA                 *SecretSource      `yaml:"ca,omitempty"`
	Cert               *SecretSource      `yaml:"cert,omitempty"`
	KeySecret          *SecretKeySelector `yaml:"keySecret,omitempty"`
	ServerName         string             `yaml:"serverName,omitempty"`
	InsecureSkipVerify bool               `yaml:"insecureSkipVerify,omitempty"`
}

// SecretSource is the operator's SecretOrConfigMap, always a Secret here.
type SecretSource struct {
	Secret SecretKeySelector `yaml:"secret"`
}

// SecretKeySelector is one key of a Secret in the monitor's namespace.
type SecretKeySelector struct {
	Name string `yaml:"name,omitempty"`
	Key  string `yaml:"key"`
}

// NewMonitor is an endpoint's PodMonitor or ServiceMonitor, named name.
func NewMonitor(s model.Scrape, e model.Endpoint, name string) Monitor {
	m := Monitor{
		APIVersion: "monitoring.coreos.com/v1",
		Metadata:   ObjectMeta{Name: objectName(name), Namespace: e.Namespace, Labels: labelMap(s.MonitorLabels)},
		Spec: MonitorSpec{
			Selector:          LabelSelector{MatchLabels: labelMap(e.MatchLabels)},
			NamespaceSelector: namespaceSelector(e.Namespace),
		},
	}
	ep := monitorEndpoint(s, e)
	if e.Monitor == model.ServiceMonitor {
		ep.TargetPort = portNumber(e)
		m.Kind, m.Spec.Endpoints = "ServiceMonitor", []MonitorEndpoint{ep}
		return m
	}
	ep.PortNumber = portNumber(e)
	m.Kind, m.Spec.PodMetricsEndpoints = "PodMonitor", []MonitorEndpoint{ep}
	return m
}

func namespaceSelector(ns string) NamespaceSelector {
	if ns == "" {
		return NamespaceSelector{Any: true}
	}
	return NamespaceSelector{MatchNames: []string{ns}}
}

// monitorEndpoint is the endpoint without its port number, which the two
// kinds of monitor spell differently.
func monitorEndpoint(s model.Scrape, e model.Endpoint) MonitorEndpoint {
	p := MonitorEndpoint{
		Port:          e.PortName,
		Path:          e.Path,
		Scheme:        e.Scheme,
		Interval:      duration(s.Interval),
		ScrapeTimeout: duration(s.Timeout),
		HonorLabels:   e.HonorLabels,
		Relabelings:   monitorRelabeling(e),
	}
	p.Authorization, p.BasicAuth, p.TLSConfig = secretCredentials(e)
	return p
}

// portNumber is the port by number, when the spec does not name it: the
// operator takes one or the other.
func portNumber(e model.Endpoint) int {
	if e.PortName != "" {
		return 0
	}
	return e.Port
}

// monitorRelabeling keeps the pods PodName matches and sets the job label
// to the one the rules query; the operator would otherwise name the job
// after the monitor.
func monitorRelabeling(e model.Endpoint) []Relabeling {
	var rs []Relabeling
	if e.PodName != "" {
		rs = append(rs, Relabeling{SourceLabels: []string{"__meta_kubernetes_pod_name"}, Regex: e.PodName, Action: "keep"})
	}
	rs = append(rs, Relabeling{TargetLabel: "job", Replacement: ptr(e.Job)})
	for _, l := range e.Labels {
		rs = append(rs, Relabeling{TargetLabel: l.Name, Replacement: ptr(l.Value)})
	}
	return rs
}

func secretCredentials(e model.Endpoint) (*MonitorAuthorization, *MonitorBasicAuth, *MonitorTLS) {
	var a *MonitorAuthorization
	var b *MonitorBasicAuth
	var t *MonitorTLS
	if ea := e.Authorization; ea != nil && ea.Secret != nil {
		a = &MonitorAuthorization{Type: ea.Type, Credentials: secretKey(*ea.Secret)}
	}
	if eb := e.BasicAuth; eb != nil && eb.Secret != "" {
		b = &MonitorBasicAuth{
			Username: secretKey(model.SecretKey{Name: eb.Secret, Key: eb.UsernameKey}),
			Password: secretKey(model.SecretKey{Name: eb.Secret, Key: eb.PasswordKey}),
		}
	}
	if et := e.TLS; et != nil {
		t = &MonitorTLS{CA: secretSource(et.CASecret), Cert: secretSource(et.CertSecret), KeySecret: secretKeyRef(et.KeySecret),
			ServerName: et.ServerName, InsecureSkipVerify: et.InsecureSkipVerify}
	}
	return a, b, t
}

func secretKey(k model.SecretKey) SecretKeySelector {
	return SecretKeySelector{Name: k.Name, Key: k.Key}
}

// secretKeyRef is the selector of an optional key; nil leaves it out.
func secretKeyRef(k *model.SecretKey) *SecretKeySelector {
	if k == nil {
		return nil
	}
	s := secretKey(*k)
	return &s
}

func secretSource(k *model.SecretKey) *SecretSource {
	if k == nil {
		return nil
	}
	return &SecretSource{Secret: secretKey(*k)}
}

func ptr[T any](v T) *T { return &v }

var nameUnsafe = regexp.MustCompile(`[^a-z0-9.-]+`)

// objectName makes a Kubernetes object name of a job name.
func objectName(s string) string {
	return strings.Trim(nameUnsafe.ReplaceAllString(strings.ToLower(s), "-"), "-.")
}
