package generate

import (
	"os"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/spec"
)

func TestZZTime(t *testing.T) {
	data, _ := os.ReadFile("/tmp/dfleet/fleet-1000.cue")
	t0 := time.Now()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	n := 0
	err = Options{}.Stream(res.Spec, func(p string, d []byte) error { n += len(d); return nil })
	t2 := time.Now()
	t.Logf("load %v, stream %v, %d bytes, err %v", t1.Sub(t0), t2.Sub(t1), n, err)
}
