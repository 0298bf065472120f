package gpualerts

import (
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
)

// The engine's health: requests evicted for lack of KV cache, and
// requests waiting long before they are scheduled, for the service as a
// whole over EngineWindow; and a replica whose scheduler has stopped.

// EngineWindow is the window the engine alerts read their rates over.
const EngineWindow = 5 * time.Minute

// engineFor is how long the engine alerts' conditions must hold.
const engineFor = 5 * time.Minute

func preemptions(svc model.Service) (alertDef, *Skip) {
	m := svc.Metrics.Preemptions
	if !strings.HasSuffix(m.Name, "_total") {
		why := fmt.Sprintf("runtime %s counts no preemptions", svc.Runtime)
		switch {
		case svc.Runtime == profile.CustomRuntime && !m.IsZero():
			why = fmt.Sprintf("metrics.preemptions names %s, which is not a counter (its name ends in _total)", m.Name)
		case svc.Runtime == profile.CustomRuntime:
			why += "; name the counter in metrics.preemptions"
		case !m.IsZero():
			why = fmt.Sprintf("runtime %s exports %s, a gauge of the requests preempted now, not a counter of preemptions", svc.Runtime, m.Name)
		}
		return alertDef{}, &Skip{Preemptions, why}
	}
	n := num(svc.Thresholds.PreemptionsPerMinute)
	return alertDef{
		expr:        pql.Gt(PreemptionsPerMinute(svc), pql.Num(svc.Thresholds.PreemptionsPerMinute)),
		summary:     fmt.Sprintf("more than %s preemptions a minute", n),
		title:       text("%s preemptions a minute (over %s)", valueNumber, n),
		description: text("%s has preempted more than %s requests a minute for %s, %s a minute now: the KV cache is too small for the batch it runs, and preempted requests are computed again. Lower max_num_seqs, give the cache more memory, or scale out.", svc.Name, n, genfile.Duration(engineFor), valueNumber),
	}, nil
}

// PreemptionsPerMinute is what InferencePreemptions compares with its
// limit: the service's preemptions a minute over EngineWindow, its series
// narrowed by the matchers given (a dashboard's picked replicas), so that
// a panel drawing it draws what the alert reads.
func PreemptionsPerMinute(svc model.Service, narrow ...*labels.Matcher) pql.Expr {
	sel := runtimeSelector(svc, svc.Metrics.Preemptions)
	sel.LabelMatchers = append(sel.LabelMatchers, narrow...)
	return pql.Mul(pql.Sum(pql.Rate(sel, EngineWindow)), pql.Num(60))
}

func queueTimeHigh(svc model.Service) (alertDef, *Skip) {
	h := svc.Metrics.Queue
	if h.Name == "" {
		why := fmt.Sprintf("runtime %s exports no queue-time histogram", svc.Runtime)
		if svc.Runtime == profile.CustomRuntime {
			why += "; name it in metrics.queue"
		}
		return alertDef{}, &Skip{QueueTimeHigh, why}
	}
	s := num(svc.Thresholds.QueueSeconds)
	return alertDef{
		expr:        pql.Gt(meanOf(svc, h, EngineWindow, 0), pql.Num(svc.Thresholds.QueueSeconds)),
		summary:     fmt.Sprintf("requests wait over %ss before they are scheduled", s),
		title:       text("requests wait %ss on average before they are scheduled (over %ss)", valueNumber, s),
		description: text("Requests to %s have waited more than %s seconds on average before being scheduled, for %s, %ss now: the engine is at capacity. Scale out, or shed load.", svc.Name, s, genfile.Duration(engineFor), valueNumber),
	}, nil
}

// engineStalled: a replica with requests queued that runs none has a
// scheduler that has stopped (a hung engine loop, a dead worker, a
// collective that never returns), while its HTTP server and health check
// may still answer. Busy, a replica runs requests; idle, its queue is
// empty: neither fires. Its value is the queue.
func engineStalled(svc model.Service) (alertDef, *Skip) {
	waiting, running := svc.Metrics.Waiting, svc.Metrics.Running
	if waiting.IsZero() || running.IsZero() {
		why := fmt.Sprintf("runtime %s exports no gauge of the requests it runs", svc.Runtime)
		if waiting.IsZero() {
			why = fmt.Sprintf("runtime %s exports no queue length", svc.Runtime)
		}
		if svc.Runtime == profile.CustomRuntime {
			why += "; name its gauges in metrics.waiting and metrics.running"
		}
		return alertDef{}, &Skip{EngineStalled, why}
	}
	perReplica := func(m model.Selector) pql.Expr { return pql.Max(runtimeSelector(svc, m), pql.By(replicaIdentity...)) }
	return alertDef{
		keeps: replicaIdentity, from: waiting.String(),
		expr:        pql.And(pql.Gt(perReplica(waiting), pql.Num(0)), pql.EqOp(perReplica(running), pql.Num(0))),
		summary:     "requests queued on a replica that runs none",
		title:       text("%s requests queued on %s, none running", valueNumber, replicaName(svc)),
		description: text("On %s of %s, requests have waited while the engine ran none for %s, %s queued now: its scheduler has stopped, though its server may still answer health checks. Save its logs and restart it.", replicaName(svc), svc.Name, genfile.Duration(engineFor), valueNumber),
	}, nil
}
