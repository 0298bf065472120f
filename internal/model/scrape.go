package model

import (
	"time"

	"github.com/prometheus/prometheus/model/labels"
)

// Scrape modes: how a service's targets are scraped.
const (
	ScrapeKubernetes = "kubernetes" // scrape_configs with kubernetes_sd pod discovery
	ScrapeStatic     = "static"     // scrape_configs with static targets
	ScrapeOperator   = "operator"   // prometheus-operator PodMonitor/ServiceMonitor
)

// Monitor kinds of mode operator.
const (
	PodMonitor     = "pod"
	ServiceMonitor = "service"
)

// Scrape says how Prometheus scrapes the runtime and dcgm-exporter. The
// spec package fills in every default, so generators only render it.
type Scrape struct {
	Mode string
	// ModeSet says the spec chose Mode; otherwise the target picks it:
	// monitors under --target operator, scrape configs elsewhere.
	ModeSet bool
	// Interval and Timeout are zero when Prometheus's global ones apply.
	Interval, Timeout time.Duration
	Runtime, DCGM     Endpoint
	// MonitorLabels go on the monitor objects, sorted by name.
	MonitorLabels []labels.Label
}

// Endpoint is one scrape target.
type Endpoint struct {
	Job    string
	Port   int
	Path   string
	Scheme string
	// Targets are host:port pairs (mode static).
	Targets []string
	// Namespace is where the pods are; empty means every namespace.
	Namespace string
	// MatchLabels pick the pods (a ServiceMonitor: the Services), sorted
	// by name. Empty for the runtime means PodName picks them.
	MatchLabels []labels.Label
	// PodName is a regular expression matching the pods' names.
	PodName string
	// Monitor is PodMonitor or ServiceMonitor (mode operator).
	Monitor  string
	PortName string
	// HonorLabels keeps the target's own labels on a clash; see DCGM.
	HonorLabels bool
	// Labels are constant target labels, sorted by name: the selector's
	// labels that discovery does not set, so that the rules' queries
	// match what is scraped.
	Labels        []labels.Label
	Authorization *Authorization
	BasicAuth     *BasicAuth
	TLS           *TLS
}

// Authorization is an Authorization header read from a file or a Secret.
type Authorization struct {
	Type            string
	CredentialsFile string
	Secret          *SecretKey
}

// BasicAuth is HTTP basic auth with the password in a file or a Secret.
type BasicAuth struct {
	Username     string
	PasswordFile string
	// Secret holds the username and the password (monitors).
	Secret                   string
	UsernameKey, PasswordKey string
}

// TLS configures TLS to a target, from files or from Secret keys.
type TLS struct {
	CAFile, CertFile, KeyFile       string
	CASecret, CertSecret, KeySecret *SecretKey
	ServerName                      string
	InsecureSkipVerify              bool
}

// SecretKey is one key of a Kubernetes Secret in the monitor's namespace.
type SecretKey struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}
