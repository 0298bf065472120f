package overview

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/model"
)

// TestSizeGrowsWithKindsNotServices: a thousand services like the example
// fleet's get the overview its five get, built in well under the fleet's
// budget of a second.
func TestSizeGrowsWithKindsNotServices(t *testing.T) {
	few := exampleFleet(t)
	var many []model.Service
	for i := range 1000 {
		s := few[i%len(few)]
		s.Name = fmt.Sprintf("%s-%04d", s.Name, i)
		many = append(many, s)
	}
	small, err := grafana.Marshal(build(t, few))
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	big, err := grafana.Marshal(build(t, many))
	took := time.Since(began)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d services: %d bytes in %s; %d services: %d bytes", len(few), len(small), took, len(many), len(big))
	if !bytes.Equal(big, small) {
		t.Errorf("1000 services' overview differs from %d services'", len(few))
	}
	if took > 100*time.Millisecond {
		t.Errorf("building 1000 services' overview took %s", took)
	}
}
