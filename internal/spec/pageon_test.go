package spec

import (
	"slices"
	"strings"
	"testing"
)

func pageOnSpec(list string) string {
	return `services: chat: {
	runtime: "vllm"
	selector: {job: "chat", namespace: "ml"}
	alerting: page_on: ` + list + `
	slos: availability: objective: 99.5
}
`
}

func TestPageOnPromotesTheNamedCauseAlerts(t *testing.T) {
	res, err := LoadSources(Source{Name: "chat.cue", Data: []byte(pageOnSpec(`["KVCacheHigh", "GPUXIDErrors", "KVCacheHigh"]`))})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Spec.Services[0].Alerting
	if !slices.Equal(a.PageOn, []string{"GPUXIDErrors", "KVCacheHigh"}) {
		t.Errorf("page_on resolves to %v, want GPUXIDErrors and KVCacheHigh once each", a.PageOn)
	}
	if a.CauseSeverity("KVCacheHigh") != "critical" || a.CauseSeverity("GPUMemoryHigh") != "warning" {
		t.Errorf("KVCacheHigh is %s, GPUMemoryHigh %s: want the promoted one critical, the other warning",
			a.CauseSeverity("KVCacheHigh"), a.CauseSeverity("GPUMemoryHigh"))
	}
}

func TestPageOnNamesEveryWrongAlertAtOnce(t *testing.T) {
	_, err := LoadSources(Source{Name: "chat.cue", Data: []byte(pageOnSpec(`["KVCachHigh", "SLOErrorBudgetBurn", "DiskFull"]`))})
	if err == nil {
		t.Fatal("page_on with names of no GPU or serving alert loads")
	}
	for _, want := range []string{
		`chat.cue:4:22: services.chat.alerting.page_on: "KVCachHigh" is not a GPU or serving alert; did you mean "KVCacheHigh"?`,
		`services.chat.alerting.page_on: "SLOErrorBudgetBurn" is not a GPU or serving alert: SLO alerts are symptoms and set their severity elsewhere`,
		`services.chat.alerting.page_on: "DiskFull" is not a GPU or serving alert; write one of GPUECCErrors, GPUExporterDown,`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say\n%s\nit says:\n%v", want, err)
		}
	}
}
