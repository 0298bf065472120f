package discover

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// updateYAML replaces the service's gpu key in a YAML spec, or adds one.
// yaml.v3 finds the lines and renders the block; the file is spliced line
// by line, so every other line, comments and blank lines included, stays
// as it was (a re-encoded yaml.Node would drop blank lines and respace).
func updateYAML(name string, src []byte, service string, b Block) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	svc := lookup(lookup(root(&doc), "services"), service)
	if svc == nil || svc.Kind != yaml.MappingNode || len(svc.Content) == 0 {
		return nil, fmt.Errorf("%s declares no service %q as a mapping under services", name, service)
	}
	if svc.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%s: service %q is a flow mapping ({...}); write it in block style for --write to update it", name, service)
	}
	lines := strings.SplitAfter(string(src), "\n")
	keyCol := svc.Content[0].Column - 1
	block, err := renderYAML(b, keyCol, indentUnit(lines))
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(svc.Content); i += 2 {
		if svc.Content[i].Value == "gpu" {
			first := svc.Content[i].Line - 1
			last := lastLine(lines, svc.Content[i+1], keyCol)
			return []byte(strings.Join(slices.Concat(lines[:first], []string{block}, lines[last+1:]), "")), nil
		}
	}
	at := len(lines)
	for i := 0; i+1 < len(svc.Content); i += 2 {
		if slices.Contains(fieldsBeforeGPU, svc.Content[i].Value) {
			at = lastLine(lines, svc.Content[i+1], keyCol) + 1
		}
	}
	if at == len(lines) { // no field to follow: the mapping's first line
		at = svc.Content[0].Line - 1
	}
	return []byte(strings.Join(slices.Concat(lines[:at], []string{block}, lines[at:]), "")), nil
}

func root(doc *yaml.Node) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		return doc.Content[0]
	}
	return nil
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// lastLine is the index of the last line of a key's value: its deepest
// node's line, then any deeper-indented lines (a flow mapping's closing
// brace), but not the comments and blank lines before the next key.
func lastLine(lines []string, value *yaml.Node, keyCol int) int {
	last := maxLine(value) - 1
	for i := last + 1; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(lines[i])-len(strings.TrimLeft(lines[i], " ")) <= keyCol {
			break
		}
		last = i
	}
	return last
}

func maxLine(n *yaml.Node) int {
	m := n.Line
	for _, c := range n.Content {
		m = max(m, maxLine(c))
	}
	return m
}

// indentUnit is the file's indentation step: its smallest indent.
func indentUnit(lines []string) int {
	unit := 0
	for _, l := range lines {
		t := strings.TrimLeft(l, " ")
		if n := len(l) - len(t); n > 0 && strings.TrimSpace(t) != "" && !strings.HasPrefix(t, "#") && (unit == 0 || n < unit) {
			unit = n
		}
	}
	return max(unit, 2)
}

// renderYAML writes "gpu:" and the block at column col.
func renderYAML(b Block, col, unit int) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(unit)
	if err := enc.Encode(map[string]Block{"gpu": b}); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	pad := strings.Repeat(" ", col)
	out := strings.TrimRight(buf.String(), "\n")
	return pad + strings.ReplaceAll(out, "\n", "\n"+pad) + "\n", nil
}
