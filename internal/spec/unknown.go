package spec

import (
	"fmt"
	"github.com/slogen-dev/slogen/internal/suggest"
	"slices"
	"strings"

	"cuelang.org/go/cue"
)

// checkFields walks the user's value beside the schema and reports unknown
// and missing required fields. CUE reports an unknown field only once every
// other conflict in its struct is fixed, and a missing one not at all while
// its struct has other errors; this walk reports them all in one pass.
// It leaves out the fields of services: checkService walks those of a
// service CUE finds fault with.
func checkFields(user, schema cue.Value) Diagnostics {
	return newFieldWalk().check(user, schemaNode{value: schema, ok: true}, nil)
}

func newFieldWalk() fieldWalk {
	return fieldWalk{structs: map[string]*schemaStruct{}}
}

// servicePos is where services are in the schema.
const servicePos = ".services.*"

// serviceSchema is the schema of every service, for walking one.
func serviceSchema(def cue.Value) schemaNode {
	return schemaNode{def.LookupPath(servicesPath.Append(cue.AnyString)), servicePos, true}
}

// fieldWalk remembers what it read of the schema, by schema position:
// every service of a fleet is checked against the same #Service.
type fieldWalk struct {
	structs map[string]*schemaStruct // by schemaNode.pos
}

// schemaNode is the schema of a field and its position: the path of field
// names from #Spec, with "*" where a pattern constraint matched.
type schemaNode struct {
	value cue.Value
	pos   string
	ok    bool
}

// schemaStruct is what the walk needs of a struct in the schema.
type schemaStruct struct {
	declared map[string]cue.Value // plain, optional and required fields
	required []string
	pattern  *cue.Value // read when a field matches no declared one
}

func (w fieldWalk) check(user cue.Value, schema schemaNode, path []cue.Selector) Diagnostics {
	if user.IncompleteKind() != cue.StructKind || schema.value.IncompleteKind()&cue.StructKind == 0 {
		return nil
	}
	var ds Diagnostics
	it, err := user.Fields()
	if err != nil {
		return nil
	}
	st := w.read(schema)
	for it.Next() {
		sel := it.Selector()
		child := append(path[:len(path):len(path)], sel)
		s := st.child(schema, sel)
		if !s.ok {
			ds = append(ds, at(it.Value().Pos(), cue.MakePath(child...).String(), "unknown field %q%s%s", sel.Unquoted(), didYouMean(sel.Unquoted(), schema.value), ownFieldHint(path, sel)))
			continue
		}
		if s.pos == servicePos {
			continue // walked with the service
		}
		ds = append(ds, w.check(it.Value(), s, child)...)
	}
	for _, name := range st.required {
		if !user.LookupPath(cue.MakePath(cue.Str(name))).Exists() {
			ds = append(ds, at(user.Pos(), cue.MakePath(append(path[:len(path):len(path)], cue.Str(name))...).String(), "%s", withHint("is required", name)))
		}
	}
	return ds
}

func (w fieldWalk) read(schema schemaNode) *schemaStruct {
	if st, ok := w.structs[schema.pos]; ok {
		return st
	}
	st := &schemaStruct{declared: map[string]cue.Value{}}
	if it, err := schema.value.Fields(cue.Optional(true)); err == nil {
		for it.Next() {
			name := it.Selector().Unquoted()
			st.declared[name] = it.Value()
			if it.Selector().ConstraintType() == cue.RequiredConstraint {
				st.required = append(st.required, name)
			}
		}
	}
	w.structs[schema.pos] = st
	return st
}

// child finds the schema for a field: a declared field, or the struct's
// pattern constraint.
func (st *schemaStruct) child(parent schemaNode, sel cue.Selector) schemaNode {
	name := sel.Unquoted()
	if v, ok := st.declared[name]; ok {
		return schemaNode{v, parent.pos + "." + name, true}
	}
	if !parent.value.Allows(sel) {
		return schemaNode{}
	}
	if st.pattern == nil {
		v := parent.value.LookupPath(cue.MakePath(cue.AnyString))
		st.pattern = &v
	}
	return schemaNode{*st.pattern, parent.pos + ".*", true}
}

// didYouMean names the allowed field closest to a misspelt one.
func didYouMean(name string, schema cue.Value) string {
	it, err := schema.Fields(cue.Optional(true))
	if err != nil {
		return ""
	}
	var all []string
	for it.Next() {
		all = append(all, it.Selector().Unquoted())
	}
	if best, ok := suggest.Closest(name, all, 3, false); ok {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	slices.Sort(all)
	return "; allowed here: " + strings.Join(all, ", ")
}

// ownFieldHint says how to keep a field of the spec's own at its top,
// such as the table of models a fleet's comprehension reads: the schema
// allows only services there, and CUE leaves hidden fields out of it.
func ownFieldHint(path []cue.Selector, sel cue.Selector) string {
	if len(path) > 0 {
		return ""
	}
	return fmt.Sprintf("; a field of the spec's own, such as a table of models, is hidden: _%s", sel.Unquoted())
}
