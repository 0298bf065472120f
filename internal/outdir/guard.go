// Package outdir writes slogen's output directory, and never loses a file
// slogen did not write. slogen owns a directory only when it is missing,
// empty, or holds nothing but the files its manifest lists; anything else
// is refused before a byte is written. Some directories are refused even
// with Options.Force: one holding a spec being read, a git repository, the
// root, the home directory, or the working directory (or one above them).
package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Options says what the caller knows and allows.
type Options struct {
	// Force replaces a directory that holds files slogen did not write.
	Force bool
	// Inputs are the spec files being read; none may lie inside the
	// directory, force or not.
	Inputs []string
}

// RefusedError says why slogen will not replace a directory.
type RefusedError struct {
	Dir    string // as the user named it
	Reason string
	// Forcible is true when --force would override the refusal.
	Forcible bool
}

func (e *RefusedError) Error() string {
	fix := "choose another --out; --force does not override this"
	if e.Forcible {
		fix = "move it away, choose another --out, or pass --force to replace the directory and everything in it"
	}
	return fmt.Sprintf("refusing to replace %s: %s; %s", e.Dir, e.Reason, fix)
}

// guard returns a *RefusedError when building into dir could delete or
// overwrite something slogen did not write, and otherwise dir's real path
// (absolute, symbolic links resolved). It reads, and never writes.
func guard(dir string, opt Options) (string, error) {
	abs, err := resolveUnforcible(dir, opt)
	if err != nil {
		return "", err
	}
	info, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return abs, nil
	case err != nil:
		return "", err
	case !info.IsDir():
		return "", &RefusedError{Dir: dir, Reason: "it is a file, not a directory"}
	}
	return abs, refuseForeign(dir, abs, opt.Force)
}

// resolveUnforcible is dir's real path, after the refusals no Force
// overrides: a protected directory, or one holding a spec being read.
// Build (guard) and --check (compared) both start from it.
func resolveUnforcible(dir string, opt Options) (string, error) {
	abs, err := resolve(dir)
	if err != nil {
		return "", err
	}
	if err := refuseProtected(dir, abs); err != nil {
		return "", err
	}
	return abs, refuseInputsInside(dir, abs, opt.Inputs)
}

// refuseProtected refuses the root, the home directory and the working
// directory, and any directory holding one of them: replacing it would
// take the user's own files with it.
func refuseProtected(dir, abs string) error {
	if abs == filepath.Dir(abs) {
		return &RefusedError{Dir: dir, Reason: "it is the root of the file system"}
	}
	protect := func(what, p string, err error) error {
		if err != nil || p == "" {
			return nil // nothing to protect where it cannot be named
		}
		real, err := resolve(p)
		if err != nil || !inside(real, abs) {
			return nil
		}
		if real == abs {
			return &RefusedError{Dir: dir, Reason: "it is " + what}
		}
		return &RefusedError{Dir: dir, Reason: "it holds " + what + " (" + real + ")"}
	}
	home, herr := os.UserHomeDir()
	cwd, cerr := os.Getwd()
	return errors.Join(protect("your home directory", home, herr), protect("the working directory", cwd, cerr))
}

// refuseInputsInside refuses a directory holding a spec being read: the
// build would replace the spec with its own output.
func refuseInputsInside(dir, abs string, inputs []string) error {
	for _, in := range inputs {
		real, err := resolve(in)
		if err == nil && inside(real, abs) {
			return &RefusedError{Dir: dir, Reason: fmt.Sprintf("the spec %s lies inside it and would be deleted", in)}
		}
	}
	return nil
}

// refuseForeign walks dir: a git repository anywhere in it is refused
// outright, and without force so is the first file (in lexical order)
// that slogen did not write.
func refuseForeign(dir, abs string, force bool) error {
	owned, err := readOwnership(abs)
	if err != nil {
		return err
	}
	var foreign string
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(abs, p)
		if d.Name() == ".git" {
			return &RefusedError{Dir: dir, Reason: fmt.Sprintf("it holds a git repository (%s)", filepath.Join(dir, rel))}
		}
		if foreign != "" {
			return nil
		}
		if d.IsDir() {
			// slogen writes no empty directory: one is the user's.
			if p != abs && emptyDir(p) {
				foreign = filepath.Join(dir, rel) + string(filepath.Separator)
			}
			return nil
		}
		if !owned.generated(filepath.ToSlash(rel), p, d) {
			foreign = filepath.Join(dir, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if foreign != "" && !force {
		return &RefusedError{Dir: dir, Reason: fmt.Sprintf("it holds %s, which slogen did not generate", foreign), Forcible: true}
	}
	return nil
}

// resolve makes p absolute and resolves the symbolic links in the part of
// it that exists, so that two names of one directory compare equal.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		return real, nil
	}
	parent := filepath.Dir(abs)
	if !errors.Is(err, fs.ErrNotExist) || parent == abs {
		return abs, nil
	}
	rp, err := resolve(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(rp, filepath.Base(abs)), nil
}

// inside reports whether p is dir or lies below it.
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

func emptyDir(p string) bool {
	entries, err := os.ReadDir(p)
	return err == nil && len(entries) == 0
}
