package scrape

import (
	"regexp"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/slogen-dev/slogen/internal/model"
)

// Monitor is an endpoint's PodMonitor or ServiceMonitor, named name.
func Monitor(s model.Scrape, e model.Endpoint, name string) any {
	meta := metav1.ObjectMeta{Name: objectName(name), Namespace: e.Namespace, Labels: labelMap(s.MonitorLabels)}
	sel := metav1.LabelSelector{MatchLabels: labelMap(e.MatchLabels)}
	ns := monitoringv1.NamespaceSelector{Any: e.Namespace == ""}
	if e.Namespace != "" {
		ns.MatchNames = []string{e.Namespace}
	}
	if e.Monitor == model.ServiceMonitor {
		return &monitoringv1.ServiceMonitor{
			TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: monitoringv1.ServiceMonitorsKind},
			ObjectMeta: meta,
			Spec:       monitoringv1.ServiceMonitorSpec{Selector: sel, NamespaceSelector: ns, Endpoints: []monitoringv1.Endpoint{serviceEndpoint(s, e)}},
		}
	}
	return &monitoringv1.PodMonitor{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: monitoringv1.PodMonitorsKind},
		ObjectMeta: meta,
		Spec:       monitoringv1.PodMonitorSpec{Selector: sel, NamespaceSelector: ns, PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{podEndpoint(s, e)}},
	}
}

func podEndpoint(s model.Scrape, e model.Endpoint) monitoringv1.PodMetricsEndpoint {
	p := monitoringv1.PodMetricsEndpoint{
		Path:           e.Path,
		Scheme:         scheme(e.Scheme),
		Interval:       monitoringv1.Duration(duration(s.Interval)),
		ScrapeTimeout:  monitoringv1.Duration(duration(s.Timeout)),
		HonorLabels:    e.HonorLabels,
		RelabelConfigs: monitorRelabeling(e),
	}
	if e.PortName != "" {
		p.Port = &e.PortName
	} else {
		n := int32(e.Port)
		p.PortNumber = &n
	}
	p.HTTPConfig = secretCredentials(e)
	return p
}

func serviceEndpoint(s model.Scrape, e model.Endpoint) monitoringv1.Endpoint {
	p := monitoringv1.Endpoint{
		Path:           e.Path,
		Scheme:         scheme(e.Scheme),
		Interval:       monitoringv1.Duration(duration(s.Interval)),
		ScrapeTimeout:  monitoringv1.Duration(duration(s.Timeout)),
		HonorLabels:    e.HonorLabels,
		RelabelConfigs: monitorRelabeling(e),
	}
	if e.PortName != "" {
		p.Port = e.PortName
	} else {
		tp := intstr.FromInt32(int32(e.Port))
		p.TargetPort = &tp
	}
	hc := secretCredentials(e)
	p.HTTPConfigWithoutTLS = hc.HTTPConfigWithoutTLS
	if hc.TLSConfig != nil {
		p.TLSConfig = &monitoringv1.TLSConfig{SafeTLSConfig: *hc.TLSConfig}
	}
	return p
}

// monitorRelabeling keeps the pods PodName matches and sets the job label
// to the one the rules query; the operator would otherwise name the job
// after the monitor.
func monitorRelabeling(e model.Endpoint) []monitoringv1.RelabelConfig {
	var rs []monitoringv1.RelabelConfig
	if e.PodName != "" {
		rs = append(rs, monitoringv1.RelabelConfig{SourceLabels: []monitoringv1.LabelName{"__meta_kubernetes_pod_name"}, Regex: e.PodName, Action: "keep"})
	}
	rs = append(rs, monitoringv1.RelabelConfig{TargetLabel: "job", Replacement: ptr(e.Job)})
	for _, l := range e.Labels {
		rs = append(rs, monitoringv1.RelabelConfig{TargetLabel: l.Name, Replacement: ptr(l.Value)})
	}
	return rs
}

func secretCredentials(e model.Endpoint) monitoringv1.HTTPConfig {
	var hc monitoringv1.HTTPConfig
	if a := e.Authorization; a != nil && a.Secret != nil {
		hc.Authorization = &monitoringv1.SafeAuthorization{Type: a.Type, Credentials: secretKey(a.Secret)}
	}
	if b := e.BasicAuth; b != nil && b.Secret != "" {
		hc.BasicAuth = &monitoringv1.BasicAuth{
			Username: *secretKey(&model.SecretKey{Name: b.Secret, Key: b.UsernameKey}),
			Password: *secretKey(&model.SecretKey{Name: b.Secret, Key: b.PasswordKey}),
		}
	}
	if t := e.TLS; t != nil {
		tls := &monitoringv1.SafeTLSConfig{InsecureSkipVerify: ptrIf(t.InsecureSkipVerify), KeySecret: secretKey(t.KeySecret)}
		if t.ServerName != "" {
			tls.ServerName = &t.ServerName
		}
		tls.CA.Secret = secretKey(t.CASecret)
		tls.Cert.Secret = secretKey(t.CertSecret)
		hc.TLSConfig = tls
	}
	return hc
}

func secretKey(k *model.SecretKey) *corev1.SecretKeySelector {
	if k == nil {
		return nil
	}
	return &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: k.Name}, Key: k.Key}
}

func scheme(s string) *monitoringv1.Scheme {
	sc := monitoringv1.Scheme(s)
	return &sc
}

func ptr[T any](v T) *T { return &v }

func ptrIf(b bool) *bool {
	if !b {
		return nil
	}
	return &b
}

var nameUnsafe = regexp.MustCompile(`[^a-z0-9.-]+`)

// objectName makes a Kubernetes object name of a job name.
func objectName(s string) string {
	return strings.Trim(nameUnsafe.ReplaceAllString(strings.ToLower(s), "-"), "-.")
}
