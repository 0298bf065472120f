package spec

import "net/url"

// grafanaURL checks alerting.grafana_url: an http or https URL with a
// host, which the alerts' dashboard links start with.
func (r *resolver) grafanaURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		r.errorf(fields("alerting", "grafana_url"), "%q is not Grafana's base URL: write http(s)://host[/path], without a query or fragment, e.g. https://grafana.example.com", raw)
		return ""
	}
	return raw
}
