// Package templates holds the text templates slogen renders outputs
// from that have no Go type: the runbook's head and one section per
// alert. They are embedded in the binary; slogen build --templates DIR
// replaces any of them by name.
package templates

import (
	"embed"
	"io/fs"
)

//go:embed runbooks/*.md.tmpl
var files embed.FS

// Runbooks are the runbook templates (internal/generate/runbooks renders them),
// each file at the root of the file system.
var Runbooks fs.FS = sub(files, "runbooks")

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // dir is a literal that go:embed has already matched
	}
	return s
}
