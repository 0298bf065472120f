package spec

import (
	"cmp"
	"regexp"
	"slices"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/token"

	"github.com/slogen-dev/slogen/internal/model"
)

// build gathers the services of the files in order: the first to declare
// a name keeps it.
func build(files []file, checked [][]checkedService) (Result, Diagnostics) {
	res := Result{NoShape: map[string]string{}}
	var ds Diagnostics
	declared := map[string]string{}
	fileOf := map[string]file{}
	var shapes []*shaped
	var shapeFiles []file
	for i, f := range files {
		for _, c := range checked[i] {
			if ds = append(ds, c.invalid...); len(c.invalid) > 0 {
				continue
			}
			if prev, dup := declared[c.name]; dup {
				r := newResolver(f, c.name)
				r.errorf(nil, "service %q is already declared in %s; service names must be unique across spec files", c.name, prev)
				ds = append(ds, r.errs...)
				continue
			}
			declared[c.name], fileOf[c.name] = f.src.Name, f
			ds = append(ds, c.errs...)
			res.Warnings = append(res.Warnings, c.warns...)
			res.Notes = append(res.Notes, c.notes...)
			res.Spec.Services = append(res.Spec.Services, c.svc)
			shapes, shapeFiles = append(shapes, c.shape), append(shapeFiles, f)
			if c.noShape != "" {
				res.NoShape[c.name] = c.noShape
			}
		}
	}
	ds = append(ds, checkBehind(res.Spec.Services, fileOf)...)
	shareShapes(res.Spec.Services, shapes, shapeFiles, res.NoShape)
	slices.SortFunc(res.Spec.Services, func(a, b model.Service) int { return cmp.Compare(a.Name, b.Name) })
	res.Warnings, res.Notes = res.Warnings.sorted(), res.Notes.sorted()
	return res, ds
}

// newResolver resolves the named service of the file.
func newResolver(f file, name string) *resolver {
	return &resolver{file: f, base: servicesPath.Append(cue.Str(name)).Selectors()}
}

// resolver collects the problems of one service, positioned in its file.
type resolver struct {
	file        file
	base        []cue.Selector
	errs, warns Diagnostics
	// notes say what the runtime needs to export what the spec reads.
	notes Diagnostics
	// alertLabels are the labels the spec puts on every alert of the
	// service, which no group_by may name.
	alertLabels []string
}

// where resolves a path below the service to a printable path and the
// user's position, falling back to the nearest parent the user wrote.
func (r *resolver) where(rel []string) (string, token.Pos) {
	sels := slices.Clone(r.base)
	for _, s := range rel {
		sels = append(sels, cue.Str(s))
	}
	path := cue.MakePath(sels...).String()
	for n := len(sels); n >= 0; n-- {
		if v := r.file.user.LookupPath(cue.MakePath(sels[:n]...)); v.Exists() {
			return path, v.Pos()
		}
	}
	return path, token.NoPos
}

func (r *resolver) errorf(rel []string, format string, args ...any) {
	r.errs = append(r.errs, r.diag(rel, format, args...))
}

func (r *resolver) warnf(rel []string, format string, args ...any) {
	r.warns = append(r.warns, r.diag(rel, format, args...))
}

func (r *resolver) notef(rel []string, format string, args ...any) {
	r.notes = append(r.notes, r.diag(rel, format, args...))
}

// diag positions a problem at the field, or in the file when the user
// wrote no part of its path.
func (r *resolver) diag(rel []string, format string, args ...any) Diagnostic {
	path, pos := r.where(rel)
	d := at(pos, path, format, args...)
	if d.File == "" {
		d.File = r.file.src.Name
	}
	return d
}

func fields(f ...string) []string { return f }

var (
	// Service names become file names, rule group names and dashboard UIDs,
	// so they are DNS labels: nothing can escape the output directory.
	serviceNameRe = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)
	sloNameRe     = regexp.MustCompile(`^[a-z0-9]([-_a-z0-9]{0,61}[a-z0-9])?$`)
)

func (r *resolver) checkName(re *regexp.Regexp, name, what string, rel []string) {
	if !re.MatchString(name) {
		r.errorf(rel, "%s name %q is not allowed: use 1 to 63 lower-case letters, digits and dashes, starting and ending with a letter or digit", what, name)
	}
}
