package dashboard

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
)

// gpuSlot is one GPU of a node and, under Kubernetes pod mapping, the
// pod dcgm-exporter attributes it to.
type gpuSlot struct {
	index          int
	pod, namespace string
}

// dcgmMetrics is dcgm-exporter 4.x with its default counters: per-GPU
// labels gpu, UUID, pci_bus_id, device, modelName and Hostname, the
// driver version as a label, and pod, namespace and container for GPUs a
// pod uses. Used memory grows steadily, a slow leak.
func dcgmMetrics(host, product string, totalMiB float64, gpus []gpuSlot) func(t float64) string {
	return func(t float64) string {
		var e exposition
		reserved := 520.0
		used := func(g gpuSlot) float64 { return 0.7*totalMiB + float64(g.index) + 5*t }
		fields := []struct {
			name, typ string
			value     func(g gpuSlot) float64
		}{
			{"DCGM_FI_DEV_SM_CLOCK", "gauge", func(gpuSlot) float64 { return 1980 }},
			{"DCGM_FI_DEV_MEM_CLOCK", "gauge", func(gpuSlot) float64 { return 2619 }},
			{"DCGM_FI_DEV_MEMORY_TEMP", "gauge", func(g gpuSlot) float64 { return wave(t, 55, 3) }},
			{"DCGM_FI_DEV_GPU_TEMP", "gauge", func(g gpuSlot) float64 { return wave(t, 62, 5) + float64(g.index) }},
			{"DCGM_FI_DEV_POWER_USAGE", "gauge", func(g gpuSlot) float64 { return wave(t, 450, 120) }},
			{"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", func(gpuSlot) float64 { return 1e9 + 450e3*t }},
			{"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", func(gpuSlot) float64 { return 0 }},
			{"DCGM_FI_DEV_GPU_UTIL", "gauge", func(g gpuSlot) float64 { return wave(t, 85, 10) }},
			{"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", func(gpuSlot) float64 { return wave(t, 40, 10) }},
			{"DCGM_FI_DEV_ENC_UTIL", "gauge", func(gpuSlot) float64 { return 0 }},
			{"DCGM_FI_DEV_DEC_UTIL", "gauge", func(gpuSlot) float64 { return 0 }},
			{"DCGM_FI_DEV_FB_FREE", "gauge", func(g gpuSlot) float64 { return totalMiB - reserved - used(g) }},
			{"DCGM_FI_DEV_FB_USED", "gauge", used},
			{"DCGM_FI_DEV_FB_RESERVED", "gauge", func(gpuSlot) float64 { return reserved }},
			{"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", func(gpuSlot) float64 { return wave(t, 0.8, 0.1) }},
			{"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", func(gpuSlot) float64 { return wave(t, 0.45, 0.1) }},
			{"DCGM_FI_PROF_DRAM_ACTIVE", "gauge", func(gpuSlot) float64 { return wave(t, 0.6, 0.1) }},
		}
		for _, f := range fields {
			e.family(f.name, f.typ, "synthetic "+f.name)
			for _, g := range gpus {
				e.sample(f.name, gpuLabels(host, product, g), f.value(g))
			}
		}
		// Every GPU reports an XID as dcgm-exporter does since its PR #309
		// (the code as value and err_code label), so that GPUXIDErrors
		// fires at once for every service and its firing alerts panel has
		// a real alert to list.
		e.family("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.")
		for _, g := range gpus {
			e.sample("DCGM_FI_DEV_XID_ERRORS", gpuLabels(host, product, g)+`,err_code="31",err_msg="GPU memory page fault"`, 31)
		}
		return e.b.String()
	}
}

func gpuLabels(host, product string, g gpuSlot) string {
	ls := []string{
		fmt.Sprintf(`gpu="%d"`, g.index),
		fmt.Sprintf(`UUID="GPU-%08x-1111-2222-3333-%012d"`, len(host), g.index),
		fmt.Sprintf(`pci_bus_id="00000000:%02X:00.0"`, 0x18+g.index),
		fmt.Sprintf(`device="nvidia%d"`, g.index),
		fmt.Sprintf(`modelName=%q`, product),
		fmt.Sprintf(`Hostname=%q`, host),
		`DCGM_FI_DRIVER_VERSION="550.54.15"`,
	}
	if g.pod != "" {
		ls = append(ls, `container="server"`, fmt.Sprintf(`namespace=%q`, g.namespace), fmt.Sprintf(`pod=%q`, g.pod))
	}
	return strings.Join(ls, ",")
}

// node is one GPU host and the GPUs dcgm-exporter reports on it.
type node struct {
	job, host, product string
	memMiB             float64
	gpus               []gpuSlot
}

// dcgmJobs place the services' GPUs on nodes, as the spec's mapping
// finds them: pod-mapped services share one Kubernetes node, each GPU
// attributed to the service's pod; host-mapped ones sit on their hosts.
// Each node's exporter is scraped as a pod of another namespace without
// honor_labels, so its pod and namespace labels become exported_*.
func dcgmJobs(t *testing.T, svcs []model.Service) []map[string]any {
	t.Helper()
	var nodes []*node
	at := func(job, host string, svc model.Service) *node {
		for _, n := range nodes {
			if n.job == job && n.host == host {
				return n
			}
		}
		n := &node{job: job, host: host, product: svc.GPU.Product, memMiB: 81559}
		nodes = append(nodes, n)
		return n
	}
	for _, svc := range svcs {
		hosts := svc.DCGM.Hosts
		if svc.DCGM.Mapping != model.MappingHost {
			hosts = []string{"gpu-node-1"}
		}
		for _, h := range hosts {
			n := at(svc.DCGM.Job, h, svc)
			for range max(svc.GPU.Count, 1) {
				g := gpuSlot{index: len(n.gpus)}
				if svc.DCGM.Mapping != model.MappingHost {
					g.pod, g.namespace = gpuPod(svc), svc.DCGM.Namespace
				}
				n.gpus = append(n.gpus, g)
			}
		}
	}
	// A job name may appear once in a config: a job's nodes are its targets.
	var jobs []map[string]any
	targets := map[string][]map[string]any{}
	for i, n := range nodes {
		if _, seen := targets[n.job]; !seen {
			jobs = append(jobs, map[string]any{"job_name": n.job})
		}
		targets[n.job] = append(targets[n.job], map[string]any{
			"targets": []string{serve(t, dcgmMetrics(n.host, n.product, n.memMiB, n.gpus))},
			"labels":  map[string]string{"namespace": "gpu-operator", "pod": fmt.Sprintf("dcgm-exporter-%d", i)},
		})
	}
	for _, j := range jobs {
		j["static_configs"] = targets[j["job_name"].(string)]
	}
	return jobs
}

// gpuPod is a pod name the service's GPU mapping matches: its first pod,
// or, where the spec's pattern picks other pods (a gateway's GPUs are its
// pool's), the pattern's literal prefix and a 0.
func gpuPod(svc model.Service) string {
	pattern := svc.DCGM.Pod
	if pattern == "" || regexp.MustCompile("^(?:"+pattern+")$").MatchString(svc.Name+"-0") {
		return svc.Name + "-0"
	}
	return strings.TrimSuffix(pattern, ".*") + "0"
}
