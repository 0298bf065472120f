package spec

import (
	"slices"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
)

// A service the schema fails is resolved too, without the fields the
// schema found wrong, so that an unknown field does not hide a threshold
// off the buckets of the same service: every problem in one pass.

// standInObjective stands for an objective the schema found wrong or
// missing, so that resolving goes on to the SLO's threshold. What
// resolving would say of it is left out with the rest at that field.
const standInObjective = 99.0

// resolveRest resolves the service at path without the fields of the
// schema's problems, and returns what resolving finds away from them. It
// finds nothing where the rest of the service still fails the schema, and
// in a service a definition closed: all the schema's defaults are
// missing there, which is one problem, reported at the definition.
func (c *checker) resolveRest(f file, path cue.Path, schemaErr error, schemaDs Diagnostics) Diagnostics {
	if closedBySpec(schemaErr, f.user) {
		return nil
	}
	bad := make([][]cue.Selector, 0, len(schemaDs))
	for _, d := range schemaDs {
		p := cue.ParsePath(d.Path)
		if p.Err() != nil {
			return nil
		}
		bad = append(bad, p.Selectors())
	}
	rest := fillWithout(c.def, f.user.LookupPath(path), path.Selectors(), bad)
	for _, b := range bad {
		if isObjective(b) {
			rest = rest.FillPath(cue.MakePath(b...), standInObjective)
		}
	}
	u := rest.LookupPath(path)
	var raw rawService
	if u.Validate(cue.Concrete(true), cue.All()) != nil || decode(u, &raw) != nil {
		return nil
	}
	name := path.Selectors()[len(path.Selectors())-1].Unquoted()
	r := newResolver(f, name)
	r.service(name, raw)
	var ds Diagnostics
	for _, d := range r.errs {
		if !nearAny(cue.ParsePath(d.Path).Selectors(), bad) {
			ds = append(ds, d)
		}
	}
	return ds
}

// closedBySpec reports whether the schema failed a field the spec does
// not write, as in a struct a definition closed.
func closedBySpec(err error, user cue.Value) bool {
	for _, e := range cueerrors.Errors(err) {
		if addedToClosed([]cueerrors.Error{e}, user) {
			return true
		}
	}
	return false
}

// fillWithout fills the user's value v into into at sels, leaving out the
// bad fields: a struct that holds one is filled field by field, a list
// that holds one is left out whole.
func fillWithout(into, v cue.Value, sels []cue.Selector, bad [][]cue.Selector) cue.Value {
	holds := false
	for _, b := range bad {
		switch {
		case hasPrefix(sels, b):
			return into // the field is wrong, or inside a wrong one
		case hasPrefix(b, sels):
			holds = true
		}
	}
	if !holds {
		return into.FillPath(cue.MakePath(sels...), v)
	}
	it, err := v.Fields()
	if err != nil || v.IncompleteKind() != cue.StructKind {
		return into
	}
	for it.Next() {
		into = fillWithout(into, it.Value(), append(sels[:len(sels):len(sels)], it.Selector()), bad)
	}
	return into
}

// nearAny reports whether a path is one of the bad ones, inside one, or
// holds one below the service: what resolving says there is about what
// fillWithout left out.
func nearAny(p []cue.Selector, bad [][]cue.Selector) bool {
	for _, b := range bad {
		if hasPrefix(p, b) || (len(p) > len(servicesPath.Selectors())+1 && hasPrefix(b, p)) {
			return true
		}
	}
	return false
}

// hasPrefix reports whether path p starts with prefix.
func hasPrefix(p, prefix []cue.Selector) bool {
	return len(p) >= len(prefix) && slices.EqualFunc(p[:len(prefix)], prefix, func(a, b cue.Selector) bool { return a.String() == b.String() })
}

// isObjective reports whether a path is services.<name>.slos.<name>.objective.
func isObjective(p []cue.Selector) bool {
	return len(p) == 5 && p[2].String() == "slos" && p[4].String() == "objective"
}
