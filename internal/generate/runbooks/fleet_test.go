package runbooks_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// eachAlone is every service its own rule template, as generate.Fleet's
// are until templates are found.
func eachAlone(n int) [][]int {
	t := make([][]int, n)
	for i := range t {
		t[i] = []int{i}
	}
	return t
}

func fleetServices(t *testing.T, n int) []model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: testenv.Fleet(n)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services
}

func renderFleet(t *testing.T, tm *runbooks.Templates, svcs []model.Service, templates [][]int) ([]byte, int) {
	t.Helper()
	page, renders, err := runbooks.RenderFleetCounted(tm, svcs, templates)
	if err != nil {
		t.Fatal(err)
	}
	return page, renders
}

// headingCounts counts the page's second-level headings.
func headingCounts(page []byte) map[string]int {
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^## (.+)$`).FindAllSubmatch(page, -1) {
		n[string(m[1])]++
	}
	return n
}

// A fleet's runbook has a section for every alert of every service, once,
// however the services' runbooks differ: examples/fleet's differ in
// objectives, model, selector and clusters.
func TestFleetRunbookHasEveryAlertOnce(t *testing.T) {
	svcs := loadServices(t, "../../../examples/fleet/chat-clusters.cue", "../../../examples/fleet/models-vllm.cue", "../../../examples/fleet/teams-models.cue")
	tm, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	page, _ := renderFleet(t, tm, svcs, eachAlone(len(svcs)))
	headings := headingCounts(page)
	for _, svc := range svcs {
		for _, r := range fleetAlertRules(svc) {
			if headings[r.Alert] != 1 {
				t.Errorf("%s's alert %s heads %d sections, want 1", svc.Name, r.Alert, headings[r.Alert])
			}
		}
	}
	for name, n := range headings {
		if n != 1 {
			t.Errorf("## %s heads %d sections", name, n)
		}
	}
	anchors := runbooks.Anchors(page)
	for _, a := range localLinks(page) {
		if !anchors[a] {
			t.Errorf("the fleet runbook links to #%s, which no heading has", a)
		}
	}
}

// localLinks are the anchors the page's links point at.
func localLinks(page []byte) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\]\(#([^) ]+)\)`).FindAllSubmatch(page, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// Services of one shape render once, whatever templates say: 1000 of them
// make a runbook the size of one service's plus its table of services, not
// a copy each.
func TestFleetRunbookOfAThousandRendersOnce(t *testing.T) {
	svcs := fleetServices(t, 1000)
	tm, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	page, renders := renderFleet(t, tm, svcs, eachAlone(len(svcs)))
	if renders != 1 {
		t.Errorf("rendered %d pages for 1000 services of one shape, want 1", renders)
	}
	one := render(t, svcs[0])
	if limit := len(one) + 150*len(svcs); len(page) > limit {
		t.Errorf("the runbook of 1000 services is %d bytes, over one service's %d and 150 bytes a service", len(page), len(one))
	}
	for _, name := range []string{"svc-0000", "svc-0999"} {
		if !bytes.Contains(page, []byte("| `"+name+"` |")) {
			t.Errorf("the table of services has no row for %s", name)
		}
	}
	if bytes.Contains(page, []byte("\nFor ")) {
		t.Error("services of one shape got parts of sections, not one text")
	}
}

// The identity is written as placeholders where the templates write it,
// in code and headings, so that services that differ only in it read
// alike: a shape's placeholders anywhere there, a real service's name,
// team, model and selector values as whole words. Prose keeps its words.
func TestFleetRunbookWritesIdentityAsPlaceholders(t *testing.T) {
	svc := model.Service{
		Name: "chat", Team: "ml", Model: "meta-llama/Llama-3.1-8B",
		Selector: []labels.Label{{Name: "job", Value: "vllm"}, {Name: "namespace", Value: "inference"}},
	}
	in := "# Runbook: chat\n\nFor `chat` (`slogen-chat`, not ``chatbot``), a chat about inference.\n\n" +
		"```promql\nvllm:kv{job=\"vllm\",namespace=\"inference\",pod=~\"chat-.*\"} # ml, html\n```\n| `ml` | `meta-llama/Llama-3.1-8B` |"
	want := "# Runbook: {service}\n\nFor `{service}` (`slogen-{service}`, not ``chatbot``), a chat about inference.\n\n" +
		"```promql\nvllm:kv{job=\"{selector.job}\",namespace=\"{selector.namespace}\",pod=~\"{service}-.*\"} # {team}, html\n```\n| `{team}` | `{model}` |"
	if got := runbooks.Replace(svc, false, in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := runbooks.Replace(model.Service{Name: "z-0q"}, true, "`slogen-z-0qz-0q` z-0q"); got != "`slogen-{service}{service}` z-0q" {
		t.Errorf("a shape's placeholders: got %s", got)
	}
}

// Headings nest under the fleet runbook's; code, which may hold #, does not
// change.
func TestDemoteLeavesCodeAlone(t *testing.T) {
	in := "# Runbook\n\n```promql\n# not a heading\n```\n## Objectives\n###### deep\n#hashtag"
	want := "## Runbook\n\n```promql\n# not a heading\n```\n### Objectives\n###### deep\n#hashtag"
	if got := runbooks.Demote(in, 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Services whose runbooks differ get a part of a section each, headed by
// what tells them apart, naming the services it is for.
func TestFleetRunbookPartsTellServicesApart(t *testing.T) {
	dir := t.TempDir()
	cue := strings.Replace(string(testenv.Fleet(4)), `services: "svc-0003": {`, `services: "svc-0003": {
	thresholds: kv_cache_percent: 80`, 1)
	file := filepath.Join(dir, "fleet.cue")
	if err := os.WriteFile(file, []byte(cue), 0o644); err != nil {
		t.Fatal(err)
	}
	svcs := loadServices(t, file)
	tm, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	page, renders := renderFleet(t, tm, svcs, eachAlone(len(svcs)))
	if renders != 2 {
		t.Errorf("rendered %d pages for a shape of 3 and a service of its own, want 2", renders)
	}
	section := sectionOf(t, page, "KVCacheHigh")
	for _, want := range []string{
		"### `kv_cache_percent` 95\n\nFor `svc-0000`, `svc-0001` and `svc-0002`.\n",
		"### `kv_cache_percent` 80\n\nFor `svc-0003`.\n",
		"> 0.8\n",
	} {
		if !strings.Contains(section, want) {
			t.Errorf("KVCacheHigh's section lacks %q:\n%s", want, section)
		}
	}
	if burn := sectionOf(t, page, "GPUXIDErrors"); strings.Contains(burn, "\nFor ") {
		t.Errorf("a section the services share has parts:\n%s", burn)
	}
}

// sectionOf is the text of the page's section under ## name.
func sectionOf(t *testing.T, page []byte, name string) string {
	t.Helper()
	_, rest, ok := strings.Cut(string(page), "\n## "+name+"\n")
	if !ok {
		t.Fatalf("no section %s", name)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// User templates render for every rule template's first service, its
// identity written as placeholders too where they write it as code.
func TestFleetRunbookRendersUserTemplates(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kvcachehigh.md.tmpl"), []byte("Ours: drain `{{.Service}}` above {{.Thresholds.KVCachePercent}}%.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm, err := runbooks.Override(dir)
	if err != nil {
		t.Fatal(err)
	}
	svcs := fleetServices(t, 3)
	page, renders := renderFleet(t, tm, svcs, [][]int{{0, 2}, {1}})
	if renders != 2 {
		t.Errorf("rendered %d pages for 2 rule templates, want 2", renders)
	}
	if got := sectionOf(t, page, "KVCacheHigh"); got != "\nOurs: drain `{service}` above 95%.\n" {
		t.Errorf("KVCacheHigh's section is %q", got)
	}
	if n := headingCounts(page)["KVCacheHigh"]; n != 1 {
		t.Errorf("KVCacheHigh heads %d sections", n)
	}
}

// fleetAlertRules are a service's alerting rules as a fleet's rule files
// hold them.
func fleetAlertRules(svc model.Service) []struct{ Alert, URL string } {
	sp := plan.NewIn(svc, plan.Fleet)
	var out []struct{ Alert, URL string }
	for _, g := range slices.Concat(sp.Local, sp.Global, sp.GPURules) {
		for _, r := range g.Rules {
			if r.Alert != "" {
				out = append(out, struct{ Alert, URL string }{r.Alert, r.Annotations["runbook_url"]})
			}
		}
	}
	return out
}

// In a fleet, every runbook_base_url link of every service's rule files
// lands on a section of the fleet's one runbook, and names no service.
func TestFleetLinksLandInTheFleetRunbook(t *testing.T) {
	const base = "https://git.example.com/org/slo/blob/main/deploy"
	svcs := loadServices(t, "../../../examples/fleet/chat-clusters.cue", "../../../examples/fleet/models-vllm.cue", "../../../examples/fleet/teams-models.cue")
	for i := range svcs {
		svcs[i].Alerting.RunbookURL, svcs[i].Alerting.RunbookBaseURL = "", base
	}
	tm, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	page, _ := renderFleet(t, tm, svcs, eachAlone(len(svcs)))
	anchors := runbooks.Anchors(page)
	for _, svc := range svcs {
		for _, r := range fleetAlertRules(svc) {
			if a, ok := strings.CutPrefix(r.URL, base+"/runbook.md#"); !ok || !anchors[a] {
				t.Errorf("%s: %s links %s, which is no section of the fleet's runbook", svc.Name, r.Alert, r.URL)
			}
		}
	}
}
