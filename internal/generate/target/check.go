package target

import (
	"errors"
	"fmt"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// ExampleRelease is the label the fixes suggest: kube-prometheus-stack's
// Prometheus selects its objects by its Helm release's name, which this
// is when installed as its documentation does.
const ExampleRelease = "release=kube-prometheus-stack"

// Check refuses, under the operator target, what the resolved spec
// would write for nobody: PrometheusRules without a label for a rule
// selector to pick, unless the spec or a flag says the Prometheus selects
// them all, and monitors that would have to read credentials from files;
// under the others, scrape configs that would have to read a Secret.
func Check(t Name, spec model.Spec) error {
	if t != Operator {
		return scrapeConfigCredentials(spec)
	}
	var unlabelled []string
	var errs []error
	for _, svc := range spec.Services {
		if len(svc.RuleLabels()) == 0 && !svc.Operator.SelectAll {
			unlabelled = append(unlabelled, fmt.Sprintf("%s (%s)", svc.Name, svc.File))
		}
		if !svc.Scrape.ModeSet {
			errs = append(errs, fileCredentials(svc)...)
		}
	}
	if len(unlabelled) > 0 {
		errs = append([]error{unselected(unlabelled)}, errs...)
	}
	return errors.Join(errs...)
}

// unselected says why unlabelled PrometheusRules are refused and the fixes.
func unselected(services []string) error {
	name, value, _ := strings.Cut(ExampleRelease, "=")
	return fmt.Errorf(`--target operator: the PrometheusRules of %s would carry no labels, which only a Prometheus that selects every PrometheusRule loads: kube-prometheus-stack's, by default, loads only those labelled release: <its Helm release name>
give the labels your Prometheus's ruleSelector picks: --operator-label %s, or in the spec operator: labels: %s: %q
or, if your Prometheus selects every PrometheusRule (kube-prometheus-stack's ruleSelectorNilUsesHelmValues: false), say so: --select-all, or in the spec operator: select_all: true`,
		list(services), ExampleRelease, name, value)
}

// list names at most ten things, then how many more.
func list(names []string) string {
	if len(names) > 10 {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:10], ", "), len(names)-10)
	}
	return strings.Join(names, ", ")
}

// fileCredentials are the credentials of a service's endpoints that the
// monitors --target operator writes in place of scrape configs cannot
// read: monitors read Secrets, not files on the Prometheus host.
func fileCredentials(svc model.Service) []error {
	var errs []error
	for _, e := range []struct {
		which string
		ep    model.Endpoint
	}{{"runtime", svc.Scrape.Runtime}, {"dcgm", svc.Scrape.DCGM}} {
		for _, field := range credentialFiles(e.ep) {
			errs = append(errs, fmt.Errorf(`%s: service %s: scrape.%s.%s: under --target operator slogen writes monitors, which read credentials from Secrets, not files: give the Secret instead, or set scrape.mode: "kubernetes" to keep scrape configs`,
				svc.File, svc.Name, e.which, field))
		}
	}
	return errs
}

func credentialFiles(e model.Endpoint) []string {
	var out []string
	if a := e.Authorization; a != nil && a.CredentialsFile != "" {
		out = append(out, "authorization.credentials_file")
	}
	if b := e.BasicAuth; b != nil && b.PasswordFile != "" {
		out = append(out, "basic_auth.password_file")
	}
	if t := e.TLS; t != nil {
		for _, f := range [][2]string{{"tls.ca_file", t.CAFile}, {"tls.cert_file", t.CertFile}, {"tls.key_file", t.KeyFile}} {
			if f[1] != "" {
				out = append(out, f[0])
			}
		}
	}
	return out
}

// scrapeConfigCredentials refuses the Secrets of a service whose spec left
// scrape.mode to the target, under a target that writes scrape configs:
// those read credentials from files on the Prometheus host.
func scrapeConfigCredentials(spec model.Spec) error {
	var errs []error
	for _, svc := range spec.Services {
		if svc.Scrape.ModeSet {
			continue
		}
		for _, e := range []struct {
			which string
			ep    model.Endpoint
		}{{"runtime", svc.Scrape.Runtime}, {"dcgm", svc.Scrape.DCGM}} {
			for _, field := range credentialSecrets(e.ep) {
				errs = append(errs, fmt.Errorf(`%s: service %s: scrape.%s.%s: slogen writes scrape configs here, which read credentials from files on the Prometheus host, not Secrets: give the file instead, or build with --target operator to get monitors`,
					svc.File, svc.Name, e.which, field))
			}
		}
	}
	return errors.Join(errs...)
}

func credentialSecrets(e model.Endpoint) []string {
	var out []string
	if a := e.Authorization; a != nil && a.Secret != nil {
		out = append(out, "authorization.secret")
	}
	if b := e.BasicAuth; b != nil && b.Secret != "" {
		out = append(out, "basic_auth.secret")
	}
	if t := e.TLS; t != nil {
		for _, f := range []struct {
			name string
			set  bool
		}{{"tls.ca_secret", t.CASecret != nil}, {"tls.cert_secret", t.CertSecret != nil}, {"tls.key_secret", t.KeySecret != nil}} {
			if f.set {
				out = append(out, f.name)
			}
		}
	}
	return out
}
