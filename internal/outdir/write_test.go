package outdir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A failed write is what Stream reports, not what the generator made of
// it, and later writes fail at once; the output directory is not created.
func TestStreamReportsTheFirstFailedWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	calls := 0
	_, err := Stream(dir, Options{}, func(emit func(string, []byte) error) error {
		var errs []error
		for _, name := range []string{"a/ok.yaml", "../escape.yaml", "b/later.yaml"} {
			calls++
			errs = append(errs, emit(name, []byte("x")))
		}
		return errors.Join(errors.New("generator's own summary"), errors.Join(errs...))
	})
	if err == nil || !strings.Contains(err.Error(), `refusing to write "../escape.yaml"`) || strings.Contains(err.Error(), "summary") {
		t.Fatalf("Stream error = %v, want only the failed write", err)
	}
	if calls != 3 {
		t.Fatalf("generator called emit %d times", calls)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s exists after a failed write (%v)", dir, err)
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".slogen-new-*"))
	if len(matches) > 0 {
		t.Errorf("temporary directories left behind: %v", matches)
	}
}

// removeTree removes files at every depth, and a directory already gone
// is no error.
func TestRemoveTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "old")
	for _, name := range []string{"top.yaml", "a/one.yaml", "a/b/two.yaml", "c/three.yaml", "d/"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(name, "/") {
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := removeTree(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", dir, err)
	}
	if err := removeTree(dir); err != nil {
		t.Errorf("removing it again: %v", err)
	}
}

// removeTree given a symbolic link to a directory removes the link, not
// what the directory holds.
func TestRemoveTreeKeepsWhatALinkPointsTo(t *testing.T) {
	tmp := t.TempDir()
	target, link := filepath.Join(tmp, "target"), filepath.Join(tmp, "link")
	kept := filepath.Join(target, "users.yaml")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kept, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := removeTree(link); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(link); !os.IsNotExist(err) {
		t.Errorf("the link is still there (%v)", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("what the link points to was removed: %v", err)
	}
}
