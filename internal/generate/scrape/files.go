package scrape

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
)

// Files slogen writes: the runtime's under each service's directory,
// dcgm-exporter's once at the top of the output, because one exporter job
// serves every service on the cluster.
const (
	ConfigFile       = "scrape.yaml"
	MonitorsFile     = "monitors.yaml"
	DCGMConfigFile   = "dcgm-exporter.scrape.yaml"
	DCGMMonitorsFile = "dcgm-exporter.monitors.yaml"
)

// Runtime returns the name and content of the file that scrapes the
// service's runtime.
func Runtime(svc model.Service) (string, []byte, error) {
	s := monitorScrape(svc)
	if s.Mode == model.ScrapeOperator {
		b, err := MarshalMonitors([]Monitor{NewMonitor(s, s.Runtime, svc.Name)})
		return MonitorsFile, b, err
	}
	b, err := MarshalConfig(Config{ScrapeConfigs: []ScrapeConfig{Plain(s, s.Runtime)}})
	return ConfigFile, b, err
}

// DCGMJobs are dcgm-exporter's scrape jobs and monitors, one per job name
// however many services use it, keyed by kind and job name.
type DCGMJobs struct {
	jobs     map[string]ScrapeConfig
	monitors map[string]Monitor
}

// DCGM collects the services' dcgm-exporter jobs. Services that share a
// job must configure it alike, except for static targets, which add up.
func DCGM(svcs []model.Service) (DCGMJobs, error) {
	jobs := map[string]ScrapeConfig{}
	monitors := map[string]Monitor{}
	owner := map[string]string{}
	var errs []error
	for _, svc := range svcs {
		s := monitorScrape(svc)
		if s.Mode == model.ScrapeOperator {
			key := "monitor/" + s.DCGM.Job
			m := NewMonitor(s, s.DCGM, s.DCGM.Job)
			for i := range m.Spec.Endpoints {
				m.Spec.Endpoints[i].MetricRelabelings = hostnameMetricRelabelings()
			}
			for i := range m.Spec.PodMetricsEndpoints {
				m.Spec.PodMetricsEndpoints[i].MetricRelabelings = hostnameMetricRelabelings()
			}
			if prev, ok := monitors[key]; ok && !reflect.DeepEqual(prev, m) {
				errs = append(errs, conflict(owner[key], svc.Name, s.DCGM.Job))
			}
			monitors[key], owner[key] = m, cmp.Or(owner[key], svc.Name)
			continue
		}
		key := "job/" + s.DCGM.Job
		c := Plain(s, s.DCGM)
		c.MetricRelabelConfigs = hostnameRelabeling()
		if prev, ok := jobs[key]; ok {
			merged, same := mergeTargets(prev, c)
			if !same {
				errs = append(errs, conflict(owner[key], svc.Name, s.DCGM.Job))
			}
			c = merged
		}
		jobs[key], owner[key] = c, cmp.Or(owner[key], svc.Name)
	}
	if len(errs) > 0 {
		return DCGMJobs{}, fmt.Errorf("dcgm-exporter scrape jobs: %w", errors.Join(errs...))
	}
	return DCGMJobs{jobs: jobs, monitors: monitors}, nil
}

// Files returns the dcgm-exporter files, by name.
func (d DCGMJobs) Files() (map[string][]byte, error) {
	jobs, monitors := d.jobs, d.monitors
	out := map[string][]byte{}
	if len(jobs) > 0 {
		var c Config
		for _, k := range slices.Sorted(maps.Keys(jobs)) {
			c.ScrapeConfigs = append(c.ScrapeConfigs, jobs[k])
		}
		b, err := MarshalConfig(c)
		if err != nil {
			return nil, err
		}
		out[DCGMConfigFile] = b
	}
	if len(monitors) > 0 {
		var ms []Monitor
		for _, k := range slices.Sorted(maps.Keys(monitors)) {
			ms = append(ms, monitors[k])
		}
		b, err := MarshalMonitors(ms)
		if err != nil {
			return nil, err
		}
		out[DCGMMonitorsFile] = b
	}
	return out, nil
}

// monitorScrape is the service's scrape with the monitors' labels:
// scrape.monitor_labels and the operator labels.
func monitorScrape(svc model.Service) model.Scrape {
	s := svc.Scrape
	s.MonitorLabels = svc.MonitorLabels()
	return s
}

// mergeTargets adds b's static targets to a's; same is false when the two
// jobs differ in anything else.
func mergeTargets(a, b ScrapeConfig) (merged ScrapeConfig, same bool) {
	ta, tb := a.StaticConfigs, b.StaticConfigs
	a.StaticConfigs, b.StaticConfigs = nil, nil
	if !reflect.DeepEqual(a, b) || len(ta) != len(tb) {
		return a, false
	}
	if len(ta) == 0 {
		return a, true
	}
	if !reflect.DeepEqual(ta[0].Labels, tb[0].Labels) {
		return a, false
	}
	targets := slices.Concat(ta[0].Targets, tb[0].Targets)
	slices.Sort(targets)
	a.StaticConfigs = []StaticConfig{{Targets: slices.Compact(targets), Labels: ta[0].Labels}}
	return a, true
}

func conflict(first, second, job string) error {
	return fmt.Errorf("services %s and %s scrape dcgm-exporter job %q differently; make their dcgm and scrape.dcgm settings agree, or give one of them another dcgm.job", first, second, job)
}
