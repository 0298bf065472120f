// Package promclient connects slogen's commands to a Prometheus HTTP API
// (Prometheus, Mimir, Thanos) the way such servers are usually guarded: a
// bearer token or basic auth, and TLS with a private CA or client
// certificates. It explains failures in terms of the server and the flag
// to look at.
package promclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/spf13/pflag"
)

// Options are the connection flags.
type Options struct {
	BearerTokenFile    string
	BasicAuthUser      string
	BasicAuthPassFile  string
	CAFile             string
	CertFile, KeyFile  string
	InsecureSkipVerify bool
}

// AddFlags adds the connection flags to a command's flag set.
func (o *Options) AddFlags(f *pflag.FlagSet) {
	f.StringVar(&o.BearerTokenFile, "bearer-token-file", "", "send the token in this file as a bearer token (read for every request, so it may rotate)")
	f.StringVar(&o.BasicAuthUser, "basic-auth-user", "", "user name for basic auth")
	f.StringVar(&o.BasicAuthPassFile, "basic-auth-password-file", "", "file holding the basic-auth password")
	f.StringVar(&o.CAFile, "ca-file", "", "PEM file of the CA that signed the server's certificate")
	f.StringVar(&o.CertFile, "cert-file", "", "PEM client certificate, for servers that ask for one")
	f.StringVar(&o.KeyFile, "key-file", "", "PEM key of --cert-file")
	f.BoolVar(&o.InsecureSkipVerify, "insecure-skip-verify", false, "do not verify the server's certificate")
}

// API connects to the Prometheus HTTP API at server, authenticating as the
// options say.
func (o Options) API(server string) (v1.API, error) {
	u, err := url.Parse(server)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--prometheus %q: give the server's URL, e.g. http://prometheus:9090", server)
	}
	rt, err := o.RoundTripper(u.Host)
	if err != nil {
		return nil, err
	}
	client, err := api.NewClient(api.Config{Address: server, RoundTripper: rt})
	if err != nil {
		return nil, fmt.Errorf("--prometheus %s: %w", server, err)
	}
	return v1.NewAPI(client), nil
}

// RoundTripper is an HTTP transport that authenticates to host as the
// options say.
func (o Options) RoundTripper(host string) (http.RoundTripper, error) {
	if o.BearerTokenFile != "" && o.BasicAuthUser != "" {
		return nil, errors.New("--bearer-token-file and --basic-auth-user: give one way to authenticate")
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		return nil, errors.New("--cert-file and --key-file go together")
	}
	tlsConfig := &tls.Config{InsecureSkipVerify: o.InsecureSkipVerify} //nolint:gosec // asked for by the flag
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--ca-file: %w", err)
		}
		tlsConfig.RootCAs = x509.NewCertPool()
		if !tlsConfig.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca-file %s: no PEM certificate in it", o.CAFile)
		}
	}
	if o.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("--cert-file, --key-file: %w", err)
		}
		tlsConfig.Certificates = []tls.Certificate{cert}
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = tlsConfig
	return &authTransport{o: o, host: host, next: base}, nil
}

// authTransport adds the credentials to every request to the server's
// host, reading the files each time so that rotated secrets are picked
// up; a redirect to another host gets none.
type authTransport struct {
	o    Options
	host string
	next http.RoundTripper
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	switch {
	case req.URL.Host != t.host:
	case t.o.BearerTokenFile != "":
		token, err := os.ReadFile(t.o.BearerTokenFile)
		if err != nil {
			return nil, fmt.Errorf("--bearer-token-file: %w", err)
		}
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	case t.o.BasicAuthUser != "":
		var pass []byte
		if t.o.BasicAuthPassFile != "" {
			var err error
			if pass, err = os.ReadFile(t.o.BasicAuthPassFile); err != nil {
				return nil, fmt.Errorf("--basic-auth-password-file: %w", err)
			}
		}
		req = req.Clone(req.Context())
		req.SetBasicAuth(t.o.BasicAuthUser, strings.TrimSpace(string(pass)))
	}
	return t.next.RoundTrip(req)
}

// Explain says why a request to server failed, and what to check.
func Explain(server string, err error) error {
	var apiErr *v1.Error
	var netErr net.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.Msg == "client error: 401":
		return fmt.Errorf("Prometheus at %s refused the credentials (401 Unauthorized): check --bearer-token-file or --basic-auth-user and --basic-auth-password-file", server)
	case errors.As(err, &apiErr) && apiErr.Msg == "client error: 403":
		return fmt.Errorf("Prometheus at %s denied access (403 Forbidden): the credentials are valid but may not query; for Mimir, check the tenant", server)
	case errors.As(err, &apiErr) && apiErr.Msg == "client error: 404":
		return fmt.Errorf("Prometheus at %s has no query API there (404): give the URL its API lives under, e.g. https://mimir.example.com/prometheus", server)
	case errors.As(err, &apiErr):
		return fmt.Errorf("Prometheus at %s answered with an error: %s: %s", server, apiErr.Type, apiErr.Msg)
	case errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("Prometheus at %s did not answer in time (--timeout): %w", server, err)
	default:
		return fmt.Errorf("cannot reach Prometheus at %s: %w", server, err)
	}
}
