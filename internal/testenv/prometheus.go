package testenv

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// Prometheus is a Prometheus server started by a test, on 127.0.0.1
// only, until the test ends.
type Prometheus struct{ *server }

// StartPrometheus runs Debian's Prometheus (2.42 in CI) on config, with
// its data in dir/data and any more flags, until the test ends. Without
// a prometheus binary the test skips, or fails when CI is set.
func StartPrometheus(t testing.TB, dir, config string, flags ...string) *Prometheus {
	t.Helper()
	bin := Tool(t, "prometheus")
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return &Prometheus{startServer(t, "prometheus", bin, dir, func(addr string) []string {
		return append([]string{
			"--config.file=" + cfg,
			"--storage.tsdb.path=" + filepath.Join(dir, "data"),
			"--web.listen-address=" + addr,
			"--log.level=warn"}, flags...)
	})}
}

// Reload makes Prometheus read its configuration and rule files again,
// and says why it could not; it needs the flag --web.enable-lifecycle.
func (p *Prometheus) Reload() error {
	resp, err := http.Post(p.URL+"/-/reload", "", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("prometheus reload: %s: %s", resp.Status, body)
	}
	return nil
}
