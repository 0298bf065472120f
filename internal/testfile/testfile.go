// Package testfile is promtool's rule unit test file, which the SLO
// rules' and the GPU alerts' test generators both write.
package testfile

import (
	"github.com/slogen-dev/slogen/internal/genfile"
)

// File is a promtool test file, in the subset of the format that
// Prometheus 2.42 accepts.
type File struct {
	RuleFiles          []string `yaml:"rule_files"`
	EvaluationInterval string   `yaml:"evaluation_interval"`
	// GroupEvalOrder runs the groups named in this order in each
	// evaluation (groups it leaves out share the first one's place):
	// promtool otherwise takes groups in random order.
	GroupEvalOrder []string `yaml:"group_eval_order,omitempty"`
	Tests          []Test   `yaml:"tests"`
}

// Test is one scenario: input series and what must be firing when.
type Test struct {
	Name        string      `yaml:"name"`
	Interval    string      `yaml:"interval"`
	InputSeries []Series    `yaml:"input_series"`
	AlertTests  []AlertTest `yaml:"alert_rule_test,omitempty"`
	ExprTests   []ExprTest  `yaml:"promql_expr_test,omitempty"`
}

// Series is an input series in promtool's expanding notation.
type Series struct {
	Series string `yaml:"series"`
	Values string `yaml:"values"`
}

// AlertTest lists the alerts of one name that fire at EvalTime. An empty
// ExpAlerts asserts that none does.
type AlertTest struct {
	EvalTime  string     `yaml:"eval_time"`
	Alertname string     `yaml:"alertname"`
	ExpAlerts []ExpAlert `yaml:"exp_alerts"`
}

// ExprTest is a query and the samples it must return at EvalTime. An
// empty ExpSamples asserts that it returns none.
type ExprTest struct {
	Expr       string      `yaml:"expr"`
	EvalTime   string      `yaml:"eval_time"`
	ExpSamples []ExpSample `yaml:"exp_samples"`
}

// ExpSample is one expected sample: its labels in PromQL notation, and
// a whole value, all the checks need.
type ExpSample struct {
	Labels string `yaml:"labels"`
	Value  int64  `yaml:"value"`
}

// ExpAlert is one expected firing alert.
type ExpAlert struct {
	ExpLabels      map[string]string `yaml:"exp_labels"`
	ExpAnnotations map[string]string `yaml:"exp_annotations"`
}

// Marshal writes the file with slogen's header.
func Marshal(f File) ([]byte, error) { return genfile.MarshalYAML(f) }
