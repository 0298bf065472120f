package spec

import "github.com/slogen-dev/slogen/internal/model"

// The spec as the schema shapes it, decoded from the unified CUE value
// (defaults filled in) before slogen's own checks turn it into the model.

type rawService struct {
	Team       string            `json:"team"`
	Runtime    string            `json:"runtime"`
	Version    string            `json:"version"`
	Model      string            `json:"model"`
	Selector   map[string]string `json:"selector"`
	GPU        *rawGPU           `json:"gpu"`
	SLOs       map[string]rawSLO `json:"slos"`
	Alerting   rawAlerting       `json:"alerting"`
	Metrics    *rawMetrics       `json:"metrics"`
	Thresholds model.Thresholds  `json:"thresholds"`
	DCGM       rawDCGM           `json:"dcgm"`
	Scrape     rawScrape         `json:"scrape"`
	Operator   rawOperator       `json:"operator"`
	Buckets    rawBuckets        `json:"buckets"`
	Histograms string            `json:"histograms"`
	Global     *struct {
		Label string `json:"label"`
	} `json:"global"`
	Behind    string `json:"behind"`
	Dashboard struct {
		PerService bool `json:"per_service"`
	} `json:"dashboard"`
	Collector *rawCollector `json:"collector"`
	Loki      *rawLoki      `json:"loki"`
}

type rawLoki struct {
	Labels struct {
		Namespace string `json:"namespace"`
		Pod       string `json:"pod"`
		Container string `json:"container"`
	} `json:"labels"`
}

type rawCollector struct {
	RequestsPerSecond float64 `json:"requests_per_second"`
	SampleFloor       float64 `json:"sample_floor"`
	DecisionWait      string  `json:"decision_wait"`
	TracesDatasource  string  `json:"traces_datasource"`
}

type rawGPU struct {
	Product   string `json:"product"`
	Count     int    `json:"count"`
	MemoryMiB int    `json:"memory_mib"`
}

type rawSLO struct {
	SLI         string    `json:"sli"`
	Objective   float64   `json:"objective"`
	Window      string    `json:"window"`
	Threshold   string    `json:"threshold"`
	Bounds      rawBounds `json:"bounds"`
	Description string    `json:"description"`
	Bad         string    `json:"bad"`
	Total       string    `json:"total"`
	GroupBy     []string  `json:"group_by"`
	MaxGroups   int       `json:"max_groups"`
}

// rawBounds are a goodput SLO's latency bounds.
type rawBounds struct {
	TTFT string `json:"ttft"`
	TPOT string `json:"tpot"`
	E2E  string `json:"e2e"`
}

type rawAlerting struct {
	Labels         map[string]string `json:"labels"`
	PageSeverity   string            `json:"page_severity"`
	TicketSeverity string            `json:"ticket_severity"`
	RunbookURL     string            `json:"runbook_url"`
	RunbookBaseURL string            `json:"runbook_base_url"`
	GrafanaURL     string            `json:"grafana_url"`
	Receivers      struct {
		Page   string `json:"page"`
		Ticket string `json:"ticket"`
	} `json:"receivers"`
	For            map[string]string `json:"for"`
	MinEvents      int               `json:"min_events"`
	TrafficDrop    string            `json:"traffic_drop"`
	TrafficDropFor string            `json:"traffic_drop_for"`
	Budget         string            `json:"budget"`
	BudgetWarn     float64           `json:"budget_warn_remaining"`
	PageOn         []string          `json:"page_on"`
}

type rawMetrics struct {
	Requests          string `json:"requests"`
	Errors            string `json:"errors"`
	Latency           string `json:"latency"`
	TTFT              string `json:"ttft"`
	ITL               string `json:"itl"`
	TPOT              string `json:"tpot"`
	Queue             string `json:"queue"`
	Running           string `json:"running"`
	Waiting           string `json:"waiting"`
	KVCache           string `json:"kv_cache"`
	PromptTokens      string `json:"prompt_tokens"`
	GenerationTokens  string `json:"generation_tokens"`
	OOM               string `json:"oom"`
	Preemptions       string `json:"preemptions"`
	PrefixHits        string `json:"prefix_cache_hits"`
	PrefixQueries     string `json:"prefix_cache_queries"`
	GPUMemory         string `json:"gpu_memory"`
	GPUMemoryReserved string `json:"gpu_memory_reserved"`
	ModelLabel        string `json:"model_label"`
	Port              int    `json:"port"`
	Path              string `json:"path"`
}

type rawBuckets struct {
	Latency []float64 `json:"latency"`
	TTFT    []float64 `json:"ttft"`
	ITL     []float64 `json:"itl"`
	TPOT    []float64 `json:"tpot"`
	Queue   []float64 `json:"queue"`
}

type rawDCGM struct {
	Job         string   `json:"job"`
	Mapping     string   `json:"mapping"`
	Pod         string   `json:"pod"`
	Hosts       []string `json:"hosts"`
	HonorLabels bool     `json:"honor_labels"`
}

type rawOperator struct {
	Labels             map[string]string `json:"labels"`
	SelectAll          bool              `json:"select_all"`
	DashboardNamespace string            `json:"dashboard_namespace"`
}
