package gpualerts

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
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

func throttled(g gpus) alertDef {
	pct := num(g.svc.Thresholds.ThrottlePercent)
	// The most limiting reason's share: reasons that hold at once would
	// count twice in a sum.
	shares := perField(g, dcgm.Violations, pql.Rate, ThrottleWindow)
	return alertDef{
		keeps: g.id, from: dcgm.Violations[0],
		expr:        pql.Gt(pql.Div(pql.Max(shares, g.per()), pql.Decimal("1e9")), ratio(g.svc.Thresholds.ThrottlePercent)),
		summary:     fmt.Sprintf("GPU clocks held down over %s%% of the time", pct),
		title:       text("%s: clocks held down %s of the time (over %s%%)", g.name, valuePercent, pct),
		description: text("%s%s has had its clocks held down by one of power, heat, sync boost, board or reliability limits for more than %s%% of the time for %s, %s of the last %s now: it serves slower than it can. Check the node's cooling and power capping.", g.name, g.serving, pct, genfile.Duration(throttleFor), valuePercent, genfile.Duration(ThrottleWindow)),
	}
}

func eccErrors(g gpus) alertDef {
	return alertDef{
		keeps: g.id, from: dcgm.ECCDoubleBit,
		expr:        pql.Gt(pql.Max(pql.Increase(g.field(dcgm.ECCDoubleBit), HealthWindow), g.per()), pql.Num(0)),
		summary:     "GPU double-bit ECC errors",
		title:       text("%s: %s double-bit ECC errors in the last %s", g.name, valueNumber, genfile.Duration(HealthWindow)),
		description: text("%s%s reported %s uncorrectable (double-bit) ECC memory errors in the last %s: data it computes may be wrong. Drain it and reset it; replace it if the errors come back.", g.name, g.serving, valueNumber, genfile.Duration(HealthWindow)),
	}
}

// rowRemapFailure's value is the failure flag or a count of rows, which
// of the two the alert cannot say, so its text shows neither.
func rowRemapFailure(g gpus) alertDef {
	failed := pql.Gt(pql.Max(g.field(dcgm.RowRemapFailure), g.per()), pql.Num(0))
	remapped := pql.Gt(pql.Max(pql.Increase(g.field(dcgm.UncorrectableRemappedRows), HealthWindow), g.per()), pql.Num(0))
	return alertDef{
		keeps: g.id, from: dcgm.RowRemapFailure,
		expr:        pql.Chain(parser.LOR, pql.Match{}, failed, remapped),
		summary:     "GPU memory row remapping failed or uncorrectable rows remapped",
		title:       text("%s: memory row remapping failed or uncorrectable rows remapped", g.name),
		description: text("%s%s could not remap a faulty memory row, or remapped rows for uncorrectable errors in the last %s. A failed remap needs the GPU replaced; remapped rows take effect after a GPU reset.", g.name, g.serving, genfile.Duration(HealthWindow)),
	}
}

func pcieReplays(g gpus) alertDef {
	n := num(g.svc.Thresholds.PCIeReplaysPerMinute)
	return alertDef{
		keeps: g.id, from: dcgm.PCIeReplays,
		expr:        pql.Gt(pql.Mul(pql.Max(pql.Rate(g.field(dcgm.PCIeReplays), ThrottleWindow), g.per()), pql.Num(60)), pql.Num(g.svc.Thresholds.PCIeReplaysPerMinute)),
		summary:     fmt.Sprintf("more than %s PCIe retries a minute", n),
		title:       text("%s: %s PCIe retries a minute (over %s)", g.name, valueNumber, n),
		description: text("%s%s has retried more than %s PCIe transfers a minute for %s, %s a minute now: its link is failing (a riser, a slot, a cable). Check the link width and speed with nvidia-smi -q.", g.name, g.serving, n, genfile.Duration(replayFor), valueNumber),
	}
}

func nvlinkErrors(g gpus) alertDef {
	return alertDef{
		keeps: g.id, from: dcgm.NVLinkErrors[0],
		expr:        pql.Gt(pql.Sum(perField(g, dcgm.NVLinkErrors, pql.Increase, HealthWindow), g.per()), pql.Num(0)),
		summary:     "GPU NVLink errors",
		title:       text("%s: %s NVLink errors in the last %s", g.name, valueNumber, genfile.Duration(HealthWindow)),
		description: text("%s%s counted %s NVLink CRC, replay or recovery errors in the last %s: transfers between its GPUs are being retried, and tensor-parallel inference slows or fails. Check the links with nvidia-smi nvlink -e.", g.name, g.serving, valueNumber, genfile.Duration(HealthWindow)),
	}
}

// perField applies fn (pql.Rate or pql.Increase) over window to each
// DCGM field on the service's GPUs, each result labelled with its field:
// fn drops the metric name, and two fields of one GPU would otherwise be
// two series with one label set, which Prometheus refuses.
func perField(g gpus, names []string, fn func(pql.Expr, time.Duration) *parser.Call, window time.Duration) pql.Expr {
	var all pql.Expr
	for _, n := range names {
		term := pql.Call("label_replace", fn(g.field(n), window), pql.Str("field"), pql.Str(n), pql.Str(""), pql.Str(""))
		if all == nil {
			all = term
		} else {
			all = pql.Or(all, term)
		}
	}
	return all
}
