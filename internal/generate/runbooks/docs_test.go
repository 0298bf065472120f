package runbooks_test

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

var update = flag.Bool("update", false, "rewrite docs/runbooks.md")

// docsPath is the page every alert links to when a spec names no runbook.
const docsPath = "../../../docs/runbooks.md"

// docsNote says, above the example's runbook, what the page is.
const docsNote = `> slogen's runbook, rendered for an example service, ` + "`example`" + `. Every alert
> links to its section here when the spec sets neither ` + "`alerting.runbook_url`" + `
> nor ` + "`alerting.runbook_base_url`" + `. slogen build writes each service's own
> runbook, with its thresholds, objectives, PromQL and runtime's advice, to
> ` + "`<service>/runbook.md`" + `, or a fleet's one runbook to ` + "`runbook.md`" + `; set
> ` + "`runbook_base_url`" + ` to where you commit them to link there instead. The templates are in templates/runbooks; regenerate
> this page with ` + "`go test ./internal/generate/runbooks -run TestDocsAreFresh -update`" + `.
`

// docsPage renders docs/runbooks.md: the example's runbook with the note
// after slogen's marker.
func docsPage(t *testing.T) []byte {
	t.Helper()
	page := render(t, exampleService(t))
	marker, body, ok := bytes.Cut(page, []byte("\n"))
	if !ok || !bytes.Contains(marker, []byte(genfile.Marker)) {
		t.Fatalf("the runbook does not start with slogen's marker: %q", marker)
	}
	page = bytes.Join([][]byte{marker, []byte(docsNote), body}, []byte("\n"))
	return append(page, logSections(t)...)
}

// logSections are the sections of the alerts on fatal log lines, which
// the example cannot have, from the runbooks of services whose runtimes
// write the lines, in the catalog's order.
func logSections(t *testing.T) []byte {
	t.Helper()
	var pages [][]byte
	for _, svc := range loadServices(t, "testdata/logs.cue") {
		pages = append(pages, render(t, svc))
	}
	var out []byte
	for _, alert := range gpualerts.Causes {
		if _, logged := gpualerts.LogEvents[alert]; !logged {
			continue
		}
		i := slices.IndexFunc(pages, func(p []byte) bool { return section(p, alert) != nil })
		if i < 0 {
			t.Fatalf("no service of testdata/logs.cue gets %s", alert)
		}
		out = append(append(out, '\n'), section(pages[i], alert)...)
	}
	return out
}

// section is the alert's section of a runbook, heading and all, or nil.
func section(page []byte, alert string) []byte {
	_, rest, ok := bytes.Cut(page, []byte("\n## "+alert+"\n"))
	if !ok {
		return nil
	}
	if end := bytes.Index(rest, []byte("\n## ")); end >= 0 {
		rest = rest[:end]
	}
	return append([]byte("## "+alert+"\n"), append(bytes.TrimRight(rest, "\n"), '\n')...)
}

func TestDocsAreFresh(t *testing.T) {
	want := docsPage(t)
	if *update {
		if err := os.WriteFile(docsPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; run go test ./internal/generate/runbooks -run TestDocsAreFresh -update", docsPath)
	}
}

// TestDocsHaveEveryAlert: the default runbook_url of every alert slogen
// can write points at a section of the committed docs/runbooks.md.
func TestDocsHaveEveryAlert(t *testing.T) {
	got, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	anchors := runbooks.Anchors(got)
	for _, alert := range allAlerts {
		url := rules.Runbook(model.Service{Name: "any"}, alert)
		if !anchors[rules.RunbookAnchor(alert)] {
			t.Errorf("%s links %s, but %s has no such section", alert, url, docsPath)
		}
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(m.Run())
}
