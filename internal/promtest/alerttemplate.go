package promtest

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/template"
)

// templateDefs are the convenience variables rules/alerting.go prepends to
// every label and annotation template.
const templateDefs = "{{$labels := .Labels}}" +
	"{{$externalLabels := .ExternalLabels}}" +
	"{{$externalURL := .ExternalURL}}" +
	"{{$value := .Value}}"

// expander returns a function that expands one template for the alert
// instance built from smpl, exactly as Prometheus does; a failing template
// yields Prometheus's error text instead of failing the rule.
func (r *alertingRule) expander(ctx context.Context, ts time.Time, smpl promql.Sample, query queryFunc) func(string) string {
	data := template.AlertTemplateData(smpl.Metric.Map(), r.ac.externalLabels, r.ac.externalURL, smpl)
	return func(text string) string {
		// The expander's own URL is nil because promtool leaves the rule
		// manager's ExternalURL unset; $externalURL comes from data.
		tmpl := template.NewTemplateExpander(ctx, templateDefs+text, "__alert_"+r.name, data,
			model.Time(timestamp.FromTime(ts)), template.QueryFunc(query), nil, nil)
		out, err := tmpl.Expand()
		if err != nil {
			return fmt.Sprintf("<error expanding template: %s>", err)
		}
		return out
	}
}
