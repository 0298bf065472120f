package scrape

import (
	"fmt"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/yamlenc"
)

// MarshalConfig writes a scrape config file with slogen's header.
func MarshalConfig(c Config) ([]byte, error) { return marshalConfig(c, "") }

// marshalConfig writes the header, a note of comment lines, and the config.
func marshalConfig(c Config, note string) ([]byte, error) {
	return yamlenc.AppendYAMLv3([]byte(genfile.Header+note), c)
}

// MarshalMonitors writes monitors as a multi-document YAML file.
func MarshalMonitors(ms []Monitor) ([]byte, error) {
	b := []byte(genfile.Header)
	for i, m := range ms {
		if i > 0 {
			b = append(b, "---\n"...)
		}
		var err error
		if b, err = yamlenc.AppendYAMLv3(b, m); err != nil {
			return nil, fmt.Errorf("encoding monitor %s: %w", m.Metadata.Name, err)
		}
	}
	return b, nil
}
