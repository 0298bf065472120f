// Package yamlenc writes the YAML slogen generates: rule files and their
// tests. It handles only what those need (structs with yaml tags, slices,
// string-keyed maps, strings, integers and booleans) and does it several
// times faster than a general encoder, which matters when a build writes
// thousands of files. Map keys are sorted; the layout matches yaml.v3 with
// a two-space indent, so reviews read the same.
package yamlenc

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Marshal encodes v as a YAML document.
func Marshal(v any) ([]byte, error) {
	var e encoder
	if err := e.value(reflect.ValueOf(v), 0, false); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

type encoder struct {
	buf bytes.Buffer
}

// value writes v at indent. inline is true when v follows a "- " or a
// "key:" on the same line.
func (e *encoder) value(v reflect.Value, indent int, inline bool) error {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		return e.mapping(structFields(v), indent, inline)
	case reflect.Map:
		return e.mapping(mapFields(v), indent, inline)
	case reflect.Slice:
		return e.sequence(v, indent)
	case reflect.String:
		e.scalar(v.String(), indent)
	case reflect.Int, reflect.Int64:
		e.line(" " + strconv.FormatInt(v.Int(), 10))
	case reflect.Bool:
		e.line(" " + strconv.FormatBool(v.Bool()))
	default:
		return fmt.Errorf("yamlenc: cannot encode %s", v.Type())
	}
	return nil
}

type field struct {
	key string
	val reflect.Value
}

func structFields(v reflect.Value) []field {
	var out []field
	for i := range v.NumField() {
		tag := v.Type().Field(i).Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || name == "" {
			continue
		}
		f := v.Field(i)
		if opts == "omitempty" && empty(f) {
			continue
		}
		out = append(out, field{name, f})
	}
	return out
}

func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String:
		return v.Len() == 0
	}
	return v.IsZero()
}

func mapFields(v reflect.Value) []field {
	keys := make([]string, 0, v.Len())
	for _, k := range v.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	out := make([]field, len(keys))
	for i, k := range keys {
		out[i] = field{k, v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key()))}
	}
	return out
}

func (e *encoder) mapping(fs []field, indent int, inline bool) error {
	if len(fs) == 0 {
		e.line(" {}")
		return nil
	}
	for i, f := range fs {
		if i > 0 || !inline {
			e.indent(indent)
		}
		k := key(f.key)
		if len(k) > 1024 {
			return fmt.Errorf("yamlenc: key %.20q… is longer than YAML's 1024-character limit for keys", f.key)
		}
		e.buf.WriteString(k + ":")
		if err := e.value(f.val, indent+2, false); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) sequence(v reflect.Value, indent int) error {
	if v.Len() == 0 {
		e.line(" []")
		return nil
	}
	e.buf.WriteByte('\n')
	for i := range v.Len() {
		e.buf.WriteString(strings.Repeat(" ", indent) + "-")
		item := v.Index(i)
		if isCollection(item) {
			e.buf.WriteByte(' ')
		}
		if err := e.value(item, indent+2, true); err != nil {
			return err
		}
	}
	return nil
}

func isCollection(v reflect.Value) bool {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v.Kind() == reflect.Struct || v.Kind() == reflect.Map
}

func (e *encoder) indent(n int) {
	if e.buf.Len() > 0 && e.buf.Bytes()[e.buf.Len()-1] != '\n' {
		e.buf.WriteByte('\n')
	}
	e.buf.WriteString(strings.Repeat(" ", n))
}

func (e *encoder) line(s string) {
	e.buf.WriteString(s)
	e.buf.WriteByte('\n')
}

// scalar writes a string plain when YAML reads it back unchanged, as a
// literal block when it spans lines, and double-quoted otherwise.
func (e *encoder) scalar(s string, indent int) {
	switch {
	case plain(s):
		e.line(" " + s)
	case block(s):
		e.buf.WriteString(" |-\n")
		pad := strings.Repeat(" ", indent)
		for _, l := range strings.Split(s, "\n") {
			if l == "" {
				e.buf.WriteByte('\n')
				continue
			}
			e.line(pad + l)
		}
	default:
		e.line(" " + quote(s))
	}
}

func key(k string) string {
	if plain(k) {
		return k
	}
	return quote(k)
}
