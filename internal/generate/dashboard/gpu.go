package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/pql"
)

// The GPU row reads dcgm-exporter's default counters. The DCGM_FI_PROF_*
// fields are ratios and need a datacenter GPU (Volta or later) with
// profiling allowed; elsewhere their series are missing.

// gpuPanels are the GPU row, from dcgm-exporter.
func gpuPanels(s scope) []cog.Builder[dashboard.Panel] {
	return []cog.Builder[dashboard.Panel]{activity(s), temperatureAndPower(s)}
}

// activity puts utilisation, tensor-core and memory-bandwidth activity on
// one 0–100 % scale: busy but with idle tensor cores means the GPU is not
// doing matrix work (small batches, CPU-bound steps).
func activity(s scope) cog.Builder[dashboard.Panel] {
	p := timeseriesPanel("GPU utilisation, tensor cores, memory bandwidth",
		"DCGM GPU utilisation, and the share of cycles the tensor pipes and DRAM were active. The last two need "+
			"DCGM profiling metrics (datacenter GPUs; on by default since dcgm-exporter 4.0) and are missing otherwise. "+
			"The dashed line is the utilisation alert threshold.",
		units.PercentUnit,
		plot(pql.Div(s.gpu(dcgm.GPUUtil), pql.Num(100)), s.gpuLegend("util")),
		plot(s.gpu(dcgm.TensorActive), s.gpuLegend("tensor")),
		plot(s.gpu(dcgm.DRAMActive), s.gpuLegend("DRAM")),
	).Min(0).Max(1)
	return withLines(p, "green", step{s.svc.Thresholds.GPUUtilPercent / 100, "red"})
}

func temperatureAndPower(s scope) cog.Builder[dashboard.Panel] {
	p := timeseriesPanel("GPU temperature and power",
		"GPU die temperature, and on the right axis the board's power draw, per GPU: a hot GPU near its power limit lowers its clocks. "+
			"The dashed line is the temperature alert threshold.",
		units.Celsius,
		plot(s.gpu(dcgm.GPUTemp), s.gpuLegend("")),
		plot(s.gpu(dcgm.PowerUsage), s.gpuLegend("power")),
	).OverrideByQuery(refID(1), append(rightAxis(units.Watt), noThresholdLine()...))
	return withLines(p, "green", step{s.svc.Thresholds.GPUTempCelsius, "red"})
}
