package ruletemplate

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/genfile"
)

// File is the record at the top of a fleet's output.
const File = "rule-templates.yaml"

// Record is which services are instances of which template.
type Record struct {
	Templates []Template `yaml:"templates"`
	// Services are the identity of every instance, by name: once, though
	// a service is an instance of a template of each kind of rule file.
	Services map[string]Identity `yaml:"services"`
}

// Template is one rule template and its instances.
type Template struct {
	// Tested is the service whose tests the output holds: the template's
	// first in the spec.
	Tested string `yaml:"tested"`
	// RuleFiles are the rule files, in each service's directory, that
	// are the template's instances.
	RuleFiles []string `yaml:"rule_files"`
	// Tests are the test files in Tested's directory.
	Tests []string `yaml:"tests"`
	// Services are the instances, Tested first, by name.
	Services []string `yaml:"services"`
}

// Marshal writes the record.
func Marshal(r Record) ([]byte, error) { return genfile.MarshalYAML(r) }

// Parse reads a record, refusing fields it does not know.
func Parse(data []byte) (Record, error) {
	var r Record
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&r); err != nil {
		return Record{}, fmt.Errorf("%s: %w", File, err)
	}
	return r, nil
}

// Key is what the named service's rule files, by file name, have in
// common with every other instance of their template: a digest of their
// names and text with the identity set aside. Services of one key are
// instances of one template; Verify proves it from the parsed files.
func Key(name string, id Identity, files map[string][]byte) [sha256.Size]byte {
	values := id.values(name)
	buf := keyBuffers.Get().(*[]byte)
	defer keyBuffers.Put(buf)
	b := (*buf)[:0]
	for _, n := range slices.Sorted(maps.Keys(files)) {
		b = append(b, n...)
		b = append(appendAside(append(b, '\n'), string(files[n]), values), 0)
	}
	*buf = b
	return sha256.Sum256(b)
}

// keyBuffers hold what Key digests, a service's rule files at a time:
// some 50 KB each, for a thousand services.
var keyBuffers = sync.Pool{New: func() any { return new([]byte) }}
