package scrape

import (
	"bytes"
	"fmt"

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

// MarshalMonitors writes monitors as a multi-document YAML file.
func MarshalMonitors(ms []Monitor) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(genfile.Header)
	for i, m := range ms {
		if i > 0 {
			b.WriteString("---\n")
		}
		if err := encode(&b, m); err != nil {
			return nil, fmt.Errorf("encoding monitor %s: %w", m.Metadata.Name, err)
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
