package scrape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/genfile"
)

// MarshalConfig writes a scrape config file with slogen's header.
func MarshalConfig(c Config) ([]byte, error) { return marshalConfig(c, "") }

// marshalConfig writes the header, a note of comment lines, and the config.
func marshalConfig(c Config, note string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(genfile.Header)
	b.WriteString(note)
	if err := encode(&b, c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// MarshalObjects writes Kubernetes objects as a multi-document YAML file.
// The operator's types carry JSON tags only, so each object goes through
// JSON; a yaml.Node keeps the order of its fields.
func MarshalObjects(objs []any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(genfile.Header)
	for i, o := range objs {
		js, err := json.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("encoding monitor: %w", err)
		}
		var n yaml.Node
		if err := yaml.Unmarshal(js, &n); err != nil {
			return nil, fmt.Errorf("encoding monitor: %w", err)
		}
		blockStyle(&n)
		tidy(n.Content[0])
		if i > 0 {
			b.WriteString("---\n")
		}
		if err := encode(&b, &n); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

func encode(b *bytes.Buffer, v any) error {
	enc := yaml.NewEncoder(b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return enc.Close()
}

// blockStyle drops JSON's flow style and quoting; the encoder quotes what
// would otherwise read as another type.
func blockStyle(n *yaml.Node) {
	n.Style = 0
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// tidy puts apiVersion before kind, as Kubernetes manifests are written,
// and drops the unset TLS ca and cert: they are structs, so JSON writes
// them as {}.
func tidy(doc *yaml.Node) {
	if len(doc.Content) >= 4 && doc.Content[0].Value == "kind" && doc.Content[2].Value == "apiVersion" {
		c := doc.Content
		c[0], c[1], c[2], c[3] = c[2], c[3], c[0], c[1]
	}
	dropEmpty(doc, "ca", "cert")
}

func dropEmpty(n *yaml.Node, keys ...string) {
	if n.Kind == yaml.MappingNode {
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.MappingNode && len(v.Content) == 0 && slices.Contains(keys, k.Value) {
				continue
			}
			kept = append(kept, k, v)
		}
		n.Content = kept
	}
	for _, c := range n.Content {
		dropEmpty(c, keys...)
	}
}
