package spec

import (
	"cmp"
	"maps"
	"net"
	"regexp"
	"slices"
	"strconv"
	"time"

	promodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

type rawScrape struct {
	Mode          string            `json:"mode"`
	Interval      string            `json:"interval"`
	Timeout       string            `json:"timeout"`
	Runtime       rawEndpoint       `json:"runtime"`
	DCGM          rawEndpoint       `json:"dcgm"`
	MonitorLabels map[string]string `json:"monitor_labels"`
}

type rawEndpoint struct {
	Port          int               `json:"port"`
	Path          string            `json:"path"`
	Scheme        string            `json:"scheme"`
	Targets       []string          `json:"targets"`
	Namespace     string            `json:"namespace"`
	MatchLabels   map[string]string `json:"match_labels"`
	Monitor       string            `json:"monitor"`
	PortName      string            `json:"port_name"`
	Authorization *rawAuthorization `json:"authorization"`
	BasicAuth     *rawBasicAuth     `json:"basic_auth"`
	TLS           *rawTLS           `json:"tls"`
}

type rawAuthorization struct {
	Type            string           `json:"type"`
	CredentialsFile string           `json:"credentials_file"`
	Secret          *model.SecretKey `json:"secret"`
}

type rawBasicAuth struct {
	Username     string `json:"username"`
	PasswordFile string `json:"password_file"`
	Secret       *struct {
		Name        string `json:"name"`
		UsernameKey string `json:"username_key"`
		PasswordKey string `json:"password_key"`
	} `json:"secret"`
}

type rawTLS struct {
	CAFile             string           `json:"ca_file"`
	CertFile           string           `json:"cert_file"`
	KeyFile            string           `json:"key_file"`
	CASecret           *model.SecretKey `json:"ca_secret"`
	CertSecret         *model.SecretKey `json:"cert_secret"`
	KeySecret          *model.SecretKey `json:"key_secret"`
	ServerName         string           `json:"server_name"`
	InsecureSkipVerify bool             `json:"insecure_skip_verify"`
}

// DCGMPort and DCGMPath are dcgm-exporter's defaults.
const (
	DCGMPort = 9400
	DCGMPath = "/metrics"
)

// dcgmMatchLabels pick dcgm-exporter's pods as its Helm chart labels them.
var dcgmMatchLabels = map[string]string{"app.kubernetes.io/name": "dcgm-exporter"}

// scrape resolves the scrape block, filling every default so that the
// scrape generator renders it without knowing the spec.
func (r *resolver) scrape(svc model.Service, raw rawService) model.Scrape {
	modeSet := raw.Scrape.Mode != ""
	if !modeSet {
		// What the endpoints are checked against; under --target operator
		// the target switches to monitors (internal/generate/target.Resolve).
		raw.Scrape.Mode = model.ScrapeKubernetes
	}
	s := model.Scrape{
		Mode:          raw.Scrape.Mode,
		ModeSet:       modeSet,
		Interval:      r.duration(raw.Scrape.Interval, "interval"),
		Timeout:       r.duration(raw.Scrape.Timeout, "timeout"),
		MonitorLabels: r.labelSet(raw.Scrape.MonitorLabels, fields("scrape", "monitor_labels"), nil),
	}
	if s.Interval > 0 && s.Timeout > s.Interval {
		r.errorf(fields("scrape", "timeout"), "a scrape timeout longer than its interval is rejected by Prometheus; make it at most %s", raw.Scrape.Interval)
	}
	s.Runtime = r.runtimeEndpoint(svc, raw, modeSet)
	s.DCGM = r.dcgmEndpoint(svc, raw.Scrape, modeSet)
	return s
}

func (r *resolver) duration(v, field string) time.Duration {
	if v == "" {
		return 0
	}
	d, err := promodel.ParseDuration(v)
	if err != nil {
		r.errorf(fields("scrape", field), "%v; write a Prometheus duration such as 15s or 1m", err)
	}
	return time.Duration(d)
}

func (r *resolver) runtimeEndpoint(svc model.Service, raw rawService, modeSet bool) model.Endpoint {
	sel := map[string]string{}
	for _, l := range svc.Selector {
		sel[l.Name] = l.Value
	}
	in := raw.Scrape.Runtime
	e := r.endpoint(raw.Scrape.Mode, modeSet, "runtime", in)
	e.Job = cmp.Or(sel["job"], svc.Name)
	e.Port = cmp.Or(in.Port, svc.Metrics.Port)
	e.Path = cmp.Or(in.Path, svc.Metrics.Path)
	e.Namespace = cmp.Or(in.Namespace, sel["namespace"])
	if in.Namespace != "" && sel["namespace"] != "" && in.Namespace != sel["namespace"] {
		r.errorf(fields("scrape", "runtime", "namespace"), "%q differs from selector.namespace %q: the rules would query series that are never scraped", in.Namespace, sel["namespace"])
	}
	if len(e.MatchLabels) == 0 {
		e.PodName = cmp.Or(raw.DCGM.Pod, defaultPod(svc.Name)) // the pods the GPU mapping means
	}
	if e.Monitor == model.ServiceMonitor && len(e.MatchLabels) == 0 {
		r.errorf(fields("scrape", "runtime", "monitor"), "a ServiceMonitor picks Services by label: set scrape.runtime.match_labels to the labels of the runtime's Service")
	}
	// The queries carry the selector's labels; those that service
	// discovery does not set become constant target labels.
	discovered := []string{"job"}
	if raw.Scrape.Mode != model.ScrapeStatic {
		discovered = append(discovered, "namespace", "pod", "container", "instance", "service", "endpoint")
	}
	for _, k := range slices.Sorted(maps.Keys(sel)) {
		if !slices.Contains(discovered, k) {
			e.Labels = append(e.Labels, labels.Label{Name: k, Value: sel[k]})
		}
	}
	if raw.Scrape.Mode == model.ScrapeStatic && len(e.Targets) == 0 {
		r.errorf(fields("scrape", "runtime"), `mode "static" needs the runtime's targets, e.g. scrape: runtime: targets: ["gpu-node-1:%d"]`, e.Port)
	}
	return e
}

func (r *resolver) dcgmEndpoint(svc model.Service, raw rawScrape, modeSet bool) model.Endpoint {
	in := raw.DCGM
	e := r.endpoint(raw.Mode, modeSet, "dcgm", in)
	e.Job = svc.DCGM.Job
	e.Port = cmp.Or(in.Port, DCGMPort)
	e.Path = cmp.Or(in.Path, DCGMPath)
	e.Namespace = in.Namespace
	e.HonorLabels = svc.DCGM.HonorLabels
	if len(e.MatchLabels) == 0 {
		e.MatchLabels = r.labelMap(dcgmMatchLabels, nil)
	}
	if raw.Mode != model.ScrapeStatic {
		return e
	}
	if len(e.Targets) == 0 && svc.DCGM.Mapping == model.MappingHost {
		for _, h := range svc.DCGM.Hosts {
			e.Targets = append(e.Targets, hostPort(h, e.Port))
		}
	}
	if len(e.Targets) == 0 {
		r.errorf(fields("scrape", "dcgm"), `mode "static" needs dcgm-exporter's targets, e.g. scrape: dcgm: targets: ["gpu-node-1:%d"]`, e.Port)
	}
	if svc.DCGM.Mapping == model.MappingPod && !svc.DCGM.HonorLabels {
		r.errorf(fields("scrape", "mode"), `static targets carry no pod or namespace label, so dcgm-exporter's pod and namespace labels keep their names and the pod mapping's exported_pod and exported_namespace never exist: set dcgm.honor_labels: true, or dcgm.mapping: "host"`)
	}
	return e
}

func hostPort(host string, port int) string {
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// endpoint resolves what the two targets share and checks it against the
// mode: static targets only in mode static, monitor kinds only in mode
// operator or an unset mode (--target operator's monitors), credentials
// in the form the mode reads.
func (r *resolver) endpoint(mode string, modeSet bool, which string, in rawEndpoint) model.Endpoint {
	at := func(f ...string) []string { return append([]string{"scrape", which}, f...) }
	e := model.Endpoint{
		Scheme:      in.Scheme,
		Targets:     in.Targets,
		Monitor:     in.Monitor,
		PortName:    in.PortName,
		MatchLabels: r.labelMap(in.MatchLabels, at("match_labels")),
	}
	if len(in.Targets) > 0 && mode != model.ScrapeStatic {
		r.errorf(at("targets"), `targets apply to mode "static"; mode %q finds its targets itself`, mode)
	}
	for _, t := range in.Targets {
		if _, port, err := net.SplitHostPort(t); err != nil || port == "" {
			r.errorf(at("targets"), "%q is not host:port", t)
		}
	}
	if in.Monitor == model.ServiceMonitor && modeSet && mode != model.ScrapeOperator {
		r.errorf(at("monitor"), `monitor applies to mode "operator"; mode %q discovers pods`, mode)
	}
	form := files
	switch {
	case !modeSet:
		form = either // the target decides: monitors under --target operator, scrape configs otherwise
	case mode == model.ScrapeOperator:
		form = secrets
	}
	e.Authorization, e.BasicAuth, e.TLS = r.credentials(form, in, at)
	return e
}

// k8sLabelKeyRe is a Kubernetes label key: an optional DNS prefix and a name.
var k8sLabelKeyRe = regexp.MustCompile(`^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`)

// labelMap checks Kubernetes label keys and returns the set sorted by key.
func (r *resolver) labelMap(m map[string]string, at []string) []labels.Label {
	var out []labels.Label
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !k8sLabelKeyRe.MatchString(k) {
			r.errorf(append(slices.Clone(at), k), "%q is not a Kubernetes label key", k)
			continue
		}
		out = append(out, labels.Label{Name: k, Value: m[k]})
	}
	return out
}
