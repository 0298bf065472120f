package rules_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// A latency SLO's recorded errors read the request recording in place of
// the requests query; its raw SLI reads the raw series alone, over the
// window asked, so it can read history from before the rules ran.
func TestRawSLIReadsOnlyRawSeries(t *testing.T) {
	svc := load(t, "package slo\n"+`services: chat: {runtime: "vllm", selector: {job: "chat"}, slos: ttft: {objective: 99, threshold: "1s", group_by: ["model_name"]}}`)
	errs, reqs := rules.RawSLI(svc.SLOs[0], 30*24*time.Hour)
	for name, e := range map[string]string{"errors": pql.Print(errs), "requests": pql.Print(reqs)} {
		if strings.Contains(e, "slogen:") || !strings.Contains(e, "[30d]") || !strings.Contains(e, "by (model_name)") {
			t.Errorf("%s read other than the raw series over 30d, split by model_name: %s", name, e)
		}
	}
}
