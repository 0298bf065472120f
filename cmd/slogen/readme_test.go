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

// notRun are the README's command lines this test leaves to others, by
// their first word (after any VAR=value), each with why.
var notRun = map[string]string{
	"go":         "the Go toolchain itself: .ci/run builds and tests",
	"docker":     "needs a Docker engine",
	"kubectl":    "needs a Kubernetes cluster; generate's tests decode the objects into Kubernetes' own types",
	"for":        "writes Grafana's provisioning directory; the dashboard tests load the files",
	"jq":         "needs a Grafana server; the dashboard tests check what it would receive",
	"prometheus": "starts a server that runs until stopped",
	"budget":     "needs a Prometheus at the address it names; budget's own tests run it against Prometheus 2.42",
	"discover":   "needs NVIDIA's driver; discover's tests read go-nvml's mock servers",
}

// TestReadmeCommandsRun runs every command line of the README's sh blocks
// as written, in order, in one directory that holds what a clone of the
// repository has (examples/, templates/), and what the README calls your
// own: specs/chat.cue (the vLLM example) and deploy/slo, built from it
// and committed, as a CI job that checks it would find it. `go run
// ./cmd/slogen` is the slogen under test. A line that fails fails the test.
func TestReadmeCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README command")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := readmeWorkDir(t, root)
	ran := 0
	for _, line := range readmeCommands(t, filepath.Join(root, "README.md")) {
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
			t.Errorf("README command failed: %s\n%v\n%s", line, err, out)
		}
		t.Logf("%.1fs %s", time.Since(start).Seconds(), line)
		ran++
	}
	if ran < 10 {
		t.Errorf("ran %d README commands; the README's sh blocks were not found", ran)
	}
}

// readmeWorkDir is a directory with the repository's examples and
// templates, the user's spec and its committed output.
func readmeWorkDir(t *testing.T, root string) string {
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

// readmeCommands are the command lines of the README's sh blocks, with
// continued lines joined and `go run ./cmd/slogen` read as slogen. A block
// indented under a list item counts too; one whose first line is not run
// (a shell loop, a pipe into a server) is one command, so that its lines
// are never run apart.
func readmeCommands(t *testing.T, path string) []string {
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
