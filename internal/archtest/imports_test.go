package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The packages the rules name, relative to the module root.
const (
	generateDir = "internal/generate"
	modelDir    = "internal/model"
	pqlDir      = "internal/pql"
)

// edge is one import: the file that imports, and the package it imports,
// both relative to the module root.
type edge struct{ file, imports string }

// TestImportRules checks, in production and test code: no output package
// under internal/generate imports another; nothing else under internal/
// imports internal/generate; internal/model and internal/pql import no
// package of this module.
func TestImportRules(t *testing.T) {
	root, module := moduleRoot(t)
	edges := moduleImports(t, root, module)
	outputs := outputPackages(t, root)
	if len(outputs) < 7 {
		t.Fatalf("found %d output packages under %s: %v; the layout moved", len(outputs), generateDir, outputs)
	}
	for _, e := range edges {
		if msg := broken(e, outputs); msg != "" {
			t.Errorf("%s imports %s: %s", e.file, e.imports, msg)
		}
	}
}

// broken says which rule an import breaks, and how to mend it, or "".
func broken(e edge, outputs []string) string {
	from := path.Dir(e.file)
	switch {
	case under(from, modelDir):
		return "the model imports no slogen package: it is the validated spec, and what is derived from it belongs in internal/plan"
	case under(from, pqlDir):
		return "the PromQL helpers import no slogen package"
	case output(from, outputs) != "" && output(e.imports, outputs) != "" && output(from, outputs) != output(e.imports, outputs):
		return "an output imports no other output; compute what both read once, in internal/plan"
	case under(from, "internal") && !under(from, generateDir) && under(e.imports, generateDir):
		return "only cmd/slogen and examples run the outputs; read internal/plan instead"
	}
	return ""
}

// under reports whether dir is pkg or below it.
func under(dir, pkg string) bool { return dir == pkg || strings.HasPrefix(dir, pkg+"/") }

// output is the output package dir belongs to, or "".
func output(dir string, outputs []string) string {
	for _, o := range outputs {
		if under(dir, o) {
			return o
		}
	}
	return ""
}

// outputPackages are the directories directly under internal/generate.
func outputPackages(t *testing.T, root string) []string {
	entries, err := os.ReadDir(filepath.Join(root, generateDir))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			dirs = append(dirs, generateDir+"/"+e.Name())
		}
	}
	return dirs
}

// moduleImports lists every import of a package of the module by a Go file
// of the module, whatever its build tags.
func moduleImports(t *testing.T, root, module string) []edge {
	var edges []edge
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if pkg, ok := strings.CutPrefix(ip, module+"/"); ok {
				edges = append(edges, edge{filepath.ToSlash(rel), pkg})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(edges, func(e edge) bool { return under(e.imports, modelDir) }) {
		t.Fatal("no file imports internal/model; the walk found no code")
	}
	return edges
}

// moduleRoot is the directory of go.mod, two levels up, and the module's path.
func moduleRoot(t *testing.T) (root, module string) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutPrefix(line, "module "); ok {
			return root, strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod names no module")
	return "", ""
}
