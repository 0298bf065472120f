package spec

import (
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
)

// A fleet is often written as a CUE template: #VLLMService: {...} and
// services: {for k, v in _models {"\(k)": #VLLMService & {...}}}. A
// definition closes its value and every struct in it, so the schema
// cannot add the fields it gives defaults (alerting, each SLO's window):
// CUE refuses each of them, in every service, at the schema's line.
// closedBy turns them into one problem at the definition, with its fix.

// closedFix is the fix for a template written as the definition def.
// Opening the definition alone is not enough: each struct in it stays
// closed.
func closedFix(def string) string {
	return "a definition closes every struct in it, so slogen cannot add its defaults (such as alerting, thresholds, each SLO's window) to what is built from it; " +
		hiddenFix(def) + ", or keep the definition and end it, and every struct in it, with ..."
}

// ownClosedFix is the fix for fields a spec sets in what it builds from
// its own definition def; declaring them would only meet closedFix next.
func ownClosedFix(def string) string {
	return hiddenFix(def) + ", which stays open to them and to slogen's defaults, or declare them in it and end it, and every struct in it, with ..."
}

// hiddenFix says to write the definition def as a hidden field of the
// same name: #VLLMService becomes _VLLMService, and a template whose name
// is no identifier becomes _template.
func hiddenFix(def string) string {
	hidden := "_template"
	if sels := cue.ParsePath(def).Selectors(); len(sels) > 0 && !strings.HasPrefix(sels[len(sels)-1].String(), `"`) {
		hidden = "_" + strings.TrimPrefix(sels[len(sels)-1].String(), "#")
	}
	return fmt.Sprintf("write the template as a hidden field, %s: {...}, and use it as %s & {...}", hidden, hidden)
}

// closedOwnFix is the fix for a field the spec adds to a struct it
// closed itself, by close() or a definition it could not be traced to.
const closedOwnFix = "the struct is closed, by a definition or close(): declare the field there, or write the template as a hidden field, _vllm: {...}, which leaves its structs open"

// addedToClosed reports whether errs are CUE refusing a field the spec
// does not write: one the schema adds to a struct the spec closed.
func addedToClosed(errs []cueerrors.Error, user cue.Value) bool {
	return notAllowed(errs) && !user.LookupPath(cue.ParsePath(userPath(errs[0].Path()))).Exists()
}

// closedBy is the problem of a field the schema could not add: at the
// definition that closed the struct it belongs to, or else at that
// struct.
func closedBy(user cue.Value, errPath []string) Diagnostic {
	sels := cue.ParsePath(userPath(errPath)).Selectors()
	if name, def, _, ok := closingDefinition(user, sels); ok {
		return at(def.Pos(), name, "%s", closedFix(name))
	}
	parent := cue.MakePath(sels[:max(len(sels)-1, 0)]...)
	return at(user.LookupPath(parent).Pos(), parent.String(), "is closed, by a definition or close(), so slogen cannot add its defaults to it; "+
		"write it as plain or hidden fields (_vllm: {...}, used as _vllm & {...}), or end it, and every struct in it, with ...")
}

// closingDefinition finds the definition that closed the struct holding
// the field at sels: the struct's own, or that of the nearest struct
// above it built from one, at sels[:depth].
func closingDefinition(user cue.Value, sels []cue.Selector) (name string, def cue.Value, depth int, ok bool) {
	for n := len(sels) - 1; n >= 1; n-- {
		if name, def, ok := definitionOf(user.LookupPath(cue.MakePath(sels[:n]...))); ok {
			return name, def, n, true
		}
	}
	return "", cue.Value{}, 0, false
}

// ownClosed gathers the fields a spec sets in structs its own definitions
// closed, which CUE refuses as it compiles the spec, one error per field
// and service: one problem per definition, at the definition, naming the
// fields. It returns the other errors.
func ownClosed(errs []cueerrors.Error, v cue.Value) (Diagnostics, []cueerrors.Error) {
	type definition struct {
		name string
		pos  token.Pos
	}
	fields := map[definition][]string{}
	var order []definition
	var rest []cueerrors.Error
	for _, e := range errs {
		p := cue.ParsePath(strings.Join(e.Path(), "."))
		name, def, depth, ok := closingDefinition(v, p.Selectors())
		if f, args := e.Msg(); fmt.Sprintf(f, args...) != "field not allowed" || p.Err() != nil || !ok {
			rest = append(rest, e)
			continue
		}
		d := definition{name, def.Pos()}
		if _, seen := fields[d]; !seen {
			order = append(order, d)
		}
		fields[d] = append(fields[d], cue.MakePath(p.Selectors()[depth:]...).String())
	}
	ds := make(Diagnostics, 0, len(order))
	for _, d := range order {
		fs := slices.Compact(slices.Sorted(slices.Values(fields[d])))
		ds = append(ds, at(d.pos, d.name, "what is built from it sets %s, which it does not declare, and a definition is closed: %s", strings.Join(fs, ", "), ownClosedFix(d.name)))
	}
	return ds, rest
}

// definitionOf finds the definition a value is built from, when it is a
// reference to one or unifies one with more (#VLLMService & {...}).
func definitionOf(v cue.Value) (string, cue.Value, bool) {
	_, args := v.Expr()
	for _, a := range append([]cue.Value{v}, args...) {
		root, path := a.ReferencePath()
		if !root.Exists() {
			continue
		}
		for _, sel := range path.Selectors() {
			if sel.IsDefinition() {
				return path.String(), root.LookupPath(path), true
			}
		}
	}
	return "", cue.Value{}, false
}
