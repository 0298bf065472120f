package otelcol

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// tailSampling is the tail_sampling processor's configuration.
type tailSampling struct {
	DecisionWait string `yaml:"decision_wait"`
	// NumTraces is how many traces the processor holds while it waits;
	// past it, the oldest are decided early, before their spans are in.
	NumTraces         int      `yaml:"num_traces"`
	ExpectedNewTraces int      `yaml:"expected_new_traces_per_sec"`
	Policies          []policy `yaml:"policies"`
}

// policy is one vote: any policy that votes to sample keeps the trace.
type policy struct {
	Name            string           `yaml:"name"`
	Type            string           `yaml:"type"`
	OTTL            *ottlCondition   `yaml:"ottl_condition,omitempty"`
	StringAttribute *stringAttribute `yaml:"string_attribute,omitempty"`
	Probabilistic   *probabilistic   `yaml:"probabilistic,omitempty"`
	And             *and             `yaml:"and,omitempty"`
}

type ottlCondition struct {
	ErrorMode string   `yaml:"error_mode"`
	Span      []string `yaml:"span"`
}

type stringAttribute struct {
	Key    string   `yaml:"key"`
	Values []string `yaml:"values,flow"`
}

type probabilistic struct {
	SamplingPercentage float64 `yaml:"sampling_percentage"`
}

type and struct {
	SubPolicies []policy `yaml:"and_sub_policy"`
}

// headroom is how many times the traces that arrive within decision_wait
// num_traces holds: bursts above the stated peak, and traces whose
// decision is due but not yet taken.
const headroom = 2

// sampling is one processor for every service: they share the Collector,
// so each policy names its service. decision_wait is the longest any
// service asks for. By Little's law the traces held at once are the
// arrival rate times the time each is held, so num_traces is
// headroom × decision_wait × the services' summed peak rate.
func sampling(services []model.Service) tailSampling {
	var wait time.Duration
	var rate float64
	var ps []policy
	for _, p := range services {
		t := profile.TelemetryOf(p.Runtime)
		if !t.Spans {
			continue // vet says so
		}
		c := p.Collector
		wait = max(wait, c.DecisionWait)
		rate += c.RequestsPerSecond
		ps = append(ps, servicePolicies(p, t)...)
	}
	return tailSampling{
		DecisionWait:      seconds(wait),
		NumTraces:         ceil(headroom * wait.Seconds() * rate),
		ExpectedNewTraces: ceil(rate),
		Policies:          ps,
	}
}

// servicePolicies keeps a service's trace when a request broke one of
// its SLOs' latency bounds (as its span attribute says, not the trace's
// duration: a long stream is slow by design), when it errored, and at
// the sample floor.
func servicePolicies(p model.Service, t profile.Telemetry) []policy {
	svc := p.Name
	var ps []policy
	for _, slo := range p.SLOs {
		for _, b := range slo.LatencyBounds() {
			attr, ok := t.SpanLatency[b.Kind]
			if !ok {
				continue // vet says so
			}
			cond := fmt.Sprintf("%s and attributes[%s] > %s", ofService(svc), quote(attr), float(b.Threshold.Seconds()))
			ps = append(ps, ottlPolicy(fmt.Sprintf("%s: %s over %s", svc, bound(slo, b), b.Threshold), cond))
		}
	}
	ps = append(ps, ottlPolicy(svc+": errors", ofService(svc)+" and status.code == STATUS_CODE_ERROR"))
	return append(ps, floor(svc, p.Collector.SampleFloor))
}

// bound names an SLO's bound: the SLO's name, with the bound's kind when
// the SLO has several (goodput).
func bound(slo model.SLO, b model.Bound) string {
	if slo.Kind == b.Kind {
		return slo.Name
	}
	return slo.Name + " " + string(b.Kind)
}

func ottlPolicy(name, cond string) policy {
	return policy{Name: name, Type: "ottl_condition", OTTL: &ottlCondition{ErrorMode: "ignore", Span: []string{cond}}}
}

// floor keeps the service's traces at its sample floor, whatever they
// show: the probabilistic policy hashes the trace ID, so every collector
// behind a load balancer keeps the same ones.
func floor(svc string, share float64) policy {
	return policy{Name: svc + ": floor", Type: "and", And: &and{SubPolicies: []policy{
		{Name: "service", Type: "string_attribute", StringAttribute: &stringAttribute{Key: serviceName, Values: []string{svc}}},
		{Name: "floor", Type: "probabilistic", Probabilistic: &probabilistic{SamplingPercentage: percent(share)}},
	}}}
}

// percent writes a share as a percentage without the float noise of
// multiplying (0.07 × 100 is 7.000000000000001).
func percent(share float64) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(share*100, 'g', 12, 64), 64)
	return p
}

// serviceName is the resource attribute that names the service a span or
// log line comes from: set OTEL_SERVICE_NAME to the spec's service name.
const serviceName = "service.name"

func ofService(svc string) string {
	return "resource.attributes[" + quote(serviceName) + "] == " + quote(svc)
}

// quote writes s as an OTTL string literal.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// float writes f as an OTTL float literal, with its point: the latency
// attributes are floats.
func float(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
