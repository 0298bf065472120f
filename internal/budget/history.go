package budget

import (
	"context"
	"fmt"
	"io"
	"time"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// HistoryStep is the resolution at which budget measures how much of the
// period the raw series hold: hours with requests, 720 of them in 30d.
const HistoryStep = time.Hour

// partLabel tells the raw-history query's three parts apart in its answer.
const partLabel = "slogen_budget_part"

// history is what one series of an SLO (one group) holds in the raw data
// over the period: its error and request rates over the whole period, and
// how many hours have requests.
type history struct {
	errors, requests, hours float64
}

// covered is how much of the period the raw data holds: its hours with
// requests, as the recordings' coverage counts their samples.
func (h *history) covered() time.Duration { return time.Duration(h.hours) * HistoryStep }

// readHistory reads the SLO's SLI from its raw series over its period,
// ending at ts, with one instant query built from the trees the rules
// record (rules.RawSLI): the error and request rates over the whole
// period, whose ratio is the errors over the requests the server keeps
// (a rate over a range the data fills only in part counts what is
// there), and the hours with requests, from the request rate over each
// hour of the period. The answer is keyed by group.
func readHistory(ctx context.Context, q Querier, slo slomodel.SLO, ts time.Time) (map[string]*history, error) {
	p := slo.Period.Duration
	errs, reqs := rules.RawSLI(slo, p)
	_, hourly := rules.RawSLI(slo, HistoryStep)
	hours := pql.Call("count_over_time", pql.Range(hourly, p, HistoryStep))
	query := pql.Print(pql.Or(pql.Or(labelled(reqs, "requests"), labelled(errs, "errors")), labelled(hours, "hours")))
	vec, err := vector(ctx, q, query, ts)
	if err != nil {
		return nil, err
	}
	out := map[string]*history{}
	for _, s := range vec {
		group := groupOf(s.Metric, partLabel)
		h := out[group]
		if h == nil {
			h = &history{}
			out[group] = h
		}
		switch v := float64(s.Value); s.Metric[partLabel] {
		case "requests":
			h.requests = v
		case "errors":
			h.errors = v
		case "hours":
			h.hours = v
		}
	}
	return out, nil
}

// labelled is e with every series labelled by which part it is.
func labelled(e pql.Expr, part string) pql.Expr {
	return pql.Call("label_replace", e, pql.Str(partLabel), pql.Str(part), pql.Str(""), pql.Str(""))
}

// withHistory reads the SLO's raw history where its recordings cover
// less of the period than an hour short of all of it, and gives each of
// its rows the raw figures where the raw data holds more of the period
// than the recordings do. A failed read leaves the recordings' figures
// and says why on progress.
func withHistory(ctx context.Context, q Querier, svc slomodel.Service, slo slomodel.SLO, rows []SLO, ts time.Time, progress io.Writer) {
	var short []int
	for i, s := range rows {
		if s.recorded() && s.recordedSpan(slo) < slo.Period.Duration-HistoryStep {
			short = append(short, i)
		}
	}
	if len(short) == 0 {
		return
	}
	fmt.Fprintf(progress, "budget: %s/%s: the recordings cover %s of %s; reading its SLI from the raw series\n",
		svc.Name, slo.Name, percent(rows[short[0]].Coverage, 0), slo.Period.Name)
	hs, err := readHistory(ctx, q, slo, ts)
	if err != nil {
		fmt.Fprintf(progress, "budget: %s/%s: could not read the raw series (%v); its figures are the recordings'\n", svc.Name, slo.Name, err)
		return
	}
	for _, i := range short {
		if h := hs[rows[i].Group]; h != nil && h.requests > 0 && h.covered() > rows[i].recordedSpan(slo)+HistoryStep {
			rows[i].useHistory(h, slo)
		}
	}
}

// recorded reports whether the recordings hold the row's budget.
func (s *SLO) recorded() bool { return s.Remaining != nil || s.NoRequests }

// recordedSpan is how much of the period the recordings cover.
func (s *SLO) recordedSpan(slo slomodel.SLO) time.Duration {
	if s.Coverage == nil {
		return 0
	}
	return time.Duration(*s.Coverage * float64(slo.Period.Duration))
}

// useHistory replaces the row's figures with the raw history's, keeping
// the recordings' in Recorded. The budget left counts the errors seen
// against the budget of the whole period at the traffic seen, as the
// budget recording does, over the share of the period the raw data holds.
func (s *SLO) useHistory(h *history, slo slomodel.SLO) {
	budget, _ := slo.ErrorBudget().Float64()
	ratio := h.errors / h.requests
	coverage := min(float64(h.covered())/float64(slo.Period.Duration), 1)
	recorded := s.Figures
	s.Recorded = &recorded
	s.Figures = Figures{SLI: ptr(1 - ratio), Remaining: ptr(1 - ratio*coverage/budget), Coverage: ptr(coverage)}
	s.NoRequests = false
	s.Source = Source{History: true, Span: h.covered()}
}

func ptr(f float64) *float64 { return &f }
