package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets scripts run slogen in-process, the way cue tests its CLI.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"slogen": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testdata/script/*.txtar. SLOGEN_UPDATE=1 rewrites the
// files that scripts compare with cmp.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("SLOGEN_UPDATE") != "",
		RequireExplicitExec: true,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits":    exits,
			"snapshot": snapshot,
		},
	})
}

// exits runs slogen and asserts its exit code: `exits 2 build bad.cue`.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE slogen-args...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	var ee *exec.ExitError
	if err := ts.Exec("slogen", args[1:]...); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else {
		ts.Check(err)
	}
	if got != want {
		ts.Fatalf("slogen exited %d, want %d", got, want)
	}
}

// snapshots are the files snapshot wrote, which later snapshots leave out.
var snapshots sync.Map

// snapshot records every entry under a directory (path, type, mode, and
// the SHA-256 of a file's bytes or a link's target) in a file, so that
// `cmp` of two snapshots proves not a byte changed: `snapshot proj before`.
func snapshot(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: snapshot DIR FILE")
	}
	root, file := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	snapshots.Store(file, true)
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if _, own := snapshots.Load(p); err != nil || own {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		var content []byte
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			content = []byte(target)
			ts.Check(err)
		case d.Type().IsRegular():
			content, err = os.ReadFile(p)
			ts.Check(err)
		}
		fmt.Fprintf(&b, "%s %s %x\n", filepath.ToSlash(rel), info.Mode(), sha256.Sum256(content))
		return nil
	})
	ts.Check(err)
	ts.Check(os.WriteFile(file, []byte(b.String()), 0o644))
}
