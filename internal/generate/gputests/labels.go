package gputests

import (
	"strconv"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// DCGM fields the alerts read, as dcgm-exporter names them. They are
// spelt here again, not taken from the rules, so a misspelt field in a
// rule fails its test.
const (
	fbUsed    = "DCGM_FI_DEV_FB_USED"
	fbFree    = "DCGM_FI_DEV_FB_FREE"
	gpuTemp   = "DCGM_FI_DEV_GPU_TEMP"
	gpuUtil   = "DCGM_FI_DEV_GPU_UTIL"
	xidErrors = "DCGM_FI_DEV_XID_ERRORS"
	// The health alerts' fields.
	pcieReplays      = "DCGM_FI_DEV_PCIE_REPLAY_COUNTER"
	eccDoubleBit     = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"
	rowRemapFailure  = "DCGM_FI_DEV_ROW_REMAP_FAILURE"
	remappedRows     = "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"
	powerViolation   = "DCGM_FI_DEV_POWER_VIOLATION"
	thermalViolation = "DCGM_FI_DEV_THERMAL_VIOLATION"
	nvlinkRecovery   = "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL"
	nvlinkCRC        = "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL"
)

// testXID is the XID the scenarios raise. dcgm-exporter (since PR #309)
// writes each code as a series of its own, labelled err_code, from the
// first time the GPU reports it.
const testXID = 79

// Synthetic series labels beyond the ones the rules match on.
const (
	testInstance = "10.0.0.1:8000"
	testPod      = "replica-0"
	// testNamespace is the GPU pod's namespace where the spec names none.
	testNamespace = "default"
	testGPU       = "0"
)

// gpuLabels label one field of the service's GPU as dcgm-exporter would
// after the scrape: the GPU's identity (gpuIdentityLabels, worked out once
// per service) and the field's name.
func gpuLabels(gpu map[string]string, field string) labels.Labels {
	b := labels.NewBuilder(labels.FromMap(gpu))
	b.Set(labels.MetricName, field)
	if field == xidErrors {
		b.Set("err_code", strconv.Itoa(testXID))
	}
	return b.Labels()
}

// gpuIdentityLabels are the labels of the service's GPU: its mapping's,
// a GPU index and model, and the instance of the exporter scraped for it,
// as the scrape adds it.
func gpuIdentityLabels(svc model.Service) (map[string]string, error) {
	m := map[string]string{"gpu": testGPU, "UUID": "GPU-00000000-0000-0000-0000-000000000000", "modelName": "NVIDIA H100 80GB HBM3",
		"instance": exporterInstance(svc)}
	if svc.GPU.Product != "" {
		m["modelName"] = svc.GPU.Product
	}
	if svc.DCGM.Mapping != model.MappingHost {
		// dcgm-exporter labels a GPU with its pod's namespace, whether the
		// service's mapping matches on it or not.
		m[svc.DCGM.NamespaceLabel()] = testNamespace
	}
	for _, mt := range svc.DCGM.Matchers {
		v, err := example(mt)
		if err != nil {
			return nil, err
		}
		m[mt.Name] = v
	}
	return m, nil
}

func upLabels(svc model.Service) labels.Labels {
	return labels.FromStrings(labels.MetricName, "up", "job", svc.DCGM.Job, "instance", exporterInstance(svc))
}

// exporterInstance is the scrape target of the service's dcgm-exporter.
func exporterInstance(svc model.Service) string {
	if ts := svc.Scrape.DCGM.Targets; svc.Scrape.Mode == model.ScrapeStatic && len(ts) > 0 {
		return ts[0]
	}
	return "10.0.0.2:9400"
}

// runtimeLabels label a runtime series as the runtime exports it: the
// metric's own matchers (a custom app's oom may be
// inference_errors_total{type="oom"}), the pod where Kubernetes discovers
// it, the spec's selector and the served model, in the runtime's case for
// the metric, on runtimes that label their metrics with it.
func runtimeLabels(svc model.Service, metric model.Selector) (labels.Labels, error) {
	m := map[string]string{"instance": testInstance, labels.MetricName: metric.Name}
	for _, mt := range metric.Matchers {
		v, err := example(mt)
		if err != nil {
			return labels.EmptyLabels(), err
		}
		m[mt.Name] = v
	}
	if svc.Scrape.Mode != model.ScrapeStatic {
		m["pod"] = testPod // as discovery labels each target
	}
	for _, l := range svc.Selector {
		m[l.Name] = l.Value
	}
	if v := svc.Metrics.ModelCase.Value(metric.Name, svc.Model); svc.Metrics.ModelLabel != "" && v != "" {
		m[svc.Metrics.ModelLabel] = v
	}
	return labels.FromMap(m), nil
}

// identity is the part of a series' labels that an alert keeps.
func identity(ls labels.Labels, names []string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if v := ls.Get(n); v != "" {
			out[n] = v
		}
	}
	return out
}
