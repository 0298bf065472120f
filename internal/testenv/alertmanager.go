package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Alertmanager is an Alertmanager started by a test, on 127.0.0.1 only
// and without clustering, until the test ends.
type Alertmanager struct{ *server }

// StartAlertmanager runs Debian's prometheus-alertmanager (0.25 in CI) on
// config, with its data in dir, until the test ends. Clustering is off,
// so that Alertmanagers of tests running in parallel neither share a
// port nor gossip each other's notifications. Without the binary the
// test skips, or fails when CI is set.
func StartAlertmanager(t testing.TB, dir, config string) *Alertmanager {
	t.Helper()
	bin := Tool(t, "prometheus-alertmanager")
	cfg := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return &Alertmanager{startServer(t, "alertmanager", bin, dir, func(addr string) []string {
		return []string{
			"--config.file=" + cfg,
			"--storage.path=" + filepath.Join(dir, "alertmanager-data"),
			"--web.listen-address=" + addr,
			"--cluster.listen-address=",
			"--log.level=warn"}
	})}
}
