package gpualerts

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// The GPU's own health, from DCGM: a GPU that degrades hides behind slow
// or failing requests unless these say which GPU and why. Each is a
// ticket about one GPU: drain it, reset it or replace it, by daylight.

// HealthWindow is how long a health alert keeps firing after the last
// error it saw: an error counter that stops rising has been dealt with
// (or was a one-off), and an alert on its value alone would fire until
// the driver reloads.
const HealthWindow = 10 * time.Minute

// xidMemory is how far back an XID code counts as seen before.
const xidMemory = time.Hour

// ThrottleWindow is the window the throttled share and the PCIe retry
// rate are read over.
const ThrottleWindow = 5 * time.Minute

// throttleFor and replayFor: how long throttling or retries must last.
const (
	throttleFor = 10 * time.Minute
	replayFor   = 10 * time.Minute
)

func throttled(svc model.Service) (alertDef, *Skip) {
	pct := num(svc.Thresholds.ThrottlePercent)
	// The most limiting reason's share: reasons that hold at once would
	// count twice in a sum.
	shares := perField(svc, dcgm.Violations, pql.Rate, ThrottleWindow)
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.Violations[0],
		expr:        pql.Gt(pql.Div(pql.Max(shares, perGPU(svc)), pql.Decimal("1e9")), ratio(svc.Thresholds.ThrottlePercent)),
		summary:     fmt.Sprintf("GPU clocks held down over %s%% of the time", pct),
		title:       text("%s: clocks held down %s of the time (over %s%%)", gpuName(svc), valuePercent, pct),
		description: text("%s, serving %s, has had its clocks held down by one of power, heat, sync boost, board or reliability limits for more than %s%% of the time for %s, %s of the last %s now: it serves slower than it can. Check the node's cooling and power capping.", gpuName(svc), svc.Name, pct, genfile.Duration(throttleFor), valuePercent, genfile.Duration(ThrottleWindow)),
	}, nil
}

func eccErrors(svc model.Service) (alertDef, *Skip) {
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.ECCDoubleBit,
		expr:        pql.Gt(pql.Max(pql.Increase(gpuSelector(svc, dcgm.ECCDoubleBit), HealthWindow), perGPU(svc)), pql.Num(0)),
		summary:     "GPU double-bit ECC errors",
		title:       text("%s: %s double-bit ECC errors in the last %s", gpuName(svc), valueNumber, genfile.Duration(HealthWindow)),
		description: text("%s, serving %s, reported %s uncorrectable (double-bit) ECC memory errors in the last %s: data it computes may be wrong. Drain it and reset it; replace it if the errors come back.", gpuName(svc), svc.Name, valueNumber, genfile.Duration(HealthWindow)),
	}, nil
}

// rowRemapFailure's value is the failure flag or a count of rows, which
// of the two the alert cannot say, so its text shows neither.
func rowRemapFailure(svc model.Service) (alertDef, *Skip) {
	failed := pql.Gt(pql.Max(gpuSelector(svc, dcgm.RowRemapFailure), perGPU(svc)), pql.Num(0))
	remapped := pql.Gt(pql.Max(pql.Increase(gpuSelector(svc, dcgm.UncorrectableRemappedRows), HealthWindow), perGPU(svc)), pql.Num(0))
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.RowRemapFailure,
		expr:        pql.Chain(parser.LOR, pql.Match{}, failed, remapped),
		summary:     "GPU memory row remapping failed or uncorrectable rows remapped",
		title:       text("%s: memory row remapping failed or uncorrectable rows remapped", gpuName(svc)),
		description: text("%s, serving %s, could not remap a faulty memory row, or remapped rows for uncorrectable errors in the last %s. A failed remap needs the GPU replaced; remapped rows take effect after a GPU reset.", gpuName(svc), svc.Name, genfile.Duration(HealthWindow)),
	}, nil
}

func pcieReplays(svc model.Service) (alertDef, *Skip) {
	n := num(svc.Thresholds.PCIeReplaysPerMinute)
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.PCIeReplays,
		expr:        pql.Gt(pql.Mul(pql.Max(pql.Rate(gpuSelector(svc, dcgm.PCIeReplays), ThrottleWindow), perGPU(svc)), pql.Num(60)), pql.Num(svc.Thresholds.PCIeReplaysPerMinute)),
		summary:     fmt.Sprintf("more than %s PCIe retries a minute", n),
		title:       text("%s: %s PCIe retries a minute (over %s)", gpuName(svc), valueNumber, n),
		description: text("%s, serving %s, has retried more than %s PCIe transfers a minute for %s, %s a minute now: its link is failing (a riser, a slot, a cable). Check the link width and speed with nvidia-smi -q.", gpuName(svc), svc.Name, n, genfile.Duration(replayFor), valueNumber),
	}, nil
}

func nvlinkErrors(svc model.Service) (alertDef, *Skip) {
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.NVLinkErrors[0],
		expr:        pql.Gt(pql.Sum(perField(svc, dcgm.NVLinkErrors, pql.Increase, HealthWindow), perGPU(svc)), pql.Num(0)),
		summary:     "GPU NVLink errors",
		title:       text("%s: %s NVLink errors in the last %s", gpuName(svc), valueNumber, genfile.Duration(HealthWindow)),
		description: text("%s, serving %s, counted %s NVLink CRC, replay or recovery errors in the last %s: transfers between its GPUs are being retried, and tensor-parallel inference slows or fails. Check the links with nvidia-smi nvlink -e.", gpuName(svc), svc.Name, valueNumber, genfile.Duration(HealthWindow)),
	}, nil
}

// perField applies fn (pql.Rate or pql.Increase) over window to each
// DCGM field on the service's GPUs, each result labelled with its field:
// fn drops the metric name, and two fields of one GPU would otherwise be
// two series with one label set, which Prometheus refuses.
func perField(svc model.Service, names []string, fn func(pql.Expr, time.Duration) *parser.Call, window time.Duration) pql.Expr {
	var all pql.Expr
	for _, n := range names {
		term := pql.Call("label_replace", fn(gpuSelector(svc, n), window), pql.Str("field"), pql.Str(n), pql.Str(""), pql.Str(""))
		if all == nil {
			all = term
		} else {
			all = pql.Or(all, term)
		}
	}
	return all
}
