package discover

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
)

// fieldsBeforeGPU are the fields a new gpu block goes after, in the
// schema's order; it goes after the last one the service has.
var fieldsBeforeGPU = []string{"team", "runtime", "model", "selector"}

// updateCUE replaces the service's gpu field in a CUE spec, or adds one.
// It splices text at the positions the parser reports, so every other
// byte of the file, comments and layout included, stays as it was.
func updateCUE(name string, src []byte, service string, b Block) ([]byte, error) {
	f, err := parser.ParseFile(name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	svc := findService(f, service)
	if svc == nil {
		return nil, fmt.Errorf("%s declares no service %q as a struct (services: %q: {...})", name, service, service)
	}
	expr, err := cueExpr(b)
	if err != nil {
		return nil, err
	}
	text, err := format.Node(expr)
	if err != nil {
		return nil, err
	}
	if gpuField := field(svc, "gpu"); gpuField != nil {
		start, end := gpuField.Value.Pos().Offset(), gpuField.Value.End().Offset()
		return splice(src, start, end, indent(text, lineIndent(src, gpuField.Pos().Offset()))), nil
	}
	at, ind := insertionPoint(src, svc)
	return splice(src, at, at, "\n"+ind+"gpu: "+indent(text, ind)), nil
}

// findService finds services.<service> as a struct literal, in any of
// CUE's spellings (services: x: {...}, services: {x: {...}}), preferring
// a declaration that already has a gpu field when there are several.
func findService(f *ast.File, service string) *ast.StructLit {
	var found []*ast.StructLit
	for _, d := range f.Decls {
		top, ok := d.(*ast.Field)
		if !ok || labelName(top.Label) != "services" {
			continue
		}
		services, ok := top.Value.(*ast.StructLit)
		if !ok {
			continue
		}
		for _, e := range services.Elts {
			if fd, ok := e.(*ast.Field); ok && labelName(fd.Label) == service {
				if s, ok := fd.Value.(*ast.StructLit); ok {
					found = append(found, s)
				}
			}
		}
	}
	if i := slices.IndexFunc(found, func(s *ast.StructLit) bool { return field(s, "gpu") != nil }); i >= 0 {
		return found[i]
	}
	if len(found) > 0 {
		return found[0]
	}
	return nil
}

func labelName(l ast.Label) string {
	name, _, err := ast.LabelName(l)
	if err != nil {
		return ""
	}
	return name
}

func field(s *ast.StructLit, name string) *ast.Field {
	for _, e := range s.Elts {
		if f, ok := e.(*ast.Field); ok && labelName(f.Label) == name {
			return f
		}
	}
	return nil
}

// insertionPoint is just after the last of fieldsBeforeGPU, or just inside
// the struct's brace, with the indentation of the struct's fields.
func insertionPoint(src []byte, s *ast.StructLit) (int, string) {
	var after *ast.Field
	for _, e := range s.Elts {
		if f, ok := e.(*ast.Field); ok && slices.Contains(fieldsBeforeGPU, labelName(f.Label)) {
			after = f
		}
	}
	if after != nil {
		return after.End().Offset(), lineIndent(src, after.Pos().Offset())
	}
	at := s.Lbrace.Offset() + 1
	return at, lineIndent(src, s.Lbrace.Offset()) + "\t"
}

// lineIndent is the leading white space of the line holding offset.
func lineIndent(src []byte, offset int) string {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// indent prefixes every line but the first with ind.
func indent(text []byte, ind string) string {
	return strings.ReplaceAll(strings.TrimRight(string(text), "\n"), "\n", "\n"+ind)
}

func splice(src []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:start]...)
	out = append(out, text...)
	return append(out, src[end:]...)
}
