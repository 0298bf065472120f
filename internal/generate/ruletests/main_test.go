package ruletests_test

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestMain runs the rule tests at slogen test's garbage-collector pace.
func TestMain(m *testing.M) { testenv.Main(m) }
