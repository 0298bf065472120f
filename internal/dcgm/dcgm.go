// Package dcgm names the dcgm-exporter fields that slogen's GPU alerts and
// dashboards read, and the memory trend both draw, so that the two cannot
// drift apart. The alerts' tests (internal/generate/gputests) spell the fields on
// their own, so that a misspelt name here fails them instead of being
// copied into them. docs/metrics.md lists the fields with their sources.
package dcgm

import (
	"fmt"
	"time"
)

// Fields, as dcgm-exporter names its series.
const (
	FBUsed       = "DCGM_FI_DEV_FB_USED"     // frame buffer used, MiB
	FBFree       = "DCGM_FI_DEV_FB_FREE"     // MiB
	GPUTemp      = "DCGM_FI_DEV_GPU_TEMP"    // °C
	GPUUtil      = "DCGM_FI_DEV_GPU_UTIL"    // percent
	PowerUsage   = "DCGM_FI_DEV_POWER_USAGE" // W
	XIDErrors    = "DCGM_FI_DEV_XID_ERRORS"  // the last XID error's code
	TensorActive = "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"
	DRAMActive   = "DCGM_FI_PROF_DRAM_ACTIVE"
	// The GPU health alerts' fields.
	PCIeReplays               = "DCGM_FI_DEV_PCIE_REPLAY_COUNTER"         // PCIe retries, a counter
	ECCDoubleBit              = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"           // double-bit ECC errors since the driver loaded
	RowRemapFailure           = "DCGM_FI_DEV_ROW_REMAP_FAILURE"           // 1 when a row could not be remapped
	UncorrectableRemappedRows = "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS" // rows remapped for uncorrectable errors, a counter
)

// Violations are the nanoseconds a GPU's clocks were held down, one
// counter per reason: every reason but low utilisation, which is a GPU
// with nothing to do.
var Violations = []string{
	"DCGM_FI_DEV_POWER_VIOLATION", "DCGM_FI_DEV_THERMAL_VIOLATION", "DCGM_FI_DEV_SYNC_BOOST_VIOLATION",
	"DCGM_FI_DEV_BOARD_LIMIT_VIOLATION", "DCGM_FI_DEV_RELIABILITY_VIOLATION",
}

// NVLinkErrors are the NVLink error counters, over all of a GPU's links.
var NVLinkErrors = []string{
	"DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
	"DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
}

// Field is one dcgm-exporter field as its counters file declares it.
type Field struct {
	Name, Type, Help string
	// Default reports whether dcgm-exporter collects it out of the box
	// (etc/default-counters.csv, 4.5.3-4.8.2).
	Default bool
}

// Read are every field slogen's rules and dashboards read, in the order
// a counters file lists them.
var Read = append([]Field{
	{GPUTemp, "gauge", "GPU temperature (in C).", true},
	{PowerUsage, "gauge", "Power draw (in W).", true},
	{PCIeReplays, "counter", "Total number of PCIe retries.", true},
	{GPUUtil, "gauge", "GPU utilization (in %).", true},
	{XIDErrors, "gauge", "Value of the last XID error encountered.", true},
	{FBFree, "gauge", "Framebuffer memory free (in MiB).", true},
	{FBUsed, "gauge", "Framebuffer memory used (in MiB).", true},
	{UncorrectableRemappedRows, "counter", "Number of remapped rows for uncorrectable errors.", true},
	{RowRemapFailure, "gauge", "Whether remapping of rows has failed.", true},
	{TensorActive, "gauge", "Ratio of cycles the tensor (HMMA) pipe is active.", true},
	{DRAMActive, "gauge", "Ratio of cycles the device memory interface is active sending or receiving data.", true},
	{ECCDoubleBit, "counter", "Total number of double-bit volatile ECC errors.", false},
}, append(fields(Violations, "counter", "Throttling duration due to %s (in ns).", violationReasons), fields(NVLinkErrors, "counter", "Total number of NVLink %s errors.", nvlinkKinds)...)...)

var (
	violationReasons = []string{"power constraints", "thermal constraints", "sync-boost constraints", "board limit constraints", "reliability constraints"}
	nvlinkKinds      = []string{"flow-control CRC", "data CRC", "replay", "recovery"}
)

func fields(names []string, typ, help string, what []string) []Field {
	out := make([]Field, len(names))
	for i, n := range names {
		out[i] = Field{Name: n, Type: typ, Help: fmt.Sprintf(help, what[i])}
	}
	return out
}

// GPU memory's trend is fitted over TrendWindow and projected LeakHorizon
// ahead, by the leak alert and the dashboard's VRAM panels alike.
const (
	TrendWindow = time.Hour
	LeakHorizon = 4 * time.Hour
)
