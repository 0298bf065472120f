package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
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
func prometheusBinary(t *testing.T) string {
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

// promServer is a Prometheus started by a test, on 127.0.0.1 only.
type promServer struct {
	url    string
	logs   string
	exited chan error
}

// startPrometheus runs Prometheus on config in dir until the test ends.
// The port is found free and then bound by Prometheus, so another process
// can take it in between; a start that loses that race is retried.
func startPrometheus(t *testing.T, bin, dir, config string) *promServer {
	t.Helper()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for attempt := 1; ; attempt++ {
		p, err := launch(t, bin, dir, cfg)
		if err == nil {
			return p
		}
		if attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			t.Fatalf("starting prometheus: %v", err)
		}
	}
}

func launch(t *testing.T, bin, dir, cfg string) (*promServer, error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	p := &promServer{url: "http://" + addr, logs: filepath.Join(dir, "prometheus.log"), exited: make(chan error, 1)}
	logs, err := os.Create(p.logs)
	if err != nil {
		return nil, err
	}
	defer logs.Close()
	cmd := exec.Command(bin,
		"--config.file="+cfg,
		"--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr,
		"--log.level=warn")
	cmd.Stdout, cmd.Stderr = logs, logs
	// Its own process group, so that stopping it stops anything it forks.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() { stopGroup(t, cmd.Process.Pid, p.exited) })
	if err := p.waitReady(20 * time.Second); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, p.log())
	}
	return p, nil
}

// stopGroup ends the process group: SIGTERM, then SIGKILL if it lingers.
func stopGroup(t *testing.T, pid int, exited chan error) {
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Logf("prometheus ignored SIGTERM; killing it")
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func (p *promServer) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-p.exited:
			p.exited <- err
			return fmt.Errorf("prometheus exited: %v", err)
		default:
		}
		if resp, err := http.Get(p.url + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("prometheus not ready in time")
}

func (p *promServer) log() string {
	b, _ := os.ReadFile(p.logs)
	return string(b)
}

// sample is one series of an instant vector.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// query runs an instant query and returns its series that have a number
// (NaN is no data). Scalars come back as one series without labels.
func (p *promServer) query(q string) ([]sample, error) {
	resp, err := http.Get(p.url + "/api/v1/query?" + url.Values{"query": {q}}.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct {
		Status, Error string
		Data          struct {
			ResultType string          `json:"resultType"`
			Result     json.RawMessage `json:"result"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("decoding the answer to %s: %w", q, err)
	}
	if body.Status != "success" {
		return nil, fmt.Errorf("query %s: %s", q, body.Error)
	}
	var all []sample
	switch body.Data.ResultType {
	case "vector":
		err = json.Unmarshal(body.Data.Result, &all)
	case "scalar":
		all = []sample{{}}
		err = json.Unmarshal(body.Data.Result, &all[0].Value)
	default:
		err = fmt.Errorf("query %s: unexpected %s result", q, body.Data.ResultType)
	}
	var out []sample
	for _, s := range all {
		if v, ok := s.Value[1].(string); ok && !math.IsNaN(parseFloat(v)) {
			out = append(out, s)
		}
	}
	return out, err
}

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
