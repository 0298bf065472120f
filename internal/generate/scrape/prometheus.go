package scrape

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/slogen-dev/slogen/internal/genfile"
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

// Prometheus returns the prometheus.yml fragment: the rule files given
// (paths under the output directory), the job of each runtime file (the
// scrape.yaml Runtime wrote for each service scraped without the
// operator, in service order) and dcgm-exporter's jobs. A fleet's runtime
// files are already encoded, so their jobs are copied, not encoded again.
// It returns nil when there is no runtime file: every service is scraped
// through the operator, which loads rules and monitors itself.
func Prometheus(runtimeFiles [][]byte, dcgm DCGMJobs, ruleFiles []string) ([]byte, error) {
	if len(runtimeFiles) == 0 {
		return nil, nil
	}
	head, err := marshalConfig(Config{RuleFiles: ruleFiles}, prometheusNote)
	if err != nil {
		return nil, err
	}
	// head ends "scrape_configs: []": the list without its items.
	out := append(bytes.TrimSuffix(head, []byte(" []\n")), '\n')
	for i, f := range runtimeFiles {
		job, err := jobsOf(f)
		if err != nil {
			return nil, fmt.Errorf("runtime file %d: %w", i+1, err)
		}
		out = append(out, job...)
	}
	for _, k := range slices.Sorted(maps.Keys(dcgm.jobs)) {
		job, err := jobItem(dcgm.jobs[k])
		if err != nil {
			return nil, err
		}
		out = append(out, job...)
	}
	return out, nil
}

// jobsStart is how a config of scrape jobs alone starts, as Runtime and
// jobItem write it.
const jobsStart = genfile.Header + "scrape_configs:\n"

// jobItem is one job as an item of scrape_configs: yaml.v3 writes each
// item of a block sequence on its own lines, the same whatever its
// neighbours.
func jobItem(job ScrapeConfig) ([]byte, error) {
	b, err := MarshalConfig(Config{ScrapeConfigs: []ScrapeConfig{job}})
	if err != nil {
		return nil, err
	}
	return jobsOf(b)
}

// jobsOf is the items of scrape_configs in a config of scrape jobs alone.
func jobsOf(config []byte) ([]byte, error) {
	jobs, ok := bytes.CutPrefix(config, []byte(jobsStart))
	if !ok {
		return nil, errors.New("scrape: a config does not start as MarshalConfig writes one of scrape jobs alone")
	}
	return jobs, nil
}
