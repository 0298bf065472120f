package spec

import (
	"maps"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
)

// Most services of a fleet are the same data but for their identity: their
// name, team, model, selector values and GPU product. The schema leaves all
// five unconstrained (services: [string]: #Service, team?: string, model?:
// string, selector?: [string]: string, gpu: product?: string) and derives
// nothing from them, so
// checking one such service against it stands for the others: each
// decodes to the checked one's rawService with its own identity.
// checkServices checks one service of each such group with CUE, which
// costs about a millisecond a service, and derives the rest.
//
// Services are compared as CUE evaluated them, not as written, so that a
// fleet written as one comprehension over teams, models and tiers shares
// its checks as one written out does. Only where a service's value is all
// that meeting the schema reads of it: concrete data, with no default, no
// closed struct, no pattern constraint, no optional or required field and
// no definition, each of which the schema's fields would meet in a way the
// data does not show; and only in a file whose references all read tables
// (hidden fields and definitions), comprehension variables, lets and
// labels (refersOnlyToTables).

// identity is what a service derived from another takes as its own.
type identity struct {
	team, model, gpuProduct string
	// selector is nil for a service without one.
	selector map[string]string
}

// dataKey is a service's evaluated value as a key, with its identity's
// values left out, and its identity; ok is false for a value that is not
// plain data (see above).
func dataKey(v cue.Value) (key string, id identity, ok bool) {
	w := keyWriter{id: &id}
	if !w.service(v) {
		return "", identity{}, false
	}
	return string(w.b), id, true
}

// keyWriter writes a value's data to b. Each string and number is written
// after its kind and length, so that no two values write the same key.
type keyWriter struct {
	b  []byte
	id *identity
}

// fieldsOf lists everything a struct declares, patterns and definitions
// included, so that structFields can turn down any but regular fields.
var fieldsOf = []cue.Option{cue.Optional(true), cue.Definitions(true), cue.Patterns(true)}

// service writes the service's fields, its identity's values as blanks.
func (w *keyWriter) service(v cue.Value) bool {
	return w.structFields(v, func(name string, f cue.Value) bool {
		switch name {
		case "team":
			return w.identityValue(f, &w.id.team)
		case "model":
			return w.identityValue(f, &w.id.model)
		case "selector":
			w.id.selector = map[string]string{}
			return w.structFields(f, func(label string, f cue.Value) bool {
				var value string
				ok := w.identityValue(f, &value)
				w.id.selector[label] = value
				return ok
			})
		case "gpu":
			return w.structFields(f, func(field string, f cue.Value) bool {
				if field == "product" {
					return w.identityValue(f, &w.id.gpuProduct)
				}
				return w.value(f)
			})
		}
		return w.value(f)
	})
}

// identityValue reads a string of the identity, which the key leaves out.
func (w *keyWriter) identityValue(v cue.Value, to *string) bool {
	if v.Kind() != cue.StringKind {
		return false
	}
	s, err := v.String()
	*to = s
	return err == nil
}

// value writes a value of data; Kind is bottom for any other, a
// disjunction with a default included.
func (w *keyWriter) value(v cue.Value) bool {
	switch v.Kind() {
	case cue.StructKind:
		return w.structFields(v, func(_ string, f cue.Value) bool { return w.value(f) })
	case cue.ListKind:
		return w.list(v)
	case cue.StringKind:
		s, err := v.String()
		w.scalar('s', s)
		return err == nil
	case cue.IntKind, cue.FloatKind:
		// The number as CUE writes it, which tells 4.0 from 4: the
		// schema's bounds compare decimals, which two numbers of one
		// float64 may differ in.
		text, err := v.MarshalJSON()
		w.scalar('n', string(text))
		return err == nil
	case cue.BoolKind:
		b, err := v.Bool()
		w.scalar('b', strconv.FormatBool(b))
		return err == nil
	case cue.NullKind:
		w.b = append(w.b, 'z')
		return true
	}
	return false // bytes, or not concrete
}

func (w *keyWriter) scalar(kind byte, text string) {
	w.b = append(w.b, kind)
	w.b = strconv.AppendInt(w.b, int64(len(text)), 10)
	w.b = append(append(w.b, ':'), text...)
}

// structFields writes each regular field's name, then its value through
// value; a struct that is closed or declares anything but regular fields
// is not plain.
func (w *keyWriter) structFields(v cue.Value, value func(name string, f cue.Value) bool) bool {
	if v.Kind() != cue.StructKind || v.IsClosed() {
		return false
	}
	it, err := v.Fields(fieldsOf...)
	if err != nil {
		return false
	}
	w.b = append(w.b, '{')
	for it.Next() {
		if it.FieldType() != cue.StringLabel {
			return false
		}
		name := it.Selector().Unquoted()
		w.scalar('f', name)
		if !value(name, it.Value()) {
			return false
		}
	}
	w.b = append(w.b, '}')
	return true
}

func (w *keyWriter) list(v cue.Value) bool {
	it, err := v.List()
	if err != nil {
		return false
	}
	w.b = append(w.b, '[')
	for it.Next() {
		if !w.value(it.Value()) {
			return false
		}
	}
	w.b = append(w.b, ']')
	return true
}

// standIns says which service's check stands for each service of a file.
type standIns struct {
	// by is, for each service by index, the service whose check stands
	// for it: itself for most, or the first of the file's services that
	// are the same data but for their identity.
	by []int
	// identity is each service's identity, as its data has it; the zero
	// identity for a service that is not plain data, which derive never
	// reads.
	identity []identity
}

// standInsOf finds the services of a file that are the same data but for
// their identity, when sameData is set; otherwise each service stands for
// itself.
func standInsOf(f file, sameData bool) standIns {
	s := standIns{by: make([]int, len(f.services)), identity: make([]identity, len(f.services))}
	first := map[string]int{}
	sameData = sameData && len(f.services) > 1 && refersOnlyToTables(f.user.Source())
	for j, sel := range f.services {
		s.by[j] = j
		if !sameData {
			continue
		}
		key, id, ok := dataKey(f.user.LookupPath(servicesPath.Append(sel)))
		if !ok {
			continue
		}
		s.identity[j] = id
		if in, seen := first[key]; seen {
			s.by[j] = in
		} else {
			first[key] = j
		}
	}
	return s
}

// sameIdentity reports whether a service CUE decoded has the identity its
// data showed.
func sameIdentity(decoded rawService, data identity) bool {
	return decoded.Team == data.team && decoded.Model == data.model && gpuProduct(decoded) == data.gpuProduct &&
		(decoded.Selector == nil) == (data.selector == nil) && maps.Equal(decoded.Selector, data.selector)
}

func gpuProduct(raw rawService) string {
	if raw.GPU == nil {
		return ""
	}
	return raw.GPU.Product
}

// of is a stand-in's service with this identity.
func (id identity) of(raw rawService) rawService {
	raw.Team, raw.Model, raw.Selector = id.team, id.model, id.selector
	if raw.GPU != nil {
		gpu := *raw.GPU // the stand-in's, which keeps its own
		gpu.Product = id.gpuProduct
		raw.GPU = &gpu
	}
	return raw
}

// refersOnlyToTables reports whether every reference of a file reads a
// hidden field or a definition (the tables a fleet is stamped out of), a
// comprehension's variable, a let or a pattern's label. A reference to a
// regular field may read, once the schema fills a service in, what the
// schema added there (page_on: [for k, _ in thresholds {k}] lists the
// thresholds' defaults), which evaluating the service alone does not show.
func refersOnlyToTables(root ast.Node) bool {
	ok := true
	ast.Walk(root, func(n ast.Node) bool {
		if id, isIdent := n.(*ast.Ident); isIdent && id.Node != nil && !readsTable(id) {
			ok = false
		}
		return ok
	}, nil)
	return ok
}

// readsTable reports whether a resolved reference reads what
// refersOnlyToTables allows.
func readsTable(id *ast.Ident) bool {
	switch id.Node.(type) {
	case *ast.Ident, *ast.LetClause, *ast.ImportSpec: // a variable or a label, a let, a package
		return true
	case *ast.Field, *ast.Alias: // a field's or a value's alias
		return false
	}
	return strings.HasPrefix(id.Name, "_") || strings.HasPrefix(id.Name, "#") // a field, by its value
}
