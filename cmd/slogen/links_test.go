package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// pendingPages are pages the docs link to before they are written, each
// with who writes it. A link to one passes while the page is missing.
var pendingPages = map[string]string{}

// TestDocsLinksResolve checks every relative link of README.md and
// docs/*.md as GitHub renders them: the file or directory it names exists,
// and its #anchor is a heading of that page.
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	checked := 0
	for _, page := range docPages(t, root) {
		rel, _ := filepath.Rel(root, page)
		for _, l := range pageLinks(readFile(t, page)) {
			if msg := brokenLink(root, page, l.target, anchors); msg != "" {
				t.Errorf("%s:%d: link %q: %s", rel, l.line, l.target, msg)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("checked %d links; the pages' links were not found", checked)
	}
	for p := range pendingPages {
		if _, err := os.Stat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s exists now: take it out of pendingPages", p)
		}
	}
}

// docPages are README.md and every page of the manual.
func docPages(t *testing.T, root string) []string {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, pages...)
}

func readFile(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// brokenLink says what is wrong with a link of page, or "" when it
// resolves. External links are not followed.
func brokenLink(root, page, target string, anchors map[string]map[string]bool) string {
	if regexp.MustCompile(`^[a-z]+:`).MatchString(target) {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	path := page
	if file != "" {
		path = filepath.Join(filepath.Dir(page), file)
	}
	rel, _ := filepath.Rel(root, path)
	if _, err := os.Stat(path); err != nil {
		if _, pending := pendingPages[filepath.ToSlash(rel)]; pending {
			return ""
		}
		return fmt.Sprintf("%s does not exist; link to the page that holds it now", rel)
	}
	if anchor == "" || filepath.Ext(path) != ".md" {
		return ""
	}
	if anchors[path] == nil {
		data, err := os.ReadFile(path)
		if err != nil {
			return err.Error()
		}
		anchors[path] = headingAnchors(string(data))
	}
	if !anchors[path][anchor] {
		return fmt.Sprintf("no heading of %s has the anchor #%s; link to the section's heading, lower case, spaces as '-', punctuation dropped", rel, anchor)
	}
	return ""
}

// link is a markdown link's target and the line it is on.
type link struct {
	target string
	line   int
}

var (
	inlineCode   = regexp.MustCompile("`[^`]*`")
	markdownLink = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
)

// pageLinks are the links of a markdown page, outside code blocks and
// code spans.
func pageLinks(text string) []link {
	var links []link
	for i, line := range proseLines(text) {
		for _, m := range markdownLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line, ""), -1) {
			links = append(links, link{target: m[1], line: i + 1})
		}
	}
	return links
}

// proseLines are a page's lines with those of fenced code blocks blanked,
// so that line numbers stay the page's.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	inCode := false
	for i, line := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		if inCode || fence {
			lines[i] = ""
		}
		if fence {
			inCode = !inCode
		}
	}
	return lines
}

var atxHeading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)

// headingAnchors are the anchors GitHub gives a page's headings; a heading
// seen before gets -1, -2, ... as GitHub numbers repeats.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		m := atxHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		a := slug(m[1])
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

var linkMarkup = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// slug is GitHub's anchor for a heading's text: the text of its links and
// code, lower case, spaces as '-', and every character but letters,
// digits, '-' and '_' dropped.
func slug(heading string) string {
	text := linkMarkup.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlugIsGitHubsAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Deployment targets: `--target`":                "deployment-targets---target",
		"`--target operator` and kube-prometheus-stack": "--target-operator-and-kube-prometheus-stack",
		"GPU discovery, scrape configs and GPU alerts":  "gpu-discovery-scrape-configs-and-gpu-alerts",
		"One SLO per model: `group_by`":                 "one-slo-per-model-group_by",
		"Runbook: example":                              "runbook-example",
		"See [the spec](spec.md)":                       "see-the-spec",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

func TestBrokenLinksAreReported(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "a.md")
	text := "# Title\n\n## Same\n\n## Same\n\n```sh\n# not a heading\n```\n"
	if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for target, broken := range map[string]bool{
		"#title": false, "a.md#same-1": false, "https://example.com/x#y": false, ".": false,
		"#same-2": true, "#not-a-heading": true, "b.md": true, "a.md#nope": true,
	} {
		msg := brokenLink(dir, page, target, map[string]map[string]bool{})
		if (msg != "") != broken {
			t.Errorf("link %q: got %q, want broken %v", target, msg, broken)
		}
	}
}
