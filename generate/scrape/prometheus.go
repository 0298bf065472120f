package scrape

import (
	"maps"
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
)

// PrometheusFile is a prometheus.yml fragment at the top of the output.
const PrometheusFile = "prometheus.yml"

// prometheusNote says how to use the fragment; it follows the header.
const prometheusNote = `# Merge into prometheus.yml, or run Prometheus on this file as it is.
# Prometheus 2.42 has no scrape_config_files, so the rule files and every
# scrape job that is not a prometheus-operator monitor are gathered here.
# Rule file paths are relative to this file's directory, as Prometheus
# resolves them: adjust them when you copy the lines elsewhere.
`

// Prometheus returns the prometheus.yml fragment for the services: the
// rule files given (paths under the output directory), each runtime job
// and dcgm-exporter's jobs. It returns nil when every service is scraped
// through the operator, which loads rules and monitors itself.
func Prometheus(svcs []model.Service, dcgm DCGMJobs, ruleFiles []string) ([]byte, error) {
	var c Config
	for _, svc := range svcs {
		if s := svc.Scrape; s.Mode != model.ScrapeOperator {
			c.ScrapeConfigs = append(c.ScrapeConfigs, Plain(s, s.Runtime))
		}
	}
	if len(c.ScrapeConfigs) == 0 {
		return nil, nil
	}
	for _, k := range slices.Sorted(maps.Keys(dcgm.jobs)) {
		c.ScrapeConfigs = append(c.ScrapeConfigs, dcgm.jobs[k])
	}
	c.RuleFiles = ruleFiles
	return marshalConfig(c, prometheusNote)
}
