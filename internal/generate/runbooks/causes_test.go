package runbooks_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// mentioned are the alerts a runbook names, linked or in code.
var mentioned = regexp.MustCompile("\\[(\\w+)\\]\\(#\\w+\\)|`(\\w+)`")

// TestRunbookNamesOnlyTheAlertsItsRulesHave: vLLM exports no OOM counter,
// so its runbook must not offer GPUOOMEvents, in the thresholds or
// anywhere else; every cause alert it names is one its rules contain.
func TestRunbookNamesOnlyTheAlertsItsRulesHave(t *testing.T) {
	for _, file := range []string{"../../../examples/vllm/chat-llama.cue", "../../../examples/triton/ranker-triton.cue"} {
		svc := loadServices(t, file)[0]
		has := map[string]bool{}
		for _, r := range alertRules(svc) {
			has[r.Alert] = true
		}
		page := string(render(t, svc))
		for _, m := range mentioned.FindAllStringSubmatch(page, -1) {
			name := m[1] + m[2]
			if slices.Contains(gpualerts.Causes, name) && !has[name] {
				t.Errorf("%s: the runbook names %s, which its rules do not have", svc.Name, name)
			}
		}
		if svc.Runtime == "vllm" && strings.Contains(page, gpualerts.OOMEvents) {
			t.Errorf("%s: a vLLM runbook mentions %s", svc.Name, gpualerts.OOMEvents)
		}
	}
}

// TestRunbookSaysWhichCausesPage: by default every cause is a ticket and
// the runbook says how to promote one; a promoted one is listed as a page,
// and its section says why.
func TestRunbookSaysWhichCausesPage(t *testing.T) {
	svc := loadServices(t, "../../../examples/vllm/chat-llama.cue")[0]
	page := string(render(t, svc))
	for _, want := range []string{"- [KVCacheHigh](#kvcachehigh): a ticket", "## Pages and tickets", "alerting: page_on: ["} {
		if !strings.Contains(page, want) {
			t.Errorf("the default runbook does not say %q", want)
		}
	}
	svc.Alerting.PageOn = []string{gpualerts.KVCacheHigh}
	page = string(render(t, svc))
	for _, want := range []string{"- [KVCacheHigh](#kvcachehigh): a page", "This service promotes [KVCacheHigh](#kvcachehigh) to a page",
		"A cause that pages: `alerting.page_on` names it"} {
		if !strings.Contains(page, want) {
			t.Errorf("with page_on [KVCacheHigh], the runbook does not say %q", want)
		}
	}
}
