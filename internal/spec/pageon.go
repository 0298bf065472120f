package spec

import (
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/suggest"
)

// pageOn resolves alerting.page_on, the cause alerts promoted from ticket
// to page. A name that is no cause alert is an error naming the closest
// one, or, for an SLO alert, where its severity is set instead. The names
// are gpualerts' catalog's, read from it so that a new alert needs no
// second list; the model, which knows no plan, holds none.
func (r *resolver) pageOn(names []string) []string {
	var out []string
	for i, name := range names {
		if !slices.Contains(gpualerts.Causes, name) {
			r.errs = append(r.errs, r.elementDiag(fields("alerting", "page_on"), i, "%q is not a GPU or serving alert%s", name, pageOnHint(name)))
			continue
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// elementDiag positions a problem at the i-th element of the list at rel,
// where the user wrote it, or else where diag would.
func (r *resolver) elementDiag(rel []string, i int, format string, args ...any) Diagnostic {
	d := r.diag(rel, format, args...)
	sels := slices.Clone(r.base)
	for _, s := range rel {
		sels = append(sels, cue.Str(s))
	}
	if v := r.file.user.LookupPath(cue.MakePath(append(sels, cue.Index(i))...)); v.Exists() && v.Pos().IsValid() {
		pos := v.Pos()
		d.File, d.Line, d.Column = pos.Filename(), pos.Line(), pos.Column()
	}
	return d
}

func pageOnHint(name string) string {
	if strings.HasPrefix(name, "SLO") {
		return ": SLO alerts are symptoms and set their severity elsewhere (the burn-rate tiers, alerting.traffic_drop, alerting.budget); list only GPU and serving alerts in page_on"
	}
	if best, ok := suggest.Closest(name, gpualerts.Causes, 4, true); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return "; write one of " + strings.Join(slices.Sorted(slices.Values(gpualerts.Causes)), ", ")
}
