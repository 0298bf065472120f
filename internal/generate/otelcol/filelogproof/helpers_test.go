package filelogproof

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
)

func first(rl plog.ResourceLogs) plog.LogRecord {
	return rl.ScopeLogs().At(0).LogRecords().At(0)
}

// sortAttributes puts the map's keys in order: the receiver sets them in
// an order of its own.
func sortAttributes(m pcommon.Map) {
	sorted := pcommon.NewMap()
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range m.All() {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		v, _ := m.Get(k)
		v.CopyTo(sorted.PutEmpty(k))
	}
	sorted.CopyTo(m)
}

// linesUnder counts the lines of every file below root.
func linesUnder(t *testing.T, root string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n += linesIn(t, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func linesIn(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}
