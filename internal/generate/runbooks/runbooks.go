// Package runbooks writes a service's runbook (runbook.md): a head with
// the service's objectives, thresholds and dashboard, then one section
// per alert the service gets, with that service's values and the PromQL
// to paste. The text comes from text/template files, slogen's own
// (templates/runbooks) or the user's in their place. A fleet gets one
// runbook for all its services instead (RenderFleet), each section
// written once, with the identity as placeholders.
//
// Each section starts with a heading that is the alert's name, written
// here, not by its template, so that the anchor every runbook_url points
// at (rules.RunbookAnchor) always exists.
package runbooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/suggest"
	"github.com/slogen-dev/slogen/templates"
)

// Template names besides the alerts'. An alert's template is named after
// the alert in lower case: kvcachehigh.md.tmpl.
const (
	// HeadTemplate writes the top of the page, before the first alert.
	HeadTemplate = "page.md.tmpl"
	// RuleTemplate is a partial that alert templates call to show the
	// alert's rules.
	RuleTemplate = "rule.md.tmpl"
	ext          = ".md.tmpl"
)

// TemplateName is the name of an alert's template.
func TemplateName(alert string) string { return rules.RunbookAnchor(alert) + ext }

// Templates are parsed runbook templates.
type Templates struct {
	t *template.Template
	// source says where each template was read, for errors.
	source map[string]string
	// user is set when some template is the user's, which may branch on
	// a service's name or selector values: a fleet's runbook then renders
	// real services, never a shape's placeholders (see RenderFleet).
	user bool
}

// Embedded returns slogen's own templates, parsed once.
var Embedded = sync.OnceValues(func() (*Templates, error) { return parse(templates.Runbooks, nil, "") })

// Override returns slogen's templates with each file in dir in place of
// the one of the same name. A file that names no template of slogen's is
// an error, as is one that does not parse; each names the file.
func Override(dir string) (*Templates, error) {
	return parse(templates.Runbooks, os.DirFS(dir), dir)
}

// Has reports whether there is a template by that name.
func (t *Templates) Has(name string) bool { return t.t.Lookup(name) != nil }

// parse reads every template of base, and of over (read from dir) in its
// place.
func parse(base, over fs.FS, dir string) (*Templates, error) {
	names, err := fs.Glob(base, "*"+ext)
	if err != nil {
		return nil, err
	}
	files, src := map[string]fs.FS{}, map[string]string{}
	for _, n := range names {
		files[n], src[n] = base, "embedded "+path.Join("templates/runbooks", n)
	}
	if over != nil {
		overrides, err := overrides(over, dir, names)
		if err != nil {
			return nil, err
		}
		for _, n := range overrides {
			files[n], src[n] = over, filepath.Join(dir, n)
		}
	}
	t := template.New("").Option("missingkey=error").Funcs(funcs)
	for _, n := range names {
		text, err := fs.ReadFile(files[n], n)
		if err == nil {
			_, err = t.New(n).Parse(string(text))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src[n], err)
		}
	}
	return &Templates{t: t, source: src, user: over != nil}, nil
}

// overrides lists the files of over, each of which must name one of
// slogen's templates.
func overrides(over fs.FS, dir string, names []string) ([]string, error) {
	entries, err := fs.ReadDir(over, ".")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // it names ".", the root of over, not dir
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	var out []string
	var errs []error
	for _, e := range entries {
		switch {
		case e.IsDir():
			errs = append(errs, fmt.Errorf("%s: a directory; put the templates themselves in %s, e.g. %s", filepath.Join(dir, e.Name()), dir, TemplateName("KVCacheHigh")))
		case !slices.Contains(names, e.Name()):
			errs = append(errs, fmt.Errorf("%s: no runbook template has this name%s", filepath.Join(dir, e.Name()), didYouMean(e.Name(), names)))
		default:
			out = append(out, e.Name())
		}
	}
	return out, errors.Join(errs...)
}

// didYouMean names the template closest to a misspelt name, or lists them.
func didYouMean(name string, names []string) string {
	if best, ok := suggest.Closest(name, names, 4, false); ok {
		return fmt.Sprintf("; did you mean %s?", best)
	}
	return "; the names are " + strings.Join(names, ", ")
}
