package promtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"go.yaml.in/yaml/v3"
)

// The types below mirror promtool's unit-test file format
// (cmd/promtool/unittest.go); the YAML names must stay identical.

// testFile is one unit-test file.
type testFile struct {
	RuleFiles          []string       `yaml:"rule_files"`
	EvaluationInterval model.Duration `yaml:"evaluation_interval,omitempty"`
	GroupEvalOrder     []string       `yaml:"group_eval_order"`
	Tests              []testGroup    `yaml:"tests"`
	FuzzyCompare       bool           `yaml:"fuzzy_compare,omitempty"`
}

// testGroup is a set of input series and the checks run against them.
type testGroup struct {
	Interval        model.Duration  `yaml:"interval"`
	InputSeries     []inputSeries   `yaml:"input_series"`
	AlertRuleTests  []alertTestCase `yaml:"alert_rule_test,omitempty"`
	PromqlExprTests []exprTestCase  `yaml:"promql_expr_test,omitempty"`
	ExternalLabels  labels.Labels   `yaml:"external_labels,omitempty"`
	ExternalURL     string          `yaml:"external_url,omitempty"`
	Name            string          `yaml:"name,omitempty"`
	StartTimestamp  startTimestamp  `yaml:"start_timestamp,omitempty"`
}

type inputSeries struct {
	Series string `yaml:"series"`
	Values string `yaml:"values"`
}

type alertTestCase struct {
	EvalTime  model.Duration `yaml:"eval_time"`
	Alertname string         `yaml:"alertname"`
	ExpAlerts []expAlert     `yaml:"exp_alerts"`
}

type expAlert struct {
	ExpLabels      map[string]string `yaml:"exp_labels"`
	ExpAnnotations map[string]string `yaml:"exp_annotations"`
}

type exprTestCase struct {
	Expr       string         `yaml:"expr"`
	EvalTime   model.Duration `yaml:"eval_time"`
	ExpSamples []expSample    `yaml:"exp_samples"`
}

type expSample struct {
	Labels    string  `yaml:"labels"`
	Value     float64 `yaml:"value"`
	Histogram string  `yaml:"histogram"` // accepted so the error can say it is unsupported
}

// startTimestamp accepts RFC 3339 or Unix seconds, like promtool.
type startTimestamp struct {
	time.Time
}

// UnmarshalYAML implements the yaml obsolete unmarshaler, as promtool does.
func (t *startTimestamp) UnmarshalYAML(unmarshal func(any) error) error {
	var s string
	if err := unmarshal(&s); err != nil {
		return err
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		sec, frac := math.Modf(f)
		t.Time = time.Unix(int64(sec), int64(frac*float64(time.Second))).UTC()
		return nil
	}
	parsed, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("cannot parse %q to a valid timestamp", s)
	}
	t.Time = parsed
	return nil
}

// readTestFile decodes a test file strictly (promtool uses UnmarshalStrict),
// resolves its rule_files and fills in promtool's defaults. warn receives
// promtool's warning for rule file patterns that match nothing.
func readTestFile(path string, warn io.Writer) (*testFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f testFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := f.resolveRuleFiles(filepath.Dir(path), warn); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.EvaluationInterval == 0 {
		f.EvaluationInterval = model.Duration(time.Minute)
	}
	for i := range f.Tests {
		if f.Tests[i].Interval == 0 {
			f.Tests[i].Interval = f.EvaluationInterval
		}
	}
	return &f, nil
}

// resolveRuleFiles makes relative rule_files relative to the test file's
// directory and expands globs, as promtool does.
func (f *testFile) resolveRuleFiles(baseDir string, warn io.Writer) error {
	var files []string
	for _, rf := range f.RuleFiles {
		if rf != "" && !filepath.IsAbs(rf) {
			rf = filepath.Join(baseDir, rf)
		}
		m, err := filepath.Glob(rf)
		if err != nil {
			return fmt.Errorf("rule_files %q: %w", rf, err)
		}
		if len(m) == 0 {
			fmt.Fprintln(warn, "  WARNING: no file match pattern", rf)
		}
		files = append(files, m...)
	}
	f.RuleFiles = files
	return nil
}
