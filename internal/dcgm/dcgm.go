// Package dcgm names the dcgm-exporter fields that slogen's GPU alerts and
// dashboards read, and the memory trend both draw, so that the two cannot
// drift apart. The alerts' tests (generate/gputests) spell the fields on
// their own, so that a misspelt name here fails them instead of being
// copied into them. docs/metrics.md lists the fields with their sources.
package dcgm

import "time"

// Fields, as dcgm-exporter names its series.
const (
	FBUsed = "DCGM_FI_DEV_FB_USED" // frame buffer used, MiB
	FBFree = "DCGM_FI_DEV_FB_FREE" // MiB
	// FBReserved came in dcgm-exporter 4.3.1-4.4.0; before it, used and
	// free added up to the total.
	FBReserved   = "DCGM_FI_DEV_FB_RESERVED"
	GPUTemp      = "DCGM_FI_DEV_GPU_TEMP"    // °C
	GPUUtil      = "DCGM_FI_DEV_GPU_UTIL"    // percent
	PowerUsage   = "DCGM_FI_DEV_POWER_USAGE" // W
	XIDErrors    = "DCGM_FI_DEV_XID_ERRORS"  // the last XID error's code
	TensorActive = "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"
	DRAMActive   = "DCGM_FI_PROF_DRAM_ACTIVE"
)

// GPU memory's trend is fitted over TrendWindow and projected LeakHorizon
// ahead, by the leak alert and the dashboard's VRAM panels alike.
const (
	TrendWindow = time.Hour
	LeakHorizon = 4 * time.Hour
)
