package spec

import (
	"maps"
	"strconv"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
)

// Most services of a fleet are written as the same data but for their
// selector's values (and their names). The schema leaves both
// unconstrained (services: [string]: #Service, selector?: [string]:
// string) and derives nothing from them, so checking one such service
// against it stands for the others: each decodes to the checked one's
// rawService with its own selector. checkServices checks one service of
// each such group with CUE, which costs about a millisecond a service, and
// derives the rest.

// dataService is a service written as plain data.
type dataService struct {
	// key is the service's text, but for its selector's values: two
	// services of one file with the same key are the same data but for
	// those.
	key string
	// selector is the service's selector as written; nil when it has none.
	selector map[string]string
}

// dataServices lists the services of a file that are written as plain
// data: literals only, with no reference, default, disjunction,
// comprehension, optional field or attribute, each written once. It lists
// none in a file where anything but a services field of plain services
// could add to one (an embedding, a comprehension, a pattern, a computed
// label).
func dataServices(root ast.Node) map[string]dataService {
	written, ok := writtenServices(root)
	if !ok {
		return nil
	}
	services := map[string]dataService{}
	for name, values := range written {
		if len(values) != 1 {
			continue // unified from several places
		}
		if ds, ok := dataOf(values[0]); ok {
			services[name] = ds
		}
	}
	return services
}

// writtenServices gathers what the file's services fields write for each
// service, or fails when something else may add to services.
func writtenServices(root ast.Node) (map[string][]ast.Expr, bool) {
	var decls []ast.Decl
	switch n := root.(type) {
	case *ast.File:
		decls = n.Decls
	case *ast.StructLit: // a JSON file
		decls = n.Elts
	default:
		return nil, false
	}
	written := map[string][]ast.Expr{}
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.Package, *ast.ImportDecl, *ast.CommentGroup:
		case *ast.Field:
			if name, fixed := labelName(d.Label); !fixed {
				return nil, false // it may be services
			} else if name != "services" {
				continue
			}
			if _, plain := plainField(d); !plain {
				return nil, false
			}
			services, ok := d.Value.(*ast.StructLit)
			if !ok {
				return nil, false
			}
			for _, e := range services.Elts {
				f, ok := e.(*ast.Field)
				if !ok {
					return nil, false
				}
				svc, plain := plainField(f)
				if !plain {
					return nil, false
				}
				written[svc] = append(written[svc], f.Value)
			}
		default:
			return nil, false
		}
	}
	return written, true
}

// labelName is a label's name when the label is a fixed one: an
// identifier or a string without escapes.
func labelName(l ast.Label) (string, bool) {
	switch l := l.(type) {
	case *ast.Ident:
		return l.Name, true
	case *ast.BasicLit:
		return plainString(l)
	}
	return "", false
}

// plainField is the name of a regular field of fixed name: not a
// definition, hidden, optional or required, and without attributes.
func plainField(f *ast.Field) (string, bool) {
	name, fixed := labelName(f.Label)
	if _, isIdent := f.Label.(*ast.Ident); isIdent && (strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_")) {
		return "", false
	}
	return name, fixed && f.Constraint == token.ILLEGAL && len(f.Attrs) == 0
}

// plainString is a string literal's value when it is written in double
// quotes on one line without escapes, as YAML and JSON write such strings
// too.
func plainString(l *ast.BasicLit) (string, bool) {
	v := l.Value
	if l.Kind != token.STRING || len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || strings.HasPrefix(v, `"""`) || strings.ContainsAny(v, "\\\n") {
		return "", false
	}
	return v[1 : len(v)-1], true
}

// dataOf is a service's key and selector when its value is plain data.
func dataOf(v ast.Expr) (dataService, bool) {
	s, ok := v.(*ast.StructLit)
	if !ok {
		return dataService{}, false
	}
	var ds dataService
	var key strings.Builder
	ok = writeStruct(&key, s, func(name string, v ast.Expr) bool {
		if name != "selector" {
			return writeData(&key, v)
		}
		return ds.selector == nil && readSelector(&key, v, &ds)
	})
	ds.key = key.String()
	return ds, ok
}

// readSelector reads a selector of plain strings into ds and writes its
// labels, not their values, to the key.
func readSelector(key *strings.Builder, v ast.Expr, ds *dataService) bool {
	s, ok := v.(*ast.StructLit)
	if !ok {
		return false
	}
	ds.selector = map[string]string{}
	return writeStruct(key, s, func(label string, v ast.Expr) bool {
		lit, ok := v.(*ast.BasicLit)
		if !ok {
			return false
		}
		value, ok := plainString(lit)
		if _, twice := ds.selector[label]; !ok || twice {
			return false
		}
		ds.selector[label] = value
		return true
	})
}

// writeData writes a value of plain data to the key: literals, lists and
// structs of them. Each literal is written as its source text, after its
// length, so that no two values write the same key.
func writeData(key *strings.Builder, v ast.Expr) bool {
	switch v := v.(type) {
	case *ast.BasicLit:
		key.WriteString(strconv.Itoa(len(v.Value)) + ":" + v.Value)
		return true
	case *ast.UnaryExpr: // a signed number
		lit, ok := v.X.(*ast.BasicLit)
		if !ok || (v.Op != token.SUB && v.Op != token.ADD) || (lit.Kind != token.INT && lit.Kind != token.FLOAT) {
			return false
		}
		key.WriteString(v.Op.String())
		return writeData(key, lit)
	case *ast.ListLit:
		key.WriteByte('[')
		for _, e := range v.Elts {
			if !writeData(key, e) {
				return false
			}
			key.WriteByte(',')
		}
		key.WriteByte(']')
		return true
	case *ast.StructLit:
		return writeStruct(key, v, func(_ string, v ast.Expr) bool { return writeData(key, v) })
	}
	return false
}

// writeStruct writes a struct of plain fields to the key: each field's
// name, then its value through value, which fails for a value that is not
// plain data.
func writeStruct(key *strings.Builder, s *ast.StructLit, value func(name string, v ast.Expr) bool) bool {
	key.WriteByte('{')
	for _, e := range s.Elts {
		f, ok := e.(*ast.Field)
		if !ok {
			return false
		}
		name, plain := plainField(f)
		if !plain {
			return false
		}
		key.WriteString(strconv.Quote(name) + ":")
		if !value(name, f.Value) {
			return false
		}
		key.WriteByte(',')
	}
	key.WriteByte('}')
	return true
}

// standIns says which service's check stands for each service of a file.
type standIns struct {
	// by is, for each service by index, the service whose check stands
	// for it: itself for most, or the first of the file's services that
	// are written as the same data but for their selectors.
	by []int
	// selector is the selector as written of each service written as
	// data; nil for one without a selector, and for one not written as
	// data, which derive never reads.
	selector []map[string]string
}

// standInsOf finds the services of a file written as the same data but for
// their selectors, when sameData is set; otherwise each service stands
// for itself.
func standInsOf(f file, sameData bool) standIns {
	s := standIns{by: make([]int, len(f.services)), selector: make([]map[string]string, len(f.services))}
	var data map[string]dataService
	if sameData && len(f.services) > 1 {
		data = dataServices(f.user.Source())
	}
	first := map[string]int{}
	for j, sel := range f.services {
		s.by[j] = j
		ds, ok := data[sel.Unquoted()]
		if !ok {
			continue
		}
		s.selector[j] = ds.selector
		if in, seen := first[ds.key]; seen {
			s.by[j] = in
		} else {
			first[ds.key] = j
		}
	}
	return s
}

// sameSelector reports whether a selector CUE decoded is the one written.
func sameSelector(decoded, written map[string]string) bool {
	return (decoded == nil) == (written == nil) && maps.Equal(decoded, written)
}
