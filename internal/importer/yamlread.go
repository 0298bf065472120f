package importer

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Reader gathers the errors found reading one file of YAML documents,
// each at its line, so that every problem is reported at once.
type Reader struct {
	File string
	Errs []error
}

// Pos is where n stands in the file.
func (r *Reader) Pos(n *yaml.Node) Pos { return Pos{File: r.File, Line: n.Line} }

// Errorf records an error at n's line, in the field named.
func (r *Reader) Errorf(n *yaml.Node, field, format string, args ...any) {
	r.Errs = append(r.Errs, &Error{At: r.Pos(n), Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Str reads a scalar field of m, a mapping under parent; a required one
// that is missing or empty is an error.
func (r *Reader) Str(parent *yaml.Node, m map[string]*yaml.Node, path, key string, required bool) string {
	n := m[key]
	switch {
	case n == nil && required:
		r.Errorf(parent, path+key, "missing")
		return ""
	case n == nil:
		return ""
	case n.Kind != yaml.ScalarNode:
		r.Errorf(n, path+key, "want a string")
		return ""
	case required && n.Value == "":
		r.Errorf(n, path+key, "empty")
	}
	return n.Value
}

// Mapping is a mapping node's values by key; empty for any other node.
func Mapping(n *yaml.Node) map[string]*yaml.Node {
	m := map[string]*yaml.Node{}
	if n == nil || n.Kind != yaml.MappingNode {
		return m
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		m[n.Content[i].Value] = n.Content[i+1]
	}
	return m
}
