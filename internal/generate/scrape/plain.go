// Package scrape writes how Prometheus scrapes a service's two targets,
// the runtime's metrics endpoint and dcgm-exporter: plain scrape_configs
// (static targets, or kubernetes_sd pod discovery with relabeling) or
// prometheus-operator PodMonitor/ServiceMonitor objects. The job names are
// those the rules query, and dcgm-exporter's honor_labels is the one the
// GPU rules' label mapping assumes.
package scrape

import (
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// Config is a Prometheus configuration holding only scrape_configs; it is
// a valid prometheus.yml on its own, and its jobs paste into one.
type Config struct {
	RuleFiles     []string       `yaml:"rule_files,omitempty"`
	ScrapeConfigs []ScrapeConfig `yaml:"scrape_configs"`
}

// ScrapeConfig is one scrape job, in the subset of Prometheus's format
// slogen writes. Prometheus's own types cannot be used: its config package
// pulls every cloud SDK into the binary.
type ScrapeConfig struct {
	JobName             string          `yaml:"job_name"`
	HonorLabels         bool            `yaml:"honor_labels"`
	ScrapeInterval      string          `yaml:"scrape_interval,omitempty"`
	ScrapeTimeout       string          `yaml:"scrape_timeout,omitempty"`
	MetricsPath         string          `yaml:"metrics_path"`
	Scheme              string          `yaml:"scheme"`
	Authorization       *Authorization  `yaml:"authorization,omitempty"`
	BasicAuth           *BasicAuth      `yaml:"basic_auth,omitempty"`
	TLSConfig           *TLSConfig      `yaml:"tls_config,omitempty"`
	StaticConfigs       []StaticConfig  `yaml:"static_configs,omitempty"`
	KubernetesSDConfigs []KubernetesSD  `yaml:"kubernetes_sd_configs,omitempty"`
	RelabelConfigs      []RelabelConfig `yaml:"relabel_configs,omitempty"`
	// MetricRelabelConfigs rewrite the scraped series (dcgm-exporter's
	// hostname label).
	MetricRelabelConfigs []RelabelConfig `yaml:"metric_relabel_configs,omitempty"`
}

// Authorization reads the header's credentials from a file.
type Authorization struct {
	Type            string `yaml:"type"`
	CredentialsFile string `yaml:"credentials_file"`
}

// BasicAuth reads the password from a file.
type BasicAuth struct {
	Username     string `yaml:"username"`
	PasswordFile string `yaml:"password_file"`
}

// TLSConfig reads certificates and keys from files.
type TLSConfig struct {
	CAFile             string `yaml:"ca_file,omitempty"`
	CertFile           string `yaml:"cert_file,omitempty"`
	KeyFile            string `yaml:"key_file,omitempty"`
	ServerName         string `yaml:"server_name,omitempty"`
	InsecureSkipVerify bool   `yaml:"insecure_skip_verify,omitempty"`
}

// StaticConfig is a list of targets sharing labels.
type StaticConfig struct {
	Targets []string          `yaml:"targets"`
	Labels  map[string]string `yaml:"labels,omitempty"`
}

// KubernetesSD discovers pods, in some namespaces or in all.
type KubernetesSD struct {
	Role       string      `yaml:"role"`
	Namespaces *Namespaces `yaml:"namespaces,omitempty"`
}

// Namespaces restricts discovery to named namespaces.
type Namespaces struct {
	Names []string `yaml:"names"`
}

// RelabelConfig is one relabeling step.
type RelabelConfig struct {
	SourceLabels []string `yaml:"source_labels,omitempty,flow"`
	Regex        string   `yaml:"regex,omitempty"`
	TargetLabel  string   `yaml:"target_label,omitempty"`
	Replacement  string   `yaml:"replacement,omitempty"`
	Action       string   `yaml:"action,omitempty"`
}

// Plain is an endpoint's scrape job, static or discovered.
func Plain(s model.Scrape, e model.Endpoint) ScrapeConfig {
	c := ScrapeConfig{
		JobName:        e.Job,
		HonorLabels:    e.HonorLabels,
		ScrapeInterval: duration(s.Interval),
		ScrapeTimeout:  duration(s.Timeout),
		MetricsPath:    e.Path,
		Scheme:         e.Scheme,
	}
	c.Authorization, c.BasicAuth, c.TLSConfig = fileCredentials(e)
	if s.Mode == model.ScrapeStatic {
		c.StaticConfigs = []StaticConfig{{Targets: e.Targets, Labels: labelMap(e.Labels)}}
		return c
	}
	sd := KubernetesSD{Role: "pod"}
	if e.Namespace != "" {
		sd.Namespaces = &Namespaces{Names: []string{e.Namespace}}
	}
	c.KubernetesSDConfigs = []KubernetesSD{sd}
	c.RelabelConfigs = podRelabeling(e)
	return c
}

func fileCredentials(e model.Endpoint) (*Authorization, *BasicAuth, *TLSConfig) {
	var a *Authorization
	var b *BasicAuth
	var t *TLSConfig
	if e.Authorization != nil {
		a = &Authorization{Type: e.Authorization.Type, CredentialsFile: e.Authorization.CredentialsFile}
	}
	if e.BasicAuth != nil {
		b = &BasicAuth{Username: e.BasicAuth.Username, PasswordFile: e.BasicAuth.PasswordFile}
	}
	if e.TLS != nil {
		t = &TLSConfig{CAFile: e.TLS.CAFile, CertFile: e.TLS.CertFile, KeyFile: e.TLS.KeyFile,
			ServerName: e.TLS.ServerName, InsecureSkipVerify: e.TLS.InsecureSkipVerify}
	}
	return a, b, t
}

func duration(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return genfile.Duration(d)
}

func labelMap(ls []labels.Label) map[string]string {
	if len(ls) == 0 {
		return nil
	}
	m := make(map[string]string, len(ls))
	for _, l := range ls {
		m[l.Name] = l.Value
	}
	return m
}
