package scrape

import (
	"bytes"
	"errors"
	"maps"
	"runtime"
	"slices"
	"sync"

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
	return marshalLarge(c, prometheusNote)
}

// marshalLarge writes what marshalConfig writes, encoding the scrape jobs
// on one worker per core: a fleet's prometheus.yml holds a job per
// service, and yaml.v3 writes each item of a block sequence on its own
// lines, the same whatever its neighbours.
func marshalLarge(c Config, note string) ([]byte, error) {
	head, err := marshalConfig(Config{RuleFiles: c.RuleFiles}, note)
	if err != nil {
		return nil, err
	}
	items := make([][]byte, len(c.ScrapeConfigs))
	errs := make([]error, len(c.ScrapeConfigs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(items)) {
		wg.Go(func() {
			for i := range next {
				items[i], errs[i] = jobItem(c.ScrapeConfigs[i])
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	// head ends "scrape_configs: []": the list without its items.
	out := append(bytes.TrimSuffix(head, []byte(" []\n")), '\n')
	return append(out, bytes.Join(items, nil)...), nil
}

// jobItem is one job as an item of scrape_configs.
func jobItem(job ScrapeConfig) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, Config{ScrapeConfigs: []ScrapeConfig{job}}); err != nil {
		return nil, err
	}
	return bytes.TrimPrefix(b.Bytes(), []byte("scrape_configs:\n")), nil
}
