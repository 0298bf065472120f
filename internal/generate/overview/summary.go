package overview

import (
	"time"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/stat"

	"github.com/slogen-dev/slogen/internal/pql"
)

// Titles of the summary's stats.
const (
	SLOCount       = "SLOs"
	BudgetSpent    = "Budget spent"
	BurningFast    = "Burning too fast (1h)"
	ServicesFiring = "Services alerting"
)

// summary counts, over the picked services, what the table shows row by
// row: the SLOs, those whose budget is spent, those spending it faster
// than their period allows over the last hour, and the services with an
// alert firing. Each reads 0, not "no data", when there are none.
func (f fleet) summary() []cog.Builder[dashboard.Panel] {
	slos := onlyPicked(budget())
	firingServices := pql.Group(pql.And(firing(), picked(), pql.On("service")), pql.By("service"))
	return []cog.Builder[dashboard.Panel]{
		count(SLOCount, "The SLOs of the picked services, each value of a split SLO's labels one.", slos, "blue", 0),
		count(BudgetSpent, "The SLOs that have spent their period's error budget: 0 or less left.",
			pql.Le(slos, pql.Num(0)), "green", 1),
		count(BurningFast, "The SLOs whose errors over the last hour would spend their budget before their period ends (burn rate above 1×).",
			pql.Gt(onlyPicked(f.burn(time.Hour)), pql.Num(1)), "green", 1),
		count(ServicesFiring, "The picked services with at least one alert firing, SLO, GPU or serving.", firingServices, "green", 1),
	}
}

// count is a stat of how many series e has, coloured red from bad on.
func count(title, about string, e pql.Expr, base string, bad float64) cog.Builder[dashboard.Panel] {
	n := pql.Or(pql.Count(e), pql.Call("vector", pql.Num(0)))
	th := thresholds(base)
	if bad > 0 {
		th = thresholds(base, step{bad, "red"})
	}
	return stat.NewPanelBuilder().
		Title(title).
		Description(about).
		Datasource(datasource).
		Unit("none").
		Decimals(0).
		Thresholds(dashboard.NewThresholdsConfigBuilder().Mode(th.Mode).Steps(th.Steps)).
		ColorMode(common.BigValueColorModeBackground).
		GraphMode(common.BigValueGraphModeNone).
		TextMode(common.BigValueTextModeValue).
		JustifyMode(common.BigValueJustifyModeAuto).
		Orientation(common.VizOrientationAuto).
		ReduceOptions(common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"}).Values(false)).
		WithTarget(target(0, n, title).Instant())
}
