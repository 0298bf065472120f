package discover

import (
	"fmt"
	"os"
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

// WriteFile replaces path with data through a temporary file in the same
// directory, keeping its permissions, so a failure leaves it as it was.
func WriteFile(path string, data []byte) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
