package spec

import (
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// credentials checks that an endpoint's credentials come from where its
// mode reads them: files on the Prometheus host for scrape_configs,
// Secrets for monitors. There is no field for an inline secret at all.
func (r *resolver) credentials(form credForm, in rawEndpoint, at func(...string) []string) (*model.Authorization, *model.BasicAuth, *model.TLS) {
	if in.Authorization != nil && in.BasicAuth != nil {
		r.errorf(at(), "set authorization or basic_auth, not both; Prometheus sends one Authorization header")
	}
	return r.authorization(form, in.Authorization, at), r.basicAuth(form, in.BasicAuth, at), r.tls(form, in.TLS, at)
}

func (r *resolver) authorization(form credForm, in *rawAuthorization, at func(...string) []string) *model.Authorization {
	if in == nil {
		return nil
	}
	if strings.EqualFold(in.Type, "basic") {
		r.errorf(at("authorization", "type"), "use basic_auth for HTTP basic auth")
	}
	a := &model.Authorization{Type: in.Type, CredentialsFile: in.CredentialsFile, Secret: in.Secret}
	r.source(form, in.CredentialsFile != "", in.Secret != nil, true, at("authorization"), "credentials_file", "secret")
	return a
}

func (r *resolver) basicAuth(form credForm, in *rawBasicAuth, at func(...string) []string) *model.BasicAuth {
	if in == nil {
		return nil
	}
	b := &model.BasicAuth{Username: in.Username, PasswordFile: in.PasswordFile}
	if in.Secret != nil {
		b.Secret, b.UsernameKey, b.PasswordKey = in.Secret.Name, in.Secret.UsernameKey, in.Secret.PasswordKey
	}
	r.source(form, in.PasswordFile != "", in.Secret != nil, true, at("basic_auth"), "password_file", "secret")
	monitor := form == secrets || (form == either && in.Secret != nil)
	if !monitor && in.Username == "" {
		r.errorf(at("basic_auth", "username"), "basic auth needs a username")
	}
	if monitor && in.Username != "" {
		r.errorf(at("basic_auth", "username"), "a monitor reads the username from the Secret (secret.username_key); remove username")
	}
	return b
}

func (r *resolver) tls(form credForm, in *rawTLS, at func(...string) []string) *model.TLS {
	if in == nil {
		return nil
	}
	t := &model.TLS{CAFile: in.CAFile, CertFile: in.CertFile, KeyFile: in.KeyFile,
		CASecret: in.CASecret, CertSecret: in.CertSecret, KeySecret: in.KeySecret,
		ServerName: in.ServerName, InsecureSkipVerify: in.InsecureSkipVerify}
	r.source(form, in.CAFile != "", in.CASecret != nil, false, at("tls"), "ca_file", "ca_secret")
	r.source(form, in.CertFile != "", in.CertSecret != nil, false, at("tls"), "cert_file", "cert_secret")
	r.source(form, in.KeyFile != "", in.KeySecret != nil, false, at("tls"), "key_file", "key_secret")
	if (t.CertFile != "" || t.CertSecret != nil) != (t.KeyFile != "" || t.KeySecret != nil) {
		r.errorf(at("tls"), "a client certificate needs its key, and a key its certificate")
	}
	return t
}

// credForm is where an endpoint's credentials may come from: files for
// scrape_configs, Secrets for monitors, or either while the spec leaves
// scrape.mode to the target (internal/generate/target checks the form it writes).
type credForm int

const (
	files credForm = iota
	secrets
	either
)

// source checks one credential: a file for scrape_configs, a Secret for
// monitors, one of the two when the form is open, and, when required, one.
func (r *resolver) source(form credForm, hasFile, hasSecret, required bool, at []string, file, secret string) {
	switch {
	case form == secrets && hasFile:
		r.errorf(at, "a monitor reads credentials from a Secret, not a file on the Prometheus host: replace %s with %s", file, secret)
	case form == files && hasSecret:
		r.errorf(at, "scrape_configs read credentials from files on the Prometheus host: replace %s with %s (or use mode \"operator\")", secret, file)
	case form == either && hasFile && hasSecret:
		r.errorf(at, "set %s (scrape configs) or %s (monitors under --target operator), not both", file, secret)
	case required && !hasFile && !hasSecret:
		switch form {
		case secrets:
			r.errorf(at, "say where the credentials are: set %s", secret)
		case files:
			r.errorf(at, "say where the credentials are: set %s", file)
		default:
			r.errorf(at, "say where the credentials are: set %s (scrape configs) or %s (monitors under --target operator)", file, secret)
		}
	}
}
