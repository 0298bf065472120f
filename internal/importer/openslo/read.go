// Package openslo reads OpenSLO v1 documents (SLO, SLI, DataSource,
// AlertPolicy, AlertCondition, AlertNotificationTarget and Service) and
// converts their SLOs with a Prometheus source into slogen services.
//
// Field names and meanings are the OpenSLO specification's README.md at
// github.com/OpenSLO/OpenSLO aa5cb78 (September 2025), the v1 schema.
package openslo

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/importer"
)

// APIVersion is the only OpenSLO version slogen reads.
const APIVersion = "openslo/v1"

// Kinds are the v1 object kinds (README.md, General Schema).
var Kinds = []string{"DataSource", "SLO", "SLI", "AlertPolicy", "AlertCondition", "AlertNotificationTarget", "Service"}

// Object is one OpenSLO document (or an object inlined in one).
type Object struct {
	Kind, Name string
	At         importer.Pos
	// Path is the field path of an inlined object ("spec.indicator."),
	// "" for a document.
	Path string
	Spec *yaml.Node
	Meta *yaml.Node
}

// Is says whether a file's documents are OpenSLO: its first document's
// apiVersion starts with openslo/.
func Is(data []byte) bool {
	var doc struct {
		APIVersion string `yaml:"apiVersion"`
	}
	_ = yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc)
	return strings.HasPrefix(doc.APIVersion, "openslo/")
}

// Read parses every YAML document of a file as an OpenSLO v1 object,
// reporting every problem it finds, not only the first.
func Read(file string, data []byte) ([]Object, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []Object
	r := &reader{Reader: importer.Reader{File: file}}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &importer.Error{At: importer.Pos{File: file}, Field: "yaml", Msg: err.Error()}
		}
		if len(doc.Content) == 0 {
			continue
		}
		if o, ok := r.object(doc.Content[0], "", true); ok {
			out = append(out, o)
		}
	}
	if len(out) == 0 && len(r.Errs) == 0 {
		r.Errs = append(r.Errs, &importer.Error{At: importer.Pos{File: file, Line: 1}, Field: "document", Msg: "the file holds no OpenSLO object"})
	}
	return out, errors.Join(r.Errs...)
}

// reader walks documents, collecting errors with their lines.
type reader struct {
	importer.Reader
}

// object reads apiVersion, kind and metadata.name. A document must give
// apiVersion; an inlined object (an SLO's indicator) may leave it out.
func (r *reader) object(n *yaml.Node, path string, document bool) (Object, bool) {
	if n.Kind != yaml.MappingNode {
		r.Errorf(n, strings.TrimSuffix(path, ".")+"document", "want an OpenSLO object: apiVersion, kind, metadata, spec")
		return Object{}, false
	}
	m := importer.Mapping(n)
	r.fields(n, path, "apiVersion", "kind", "metadata", "spec")
	v := m["apiVersion"]
	switch {
	case v == nil && document:
		r.Errorf(n, path+"apiVersion", "missing: want %s", APIVersion)
		return Object{}, false
	case v != nil && v.Value != APIVersion:
		r.Errorf(v, path+"apiVersion", "%q: slogen reads %s only; convert the file with OpenSLO's oslo tool (oslo convert) first", v.Value, APIVersion)
		return Object{}, false
	}
	o := Object{At: r.Pos(n), Path: path, Spec: m["spec"], Meta: m["metadata"]}
	if k := m["kind"]; k != nil {
		o.Kind = k.Value
		if !slices.Contains(Kinds, o.Kind) {
			r.Errorf(k, path+"kind", "%q is not an OpenSLO v1 kind; the kinds are %s", o.Kind, strings.Join(Kinds, ", "))
			return Object{}, false
		}
	} else if document {
		r.Errorf(n, path+"kind", "missing: one of %s", strings.Join(Kinds, ", "))
		return Object{}, false
	}
	o.Name = r.Str(n, importer.Mapping(o.Meta), path+"metadata.", "name", true)
	if o.Meta == nil {
		r.Errorf(n, path+"metadata", "missing: every object has metadata.name")
	}
	if o.Spec == nil {
		r.Errorf(n, path+"spec", "missing")
		return Object{}, false
	}
	return o, o.Name != ""
}

// fields reports every key of n that OpenSLO v1 does not define here, so
// that a misspelt field is not silently dropped.
func (r *reader) fields(n *yaml.Node, path string, known ...string) {
	if n == nil {
		return
	}
	if n.Kind != yaml.MappingNode {
		r.Errorf(n, strings.TrimSuffix(path, "."), "want a map")
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(known, k.Value) {
			r.Errorf(k, path+k.Value, "not a field OpenSLO v1 defines here; the fields are %s", strings.Join(known, ", "))
		}
	}
}
