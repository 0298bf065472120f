package spec

import (
	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
)

// A fleet is often written as a CUE template: #VLLMService: {...} and
// services: {for k, v in _models {"\(k)": #VLLMService & {...}}}. A
// definition closes its value and every struct in it, so the schema
// cannot add the fields it gives defaults (alerting, each SLO's window):
// CUE refuses each of them, in every service, at the schema's line.
// closedBy turns them into one problem at the definition, with its fix.

// closedFix is the fix for a template written as a definition. Opening
// the definition alone is not enough: each struct in it stays closed.
const closedFix = "a definition closes every struct in it, so slogen cannot add its defaults (alerting, thresholds, dcgm, scrape, each SLO's window) to the services built from it; " +
	"write the template as a hidden field, _vllm: {...}, and the services as _vllm & {...}, " +
	"or keep the definition and end it, and every struct in it, with ..."

// closedOwnFix is the fix for a field the spec adds to a struct it
// closed itself, such as a service that sets a field its template, a
// definition, does not declare.
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
	// From the refused field's struct up to its service: services.<name>.
	for n := len(sels) - 1; n >= min(2, len(sels)); n-- {
		if name, def, ok := definitionOf(user.LookupPath(cue.MakePath(sels[:n]...))); ok {
			return at(def.Pos(), name, "%s", closedFix)
		}
	}
	parent := cue.MakePath(sels[:max(len(sels)-1, 0)]...)
	return at(user.LookupPath(parent).Pos(), parent.String(), "is closed, by a definition or close(), so slogen cannot add its defaults to it; "+
		"write it as plain or hidden fields (_vllm: {...}, used as _vllm & {...}), or end it, and every struct in it, with ...")
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
