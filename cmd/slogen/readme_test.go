package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// notRun are the command lines of the README and the manual that this
// test leaves to others, by their first word (after any VAR=value), each
// with why.
var notRun = map[string]string{
	"go":         "the Go toolchain itself: .ci/run builds and tests",
	"docker":     "needs a Docker engine",
	"kubectl":    "needs a Kubernetes cluster; generate's tests decode the objects into Kubernetes' own types",
	"for":        "writes Grafana's provisioning directory; the dashboard tests load the files",
	"jq":         "needs a Grafana server; the dashboard tests check what it would receive",
	"prometheus": "starts a server that runs until stopped",
	"budget":     "needs a Prometheus at the address it names; budget's own tests run it against Prometheus 2.42",
	"discover":   "needs NVIDIA's driver; discover's tests read go-nvml's mock servers",
	"init":       "needs a Prometheus at the address it names; init's own tests run it against Prometheus 2.42 with backfilled history",
}

// TestReadmeAndManualCommandsRun runs every command line of the sh blocks
// of README.md and of each page of the manual (docs/*.md) as written, in
// order. Each page starts afresh, as a reader who follows it does, in a
// directory that holds what a clone of the repository has (examples/,
// templates/), and what the pages call your own: specs/chat.cue (the vLLM
// example) and deploy/slo, built from it and committed, as a CI job that
// checks it would find it. `go run ./cmd/slogen` is the slogen under
// test. A line that fails fails the test.
func TestReadmeAndManualCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command of the README and the manual")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, page := range docPages(t, root) {
		commands := shCommands(t, page)
		if len(commands) == 0 {
			continue
		}
		rel, _ := filepath.Rel(root, page)
		t.Run(rel, func(t *testing.T) {
			ran += runCommands(t, rel, commandsWorkDir(t, root), commands)
		})
	}
	if ran < 10 {
		t.Errorf("ran %d commands; the sh blocks of the README and the manual were not found", ran)
	}
}

// runCommands runs a page's command lines in dir, one after the other,
// and says how many it ran.
func runCommands(t *testing.T, page, dir string, commands []string) int {
	ran := 0
	for _, line := range commands {
		if why, skip := notRun[commandWord(line)]; skip {
			t.Logf("not run (%s): %s", why, line)
			continue
		}
		if commandWord(line) == "promtool" {
			testenv.Tool(t, "promtool")
		}
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", line)
		cmd.Dir = dir
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: command failed: %s\n%v\n%s", page, line, err, out)
		}
		t.Logf("%.1fs %s", time.Since(start).Seconds(), line)
		ran++
	}
	return ran
}

// commandsWorkDir is a directory with the repository's examples and
// templates, the user's spec and its committed output.
func commandsWorkDir(t *testing.T, root string) string {
	dir := t.TempDir()
	for _, d := range []string{"examples", "templates"} {
		if err := os.Symlink(filepath.Join(root, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	spec, err := os.ReadFile(filepath.Join(root, "examples", "vllm", "chat-llama.cue"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "specs", "chat.cue"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("slogen", "build", "--out", "deploy/slo", "specs/chat.cue")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building deploy/slo: %v\n%s", err, out)
	}
	return dir
}

// shCommands are the command lines of a markdown page's sh blocks, with
// continued lines joined and `go run ./cmd/slogen` read as slogen. A block
// indented under a list item counts too; one whose first line is not run
// (a shell loop, a pipe into a server) is one command, so that its lines
// are never run apart.
func shCommands(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines, block []string
	inSh, cont := false, ""
	for raw := range strings.SplitSeq(string(data), "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(line, "```"):
			if inSh {
				lines = append(lines, wholeIfNotRun(block)...)
			}
			inSh, block = !inSh && line == "```sh", nil
		case inSh && strings.HasSuffix(line, `\`):
			cont += strings.TrimSuffix(line, `\`) + " "
		case inSh && strings.TrimSpace(cont+line) != "":
			block = append(block, strings.ReplaceAll(cont+line, "go run ./cmd/slogen", "slogen"))
			cont = ""
		}
	}
	return lines
}

// wholeIfNotRun keeps a block's lines apart, or joins them into one when
// its first is not run.
func wholeIfNotRun(block []string) []string {
	if len(block) > 0 && notRun[commandWord(block[0])] != "" {
		return []string{strings.Join(block, "; ")}
	}
	return block
}

// envAssignments are the VAR=value words a command line may start with.
var envAssignments = regexp.MustCompile(`^(\w+=("[^"]*"|'[^']*'|\S*)\s+)*`)

// commandWord is what a line runs: its first word after any VAR=value,
// or slogen's subcommand.
func commandWord(line string) string {
	words := strings.Fields(envAssignments.ReplaceAllString(line, ""))
	switch {
	case len(words) == 0:
		return ""
	case words[0] == "slogen" && len(words) > 1:
		return words[1]
	}
	return words[0]
}
