package outdir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileKeepsPermissions(t *testing.T) {
	p := filepath.Join(t.TempDir(), "spec.cue")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" || info.Mode().Perm() != 0o640 {
		t.Errorf("content %q, mode %v", b, info.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("left %d files behind", len(entries))
	}
}

// A new file is written whole, with mode 0644, and nothing else is left.
func TestWriteFileCreates(t *testing.T) {
	p := filepath.Join(t.TempDir(), "plot.svg")
	if err := WriteFile(p, []byte("<svg/>")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "<svg/>" || info.Mode().Perm() != 0o644 {
		t.Errorf("content %q, mode %v", b, info.Mode().Perm())
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Errorf("left %d files behind", len(entries))
	}
}
