package runbooks_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
)

// allAlerts is every alert internal/plan/rules and internal/plan/gpualerts can
// write: the SLO alerts, and the GPU and serving alerts' catalog.
// TestExampleGetsEveryAlert keeps the SLO alerts whole: the example
// service gets every alert, and no other.
var allAlerts = append([]string{
	rules.BurnAlert, rules.NoDataAlert, rules.TrafficDropAlert, rules.BudgetGoneAlert, rules.BudgetLowAlert, rules.TooManyGroupsAlert, rules.ClusterMissingAlert,
}, gpualerts.Causes...)

func loadServices(t *testing.T, files ...string) []model.Service {
	t.Helper()
	res, err := spec.Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services
}

func exampleService(t *testing.T) model.Service {
	t.Helper()
	return loadServices(t, "testdata/example.cue")[0]
}

func render(t *testing.T, svc model.Service) []byte {
	t.Helper()
	tm, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	page, err := renderWith(tm, svc)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// alertRules are a service's alerting rules, as its rule files hold them.
func alertRules(svc model.Service) []rules.Rule {
	var out []rules.Rule
	for _, g := range append(rules.Build(svc), gpualerts.Build(gpualerts.NewPlan(svc))...) {
		for _, r := range g.Rules {
			if r.Alert != "" {
				out = append(out, r)
			}
		}
	}
	return out
}

func TestExampleGetsEveryAlert(t *testing.T) {
	svc := exampleService(t)
	// The alerts on fatal log lines need a runtime whose lines slogen
	// knows; docs/runbooks.md takes theirs from testdata/logs.cue.
	logged := func(a string) bool { _, ok := gpualerts.LogEvents[a]; return ok }
	if skipped := slices.DeleteFunc(gpualerts.NewPlan(svc).Skipped, func(s gpualerts.Skip) bool { return logged(s.Alert) }); len(skipped) > 0 {
		t.Errorf("the example skips %v; give it the metrics they need", skipped)
	}
	var got []string
	for _, r := range alertRules(svc) {
		if !slices.Contains(got, r.Alert) {
			got = append(got, r.Alert)
		}
	}
	for _, a := range got {
		if !slices.Contains(allAlerts, a) {
			t.Errorf("alert %s is missing from allAlerts: add it, and its template %s", a, runbooks.TemplateName(a))
		}
	}
	for _, a := range allAlerts {
		if !slices.Contains(got, a) && !logged(a) {
			t.Errorf("the example does not get %s, so docs/runbooks.md has no section for it", a)
		}
	}
}

func TestEveryAlertHasATemplate(t *testing.T) {
	tm, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range allAlerts {
		if !tm.Has(runbooks.TemplateName(a)) {
			t.Errorf("alert %s has no template templates/runbooks/%s", a, runbooks.TemplateName(a))
		}
	}
}

func TestEveryTemplateIsUsed(t *testing.T) {
	files, err := filepath.Glob("../../../templates/runbooks/*")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{runbooks.HeadTemplate, runbooks.RuleTemplate}
	for _, a := range allAlerts {
		want = append(want, runbooks.TemplateName(a))
	}
	for _, f := range files {
		if !slices.Contains(want, filepath.Base(f)) {
			t.Errorf("%s is no alert's template, nor the head's or the rule block's", f)
		}
	}
	if len(files) != len(want) {
		t.Errorf("templates/runbooks holds %d files, want %d", len(files), len(want))
	}
}

func TestRunbookURL(t *testing.T) {
	for name, c := range map[string]struct {
		alerting model.Alerting
		fleet    bool
		want     string
	}{
		"With neither URL set, an alert links to its section of docs/runbooks.md.": {
			want: "https://github.com/slogen-dev/slogen/blob/main/docs/runbooks.md#kvcachehigh",
		},
		"runbook_base_url links to the section of the service's own runbook.": {
			alerting: model.Alerting{RunbookBaseURL: "https://git.example.com/org/slo/blob/main/deploy"},
			want:     "https://git.example.com/org/slo/blob/main/deploy/chat/runbook.md#kvcachehigh",
		},
		"A trailing slash of runbook_base_url is not doubled.": {
			alerting: model.Alerting{RunbookBaseURL: "https://git.example.com/org/slo/blob/main/deploy/"},
			want:     "https://git.example.com/org/slo/blob/main/deploy/chat/runbook.md#kvcachehigh",
		},
		"runbook_url is every alert's link.": {
			alerting: model.Alerting{RunbookURL: "https://wiki.example.com/chat"},
			want:     "https://wiki.example.com/chat",
		},
		"In a fleet, runbook_base_url links to the section of the fleet's one runbook, naming no service.": {
			alerting: model.Alerting{RunbookBaseURL: "https://git.example.com/org/slo/blob/main/deploy/"},
			fleet:    true,
			want:     "https://git.example.com/org/slo/blob/main/deploy/runbook.md#kvcachehigh",
		},
		"In a fleet, an alert with neither URL set still links to docs/runbooks.md.": {
			fleet: true,
			want:  "https://github.com/slogen-dev/slogen/blob/main/docs/runbooks.md#kvcachehigh",
		},
		"In a fleet, runbook_url is still every alert's link.": {
			alerting: model.Alerting{RunbookURL: "https://wiki.example.com/chat"},
			fleet:    true,
			want:     "https://wiki.example.com/chat",
		},
	} {
		t.Run(name, func(t *testing.T) {
			link := rules.Runbook
			if c.fleet {
				link = rules.FleetRunbook
			}
			if got := link(model.Service{Name: "chat", Alerting: c.alerting}, gpualerts.KVCacheHigh); got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestExamplesLinkToTheirSections: every runbook_url of every example
// service points at a section that exists, in docs/runbooks.md by
// default and in the service's own runbook under runbook_base_url, and
// the runbook has a section for exactly the alerts the service gets.
func TestExamplesLinkToTheirSections(t *testing.T) {
	docs, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	docsAnchors := runbooks.Anchors(docs)
	const base = "https://git.example.com/org/slo/blob/main/deploy"
	dirs, _ := filepath.Glob("../../../examples/*")
	var n int
	for _, dir := range dirs {
		var files []string
		for _, ext := range []string{"*.cue", "*.yaml", "*.json"} {
			m, _ := filepath.Glob(filepath.Join(dir, ext))
			files = append(files, m...)
		}
		if len(files) == 0 {
			continue
		}
		for _, svc := range loadServices(t, files...) {
			n++
			for _, r := range alertRules(svc) {
				url := r.Annotations["runbook_url"]
				if svc.Alerting.RunbookURL != "" && url == svc.Alerting.RunbookURL {
					continue // the spec's own page for every alert
				}
				if url != rules.RunbookBase+rules.RunbookAnchor(r.Alert) || !docsAnchors[rules.RunbookAnchor(r.Alert)] {
					t.Errorf("%s: %s links %s, which is no section of %s", svc.Name, r.Alert, url, docsPath)
				}
			}
			svc.Alerting.RunbookURL, svc.Alerting.RunbookBaseURL = "", base
			anchors := runbooks.Anchors(render(t, svc))
			var got []string
			for _, r := range alertRules(svc) {
				prefix := base + "/" + svc.Name + "/runbook.md#"
				url := r.Annotations["runbook_url"]
				if a, ok := strings.CutPrefix(url, prefix); !ok || !anchors[a] {
					t.Errorf("%s: %s links %s, which is no section of its runbook", svc.Name, r.Alert, url)
				}
				got = append(got, r.Alert)
			}
			for _, a := range allAlerts {
				if anchors[rules.RunbookAnchor(a)] != slices.Contains(got, a) {
					t.Errorf("%s: the runbook's section for %s: %v; the service gets the alert: %v", svc.Name, a, anchors[rules.RunbookAnchor(a)], slices.Contains(got, a))
				}
			}
		}
	}
	if n < 5 {
		t.Fatalf("found %d example services, want one per runtime", n)
	}
}

func TestOverride(t *testing.T) {
	for name, c := range map[string]struct {
		files                  map[string]string
		overrideErr, renderErr string
		want                   string
	}{
		"A template by an alert's name replaces slogen's.": {
			files: map[string]string{"kvcachehigh.md.tmpl": "Ours: above {{.Thresholds.KVCachePercent}}%.\n"},
			want:  "## KVCacheHigh\n\nOurs: above 95%.\n\n## ",
		},
		"The head can be replaced too.": {
			files: map[string]string{"page.md.tmpl": "# {{.Service}}: ours\n"},
			want:  "# example: ours\n\n## SLOErrorBudgetBurn\n",
		},
		"A misspelt name is an error that names the file and the name meant.": {
			files:       map[string]string{"kvcachehigh.md.tpl": ""},
			overrideErr: "kvcachehigh.md.tpl: no runbook template has this name; did you mean kvcachehigh.md.tmpl?",
		},
		"A name like none is an error that lists the names.": {
			files:       map[string]string{"notes.txt": ""},
			overrideErr: "notes.txt: no runbook template has this name; the names are gpueccerrors.md.tmpl, gpuexporterdown.md.tmpl, ",
		},
		"A template that does not parse is an error that names the file.": {
			files:       map[string]string{"kvcachehigh.md.tmpl": "{{.Service"},
			overrideErr: "kvcachehigh.md.tmpl: template: kvcachehigh.md.tmpl:1: unclosed action",
		},
		"A template that fails is an error that names the file.": {
			files:     map[string]string{"gpumemoryhigh.md.tmpl": "{{.Thresholds.VRAM}}"},
			renderErr: `gpumemoryhigh.md.tmpl: template: gpumemoryhigh.md.tmpl:1:13: executing "gpumemoryhigh.md.tmpl" at <.Thresholds.VRAM>: can't evaluate field VRAM`,
		},
		"A link to no section is an error.": {
			files:     map[string]string{"gpuoomevents.md.tmpl": "See [the leak](#gpumemoryleek).\n"},
			renderErr: "gpuoomevents.md.tmpl: links to #gpumemoryleek, but no heading of the runbook has that anchor",
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for f, text := range c.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tm, err := runbooks.Override(dir)
			if c.overrideErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.overrideErr) || !strings.Contains(err.Error(), dir) {
					t.Fatalf("got %v, want an error naming %s and saying %q", err, dir, c.overrideErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			page, err := renderWith(tm, exampleService(t))
			if c.renderErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.renderErr) || !strings.Contains(err.Error(), dir) {
					t.Fatalf("got %v, want an error naming %s and saying %q", err, dir, c.renderErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(page), c.want) {
				t.Errorf("the runbook lacks %q:\n%s", c.want, page)
			}
		})
	}
}

// TestOverrideKeepsTheRest: replacing one template changes its section
// and nothing else.
func TestOverrideKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kvcachehigh.md.tmpl"), []byte("Ours.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm, err := runbooks.Override(dir)
	if err != nil {
		t.Fatal(err)
	}
	svc := exampleService(t)
	got, err := renderWith(tm, svc)
	if err != nil {
		t.Fatal(err)
	}
	want := string(render(t, svc))
	start := strings.Index(want, "## KVCacheHigh\n")
	end := start + 1 + strings.Index(want[start+1:], "\n## ")
	want = want[:start] + "## KVCacheHigh\n\nOurs.\n" + want[end:]
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestOverrideOfAMissingDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing")
	if _, err := runbooks.Override(missing); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": ") {
		t.Errorf("got %v, want an error that names %s and says it does not exist", err, missing)
	}
}

// renderWith renders svc's runbook from the rules a build would make.
func renderWith(tm *runbooks.Templates, svc model.Service) ([]byte, error) {
	return tm.Render(plan.New(svc))
}
