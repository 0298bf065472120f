package discover

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Update returns a spec file's content with the service's gpu block
// replaced by b, or added; the rest of the file is unchanged.
func Update(name string, src []byte, service string, b Block) ([]byte, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".cue":
		return updateCUE(name, src, service, b)
	case ".yaml", ".yml":
		return updateYAML(name, src, service, b)
	}
	return nil, fmt.Errorf("%s: --write updates .cue, .yaml and .yml specs; for JSON, print the block with --format json and paste it", name)
}
