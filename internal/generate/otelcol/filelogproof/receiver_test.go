package filelogproof

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/receiver/filelogreceiver"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/receiver/receivertest"
	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "rewrite ../testdata/filelog/records.json")

const dir = "../testdata/filelog"

// TestReceiverRecordsArePodLines runs each receiver of receivers.yaml
// over the pod log files, placed under a /var/log/pods of their own, and
// compares the records it made with records.json: one per line, its body
// the line, its pod and namespace those of the file's path.
func TestReceiverRecordsArePodLines(t *testing.T) {
	root := filepath.Join(t.TempDir(), "var", "log", "pods")
	if err := os.CopyFS(root, os.DirFS(filepath.Join(dir, "pods"))); err != nil {
		t.Fatal(err)
	}
	var got []plog.Logs
	for name, cfg := range receivers(t, root) {
		got = append(got, receive(t, name, cfg)...)
	}
	records := normalised(got, root)
	if n, want := records.LogRecordCount(), linesUnder(t, root); n != want {
		t.Fatalf("the receivers made %d records of %d lines", n, want)
	}
	data, err := new(plog.JSONMarshaler).MarshalLogs(records)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "records.json")
	if *update {
		if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(bytes.TrimSpace(want), data) {
		t.Errorf("%s is not what the receiver makes (%v): go test . -update", path, err)
	}
}

// receivers are the configurations of receivers.yaml by name, reading
// below root for /var/log/pods and from the files' beginning.
func receivers(t *testing.T, root string) map[string]*filelogreceiver.FileLogConfig {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "receivers.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]map[string]any
	if err := yaml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string]*filelogreceiver.FileLogConfig{}
	for name, m := range raw {
		var include []any
		for _, p := range m["include"].([]any) {
			include = append(include, strings.Replace(p.(string), "/var/log/pods", root, 1))
		}
		m["include"] = include
		m["start_at"] = "beginning"
		cfg := filelogreceiver.NewFactory().CreateDefaultConfig().(*filelogreceiver.FileLogConfig)
		if err := confmap.NewFromStringMap(m).Unmarshal(cfg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = cfg
	}
	return out
}

// receive runs one receiver until it has read every line its files hold.
func receive(t *testing.T, name string, cfg *filelogreceiver.FileLogConfig) []plog.Logs {
	t.Helper()
	f := filelogreceiver.NewFactory()
	sink := new(consumertest.LogsSink)
	r, err := f.CreateLogs(context.Background(), receivertest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := r.Start(context.Background(), componenttest.NewNopHost()); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want := 0
	for _, p := range cfg.InputConfig.Include {
		files, _ := filepath.Glob(p)
		for _, f := range files {
			want += linesIn(t, f)
		}
	}
	for deadline := time.Now().Add(20 * time.Second); sink.LogRecordCount() < want && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if err := r.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	return sink.AllLogs()
}

// normalised are the records one resource per file, in path order, the
// lines in the file's order, the file's path relative to root and the
// time of reading dropped, so that the file is the same on every run.
func normalised(batches []plog.Logs, root string) plog.Logs {
	byFile := map[string][]plog.ResourceLogs{}
	for _, ld := range batches {
		for _, rl := range ld.ResourceLogs().All() {
			for _, sl := range rl.ScopeLogs().All() {
				for _, lr := range sl.LogRecords().All() {
					one := plog.NewResourceLogs()
					rl.Resource().CopyTo(one.Resource())
					lr.CopyTo(one.ScopeLogs().AppendEmpty().LogRecords().AppendEmpty())
					p, _ := lr.Attributes().Get("log.file.path")
					byFile[p.Str()] = append(byFile[p.Str()], one)
				}
			}
		}
	}
	out := plog.NewLogs()
	for _, path := range slices.Sorted(maps.Keys(byFile)) {
		rl := out.ResourceLogs().AppendEmpty()
		byFile[path][0].Resource().CopyTo(rl.Resource())
		sortAttributes(rl.Resource().Attributes())
		recs := rl.ScopeLogs().AppendEmpty().LogRecords()
		lines := byFile[path]
		slices.SortStableFunc(lines, func(a, b plog.ResourceLogs) int {
			return cmp.Compare(first(a).Timestamp(), first(b).Timestamp())
		})
		for _, one := range lines {
			lr := recs.AppendEmpty()
			first(one).CopyTo(lr)
			lr.SetObservedTimestamp(0)
			rel, _ := filepath.Rel(root, path)
			lr.Attributes().PutStr("log.file.path", filepath.ToSlash(filepath.Join("/var/log/pods", rel)))
			sortAttributes(lr.Attributes())
		}
	}
	return out
}
