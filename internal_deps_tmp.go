package slogen

// Temporary: pins the modules the packages under construction import, so
// that go.sum is complete while several people write code at once.
import (
	_ "cuelang.org/go/cue"
	_ "cuelang.org/go/cue/cuecontext"
	_ "cuelang.org/go/cue/errors"
	_ "cuelang.org/go/encoding/json"
	_ "cuelang.org/go/encoding/yaml"
	_ "github.com/grafana/grafana-foundation-sdk/go/dashboard"
	_ "github.com/grafana/grafana-foundation-sdk/go/prometheus"
	_ "github.com/grafana/grafana-foundation-sdk/go/timeseries"
	_ "github.com/prometheus/common/promslog"
	_ "github.com/prometheus/prometheus/model/rulefmt"
	_ "github.com/prometheus/prometheus/promql"
	_ "github.com/prometheus/prometheus/promql/parser"
	_ "github.com/prometheus/prometheus/storage"
	_ "github.com/prometheus/prometheus/template"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "go.yaml.in/yaml/v3"
)
