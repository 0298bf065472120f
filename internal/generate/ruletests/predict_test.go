package ruletests

import (
	"math/big"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// The slow-burn tests' error ratio opens the tickets and never pages, as
// the burn-rate math predicts it.
func TestSlowBurnNeverPages(t *testing.T) {
	s := model.SLO{Objective: big.NewRat(999, 1000), Period: model.Period{Duration: 30 * 24 * time.Hour}}
	after := slowRatio(s)
	tr := rules.ChangeAt(1000, 60, 0.0001, after)
	for _, tier := range model.Tiers {
		b := rules.Predict(tr, s, tier, model.Alerting{MinEvents: 100}, 3*24*60, 1)
		if tier.IsPage() != b.Never {
			t.Errorf("%s: never=%v at %.4f errors", tier, b.Never, after)
		}
	}
}
