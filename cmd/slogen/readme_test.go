package main

import (
	"bufio"
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
	lines := readmeCommands(t, filepath.Join(root, "README.md"))
	ran := 0
	for _, line := range lines {
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
// continued lines joined and `go run ./cmd/slogen` read as slogen.
func readmeCommands(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	inSh, cont := false, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = !inSh && line == "```sh"
		case inSh && strings.HasSuffix(line, `\`):
			cont += strings.TrimSuffix(line, `\`)
		case inSh && strings.TrimSpace(cont+line) != "":
			lines = append(lines, strings.ReplaceAll(cont+line, "go run ./cmd/slogen", "slogen"))
			cont = ""
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
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
