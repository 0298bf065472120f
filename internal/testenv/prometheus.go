package testenv

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// prometheusBinary finds Debian's prometheus. CI installs it, so there a
// missing binary fails the test instead of skipping it.
func prometheusBinary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("prometheus is not on PATH; CI must install it (apt-get install prometheus)")
		}
		t.Skip("prometheus is not on PATH")
	}
	return bin
}

// Prometheus is a Prometheus server started by a test, on 127.0.0.1
// only, until the test ends.
type Prometheus struct {
	URL    string
	logs   string
	exited chan error
}

// StartPrometheus runs Debian's Prometheus (2.42 in CI) on config, with
// its data in dir/data and any more flags, until the test ends. The port is found free and
// then bound by Prometheus, so another process can take it in between; a
// start that loses that race is retried. Without a prometheus binary the
// test skips, or fails when CI is set.
func StartPrometheus(t testing.TB, dir, config string, flags ...string) *Prometheus {
	t.Helper()
	bin := prometheusBinary(t)
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for attempt := 1; ; attempt++ {
		p, err := launch(t, bin, dir, cfg, flags)
		if err == nil {
			return p
		}
		if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatalf("starting prometheus: %v", err)
		}
	}
}

func launch(t testing.TB, bin, dir, cfg string, flags []string) (*Prometheus, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	p := &Prometheus{URL: "http://" + addr, logs: filepath.Join(dir, "prometheus.log"), exited: make(chan error, 1)}
	logs, err := os.Create(p.logs)
	if err != nil {
		return nil, err
	}
	defer logs.Close()
	cmd := exec.Command(bin, append([]string{
		"--config.file=" + cfg,
		"--storage.tsdb.path=" + filepath.Join(dir, "data"),
		"--web.listen-address=" + addr,
		"--log.level=warn"}, flags...)...)
	cmd.Stdout, cmd.Stderr = logs, logs
	// Its own process group, so that stopping it stops anything it forks.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() { stopGroup(t, cmd.Process.Pid, p.exited) })
	if err := p.waitReady(20 * time.Second); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, p.Log())
	}
	return p, nil
}

// stopGroup ends the process group: SIGTERM, then SIGKILL if it lingers.
func stopGroup(t testing.TB, pid int, exited chan error) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Logf("prometheus ignored SIGTERM; killing it")
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (p *Prometheus) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.exited:
			p.exited <- err
			return fmt.Errorf("prometheus exited: %v", err)
		default:
		}
		if resp, err := http.Get(p.URL + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("prometheus not ready in time")
}

// Log is what Prometheus has logged, for a failing test to show.
func (p *Prometheus) Log() string {
	b, _ := os.ReadFile(p.logs)
	return string(b)
}
