package ruletemplate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/parallel"
)

// Verify proves, for the fleet output in dir, that every service's rule
// files are an instance of the template the record puts it in: equal to
// the tested service's once both identities are set aside, compared
// rule by rule after parsing, never as text. It also fails when a
// template's tests are missing, or when a service's rule files are in no
// template. Each error names the service and, for a rule file that
// differs, the first rule that does. A directory without a record holds
// one service, whose tests prove it alone: Verify has nothing to do.
func Verify(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, File))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	rec, err := Parse(data)
	if err != nil {
		return err
	}
	errs := []error{unlisted(dir, rec)}
	for _, t := range rec.Templates {
		errs = append(errs, verifyTemplate(dir, t, rec.Services))
	}
	return errors.Join(errs...)
}

// verifyTemplate checks the template's tests exist and each instance's
// rule files against the tested service's.
func verifyTemplate(dir string, t Template, ids map[string]Identity) error {
	if !slices.Contains(t.Services, t.Tested) {
		return fmt.Errorf("%s: template tested at %s does not list %s among its services", File, t.Tested, t.Tested)
	}
	for _, n := range t.Services {
		if _, ok := ids[n]; !ok {
			return fmt.Errorf("%s: template tested at %s lists %s, whose identity it lacks; run slogen build", File, t.Tested, n)
		}
	}
	tested := ids[t.Tested]
	var errs []error
	for _, name := range t.Tests {
		if _, err := os.Stat(filepath.Join(dir, t.Tested, name)); err != nil {
			errs = append(errs, fmt.Errorf("service %s: its test file %s is missing, and with it the proof of the %d services of its template; run slogen build", t.Tested, name, len(t.Services)))
		}
	}
	want := map[string][]rule{}
	for _, f := range t.RuleFiles {
		rules, err := canonicalFile(dir, t.Tested, f, tested)
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		want[f] = rules
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for _, n := range t.Services {
			if n != t.Tested && !yield(n) {
				return
			}
		}
	})
	found := make([]error, len(names))
	parallel.Each(len(names), runtime.GOMAXPROCS(0), func(i int) {
		found[i] = verifyInstance(dir, names[i], t, ids[names[i]], want)
	})
	return errors.Join(append(errs, found...)...)
}

// verifyInstance compares one service's rule files with the tested
// service's.
func verifyInstance(dir, name string, t Template, id Identity, want map[string][]rule) error {
	var errs []error
	for _, f := range t.RuleFiles {
		got, err := canonicalFile(dir, name, f, id)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if d := firstDifference(want[f], got, id.names()); d != "" {
			errs = append(errs, fmt.Errorf("service %s: %s is not an instance of the template tested at %s: %s; run slogen build, or fix the file by hand",
				name, filepath.Join(dir, name, f), t.Tested, d))
		}
	}
	return errors.Join(errs...)
}

// canonicalFile reads and parses one service's rule file.
func canonicalFile(dir, name, file string, id Identity) ([]rule, error) {
	p := filepath.Join(dir, name, file)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("service %s: %w", name, err)
	}
	rules, err := canonical(data, id.values(name))
	if err != nil {
		return nil, fmt.Errorf("service %s: %s: %w", name, p, err)
	}
	return rules, nil
}

// firstDifference says where got first departs from want, or "".
func firstDifference(want, got []rule, names []string) string {
	for i := range min(len(want), len(got)) {
		for f := range want[i].fields {
			w, g := want[i].fields[f], got[i].fields[f]
			if w != g {
				return fmt.Sprintf("%s differs in its %s:\n  template: %s\n  here:     %s", got[i].where, w[0], excerpt(w[1], g[1], names), excerpt(g[1], w[1], names))
			}
		}
	}
	switch {
	case len(got) > len(want):
		return fmt.Sprintf("%s is not in the template", got[len(want)].where)
	case len(got) < len(want):
		return fmt.Sprintf("it lacks the template's %s", want[len(got)].where)
	}
	return ""
}

// excerpt is s around where it first differs from other, on one line,
// with set-aside values shown as what they are.
func excerpt(s, other string, names []string) string {
	at := 0
	for at < min(len(s), len(other)) && s[at] == other[at] {
		at++
	}
	from, to := max(0, at-60), min(len(s), at+60)
	out := readable(s[from:to], names)
	if from > 0 {
		out = "…" + out
	}
	if to < len(s) {
		out += "…"
	}
	return out
}

// readable shows set-aside values as their place in the identity and
// keeps a field on one line.
func readable(s string, names []string) string {
	s = strings.ReplaceAll(s, "\n", "; ")
	var b strings.Builder
	for {
		before, rest, ok := strings.Cut(s, markOpen)
		b.WriteString(before)
		if !ok {
			return b.String()
		}
		n, after, ok := strings.Cut(rest, markClose)
		i, err := strconv.Atoi(n)
		if !ok || err != nil || i >= len(names) {
			b.WriteString(markOpen)
			s = rest
			continue
		}
		b.WriteString("<" + names[i] + ">")
		s = after
	}
}

// unlisted fails for each rule file in a service directory that no
// template lists the service for.
func unlisted(dir string, rec Record) error {
	listed := map[string]map[string]bool{} // service, rule file
	var ruleFiles []string
	for _, t := range rec.Templates {
		for _, n := range t.Services {
			if listed[n] == nil {
				listed[n] = map[string]bool{}
			}
			for _, f := range t.RuleFiles {
				listed[n][f] = true
			}
		}
		ruleFiles = append(ruleFiles, t.RuleFiles...)
	}
	ruleFiles = slices.Compact(slices.Sorted(slices.Values(ruleFiles)))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		for _, f := range ruleFiles {
			if listed[e.Name()][f] {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, e.Name(), f)); err == nil {
				errs = append(errs, fmt.Errorf("service %s: its %s matches no template in %s, so no test proves it; run slogen build", e.Name(), f, File))
			}
		}
	}
	return errors.Join(errs...)
}
