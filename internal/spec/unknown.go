package spec

import (
	"fmt"
	"github.com/slogen-dev/slogen/internal/suggest"
	"slices"
	"strings"

	"cuelang.org/go/cue"
)

// checkShape walks the user's value beside the schema and reports unknown
// and missing required fields. CUE reports an unknown field only once every
// other conflict in its struct is fixed, and a missing one not at all while
// its struct has other errors; this walk reports them all in one pass.
func checkShape(user, schema cue.Value, path []cue.Selector) Diagnostics {
	if user.IncompleteKind() != cue.StructKind || schema.IncompleteKind()&cue.StructKind == 0 {
		return nil
	}
	var ds Diagnostics
	it, err := user.Fields()
	if err != nil {
		return nil
	}
	for it.Next() {
		sel := it.Selector()
		child := append(path[:len(path):len(path)], sel)
		s, ok := schemaChild(schema, sel)
		if !ok {
			ds = append(ds, at(it.Value().Pos(), cue.MakePath(child...).String(), "unknown field %q%s", sel.Unquoted(), didYouMean(sel.Unquoted(), schema)))
			continue
		}
		ds = append(ds, checkShape(it.Value(), s, child)...)
	}
	for _, name := range requiredFields(schema) {
		if !user.LookupPath(cue.MakePath(cue.Str(name))).Exists() {
			ds = append(ds, at(user.Pos(), cue.MakePath(append(path[:len(path):len(path)], cue.Str(name))...).String(), "%s", withHint("is required", name)))
		}
	}
	return ds
}

// schemaChild finds the schema for a field: a declared field (plain,
// optional or required) or the struct's pattern constraint.
func schemaChild(schema cue.Value, sel cue.Selector) (cue.Value, bool) {
	if !schema.Allows(sel) {
		return cue.Value{}, false
	}
	name := cue.Str(sel.Unquoted())
	for _, s := range []cue.Selector{name, name.Optional(), name.Required()} {
		if v := schema.LookupPath(cue.MakePath(s)); v.Exists() {
			return v, true
		}
	}
	return schema.LookupPath(cue.MakePath(cue.AnyString)), true
}

func requiredFields(schema cue.Value) []string {
	it, err := schema.Fields(cue.Optional(true))
	if err != nil {
		return nil
	}
	var names []string
	for it.Next() {
		if it.Selector().ConstraintType() == cue.RequiredConstraint {
			names = append(names, it.Selector().Unquoted())
		}
	}
	return names
}

// didYouMean names the allowed field closest to a misspelt one.
func didYouMean(name string, schema cue.Value) string {
	it, err := schema.Fields(cue.Optional(true))
	if err != nil {
		return ""
	}
	best, bestDist := "", 3
	var all []string
	for it.Next() {
		f := it.Selector().Unquoted()
		all = append(all, f)
		if d := suggest.Distance(name, f); d < bestDist {
			best, bestDist = f, d
		}
	}
	if best != "" {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	slices.Sort(all)
	return "; allowed here: " + strings.Join(all, ", ")
}
