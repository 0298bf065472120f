// Package rules writes a service's Prometheus rule file: SLI recordings,
// error-budget recordings, multiwindow multi-burn-rate alerts and the
// no-data alert. Output is plain rulefmt YAML that Prometheus 2.42 accepts.
package rules

import (
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/pql"
)

// File is a Prometheus rule file.
type File struct {
	Groups []Group `yaml:"groups"`
}

// Group is a rule group. Interval is empty for the global evaluation
// interval. Prometheus 2.42 rejects group labels and query_offset, so
// neither exists here.
type Group struct {
	Name     string `yaml:"name"`
	Interval string `yaml:"interval,omitempty"`
	Rules    []Rule `yaml:"rules"`
}

// Rule is a recording or an alerting rule. yaml sorts the label and
// annotation maps, so output is deterministic. Expr is the query's tree,
// which code that reads what a rule queries (backtest) walks; the file
// holds it as pql.Print prints it, which the YAML writer does when it
// writes the file.
type Rule struct {
	Record      string            `yaml:"record,omitempty"`
	Alert       string            `yaml:"alert,omitempty"`
	Expr        pql.Expr          `yaml:"expr"`
	For         string            `yaml:"for,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// Marshal writes the file with slogen's header.
func Marshal(f File) ([]byte, error) { return genfile.MarshalYAML(f) }
