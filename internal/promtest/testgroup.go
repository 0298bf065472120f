package promtest

import (
	"context"
	"time"

	"github.com/prometheus/prometheus/model/timestamp"
)

// fileEnv is what every test group of one test file shares.
type fileEnv struct {
	rules        []ruleFile
	order        map[string]int // group_eval_order positions
	evalInterval time.Duration
	fuzzy        bool
}

// run runs one test group the way promtool's testGroup.test does and
// returns its failures.
func (tg *testGroup) run(ctx context.Context, env fileEnv) []error {
	mint := time.Unix(0, 0).UTC()
	if !tg.StartTimestamp.IsZero() {
		mint = tg.StartTimestamp.Time
	}
	inputs, err := newInputLoader(tg.InputSeries, mint, time.Duration(tg.Interval))
	if err != nil {
		return []error{err}
	}
	groups, err := newGroups(env.rules, env.order, alertContext{
		externalLabels: tg.ExternalLabels.Map(),
		externalURL:    tg.ExternalURL,
	})
	if err != nil {
		return []error{err}
	}
	checks, err := newAlertChecks(tg)
	if err != nil {
		return []error{err}
	}

	engine := newEngine(env.evalInterval, promtoolMaxSamples, promtoolTimeout)
	defer engine.Close()
	st := newMemStorage()
	query := engineQuery(engine, st)

	errs, ok := tg.evaluate(ctx, evalState{mint, env.evalInterval, inputs, groups, checks, st, query})
	if !ok {
		return errs
	}
	for _, tc := range tg.PromqlExprTests {
		if err := checkExpr(ctx, tc, mint, query, env.fuzzy); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

type evalState struct {
	mint   time.Time
	every  time.Duration
	inputs *inputLoader
	groups []*group
	checks *alertChecks
	st     *memStorage
	query  queryFunc
}

// evaluate steps the clock from mint to the last eval_time, loading input
// samples up to each step, evaluating all groups and then checking the
// alerts due. Like promtool it stops at the first step where a rule fails
// (ok is false) since later verdicts would be meaningless.
func (tg *testGroup) evaluate(ctx context.Context, s evalState) (errs []error, ok bool) {
	maxt := s.mint.Add(tg.maxEvalTime())
	for ts := s.mint; !ts.After(maxt); ts = ts.Add(s.every) {
		if err := s.inputs.appendTill(s.st, timestamp.FromTime(ts)); err != nil {
			// promtool skips this step's evaluation but carries on.
			errs = append(errs, err)
		} else {
			var evalErrs []error
			for _, g := range s.groups {
				evalErrs = append(evalErrs, g.eval(ctx, ts, s.query, s.st)...)
			}
			if len(evalErrs) > 0 {
				return append(errs, evalErrs...), false
			}
		}
		errs = append(errs, s.checks.run(ts.Sub(s.mint), s.every, s.groups, tg.Name)...)
	}
	return errs, true
}

// maxEvalTime is the latest eval_time of any alert or expression test.
func (tg *testGroup) maxEvalTime() time.Duration {
	var m time.Duration
	for _, tc := range tg.AlertRuleTests {
		m = max(m, time.Duration(tc.EvalTime))
	}
	for _, tc := range tg.PromqlExprTests {
		m = max(m, time.Duration(tc.EvalTime))
	}
	return m
}
