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

// server is a process a test started that serves HTTP on 127.0.0.1 only,
// until the test ends.
type server struct {
	name   string
	URL    string
	logs   string
	exited chan error
}

// startServer runs bin with the flags args gives for a free address,
// logging to dir/<name>.log, until /-/ready answers. The port is found
// free and then bound by the server, so another process can take it in
// between; a start that loses that race is retried.
func startServer(t testing.TB, name, bin, dir string, args func(addr string) []string) *server {
	t.Helper()
	for attempt := 1; ; attempt++ {
		s, err := launch(t, name, bin, dir, args)
		if err == nil {
			return s
		}
		if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatalf("starting %s: %v", name, err)
		}
	}
}

func launch(t testing.TB, name, bin, dir string, args func(addr string) []string) (*server, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	s := &server{name: name, URL: "http://" + addr, logs: filepath.Join(dir, name+".log"), exited: make(chan error, 1)}
	logs, err := os.Create(s.logs)
	if err != nil {
		return nil, err
	}
	defer logs.Close()
	cmd := exec.Command(bin, args(addr)...)
	cmd.Stdout, cmd.Stderr = logs, logs
	// Its own process group, so that stopping it stops anything it forks.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithTest(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.exited <- cmd.Wait() }()
	t.Cleanup(func() { s.stop(t, cmd.Process.Pid) })
	if err := s.waitReady(20 * time.Second); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, s.Log())
	}
	return s, nil
}

// stop ends the process group: SIGTERM, then SIGKILL if it lingers.
func (s *server) stop(t testing.TB, pid int) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		t.Logf("%s ignored SIGTERM; killing it", s.name)
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-s.exited
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

func (s *server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.exited:
			s.exited <- err
			return fmt.Errorf("%s exited: %v", s.name, err)
		default:
		}
		if resp, err := http.Get(s.URL + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New(s.name + " not ready in time")
}

// Log is what the server has logged, for a failing test to show.
func (s *server) Log() string {
	b, _ := os.ReadFile(s.logs)
	return string(b)
}
