package openslo

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/importer"
)

// slo is an SLO object (README.md, SLO), its SLIs resolved.
type slo struct {
	At          importer.Pos
	Name        string
	Service     string
	Description string
	Window      timeWindow
	Budgeting   string
	BudgetingAt importer.Pos
	Objectives  []objective
	Policies    []policy
	// Team is metadata.labels.team, when one value: slogen's team.
	Team string
	// Labels and Annotations are metadata's other keys, reported as not
	// carried.
	Labels, Annotations []string
}

// timeWindow is spec.timeWindow's one item.
type timeWindow struct {
	At       importer.Pos
	Duration string // "" when the SLO gives none
	Calendar string // startTime and timeZone of a calendar-aligned window
	Rolling  bool
}

// objective is one of spec.objectives (README.md, Objectives).
type objective struct {
	At          importer.Pos
	DisplayName string
	Percent     float64
	Op          string // thresholdMetric's comparison
	Value       string
	TimeSlice   string // timeSliceTarget and timeSliceWindow, for the report
	Weight      string // compositeWeight
	SLI         sli
}

// budgetingMethods are spec.budgetingMethod's values.
var budgetingMethods = []string{"Occurrences", "Timeslices", "RatioTimeslices"}

// shorthand is OpenSLO's duration-shorthand: a positive integer and one
// of m h d w M Q Y (README.md, Custom Data Types).
var shorthand = regexp.MustCompile(`^([0-9]+)([mhdwMQY])$`)

func (r *reader) slo(o Object, ix index, slis map[string]sli) (slo, bool) {
	before := len(r.Errs)
	path := o.Path + "spec."
	r.fields(o.Spec, path, "description", "service", "indicator", "indicatorRef", "timeWindow", "budgetingMethod", "objectives", "alertPolicies")
	m := importer.Mapping(o.Spec)
	s := slo{At: o.At, Name: o.Name, Annotations: keys(importer.Mapping(o.Meta)["annotations"])}
	s.Team, s.Labels = team(importer.Mapping(o.Meta)["labels"])
	s.Service = r.Str(o.Spec, m, path, "service", true)
	s.Description = r.Str(o.Spec, m, path, "description", false)
	s.Budgeting = r.Str(o.Spec, m, path, "budgetingMethod", true)
	if b := m["budgetingMethod"]; b != nil {
		s.BudgetingAt = r.Pos(b)
		if !slices.Contains(budgetingMethods, s.Budgeting) {
			r.Errorf(b, path+"budgetingMethod", "want Occurrences, Timeslices or RatioTimeslices (got %q)", s.Budgeting)
		}
	}
	s.Window = r.timeWindow(o.Spec, m["timeWindow"], path+"timeWindow")
	var shared *sli
	if m["indicator"] != nil || m["indicatorRef"] != nil {
		// A broken SLI is reported once, not again per objective.
		got, _ := r.sliOf(o.Spec, m, path, ix, slis)
		shared = &got
	}
	objs := m["objectives"]
	if objs == nil || objs.Kind != yaml.SequenceNode || len(objs.Content) == 0 {
		r.Errorf(o.Spec, path+"objectives", "missing or empty: a list of objectives, each with target or targetPercent")
		return s, false
	}
	for i, n := range objs.Content {
		s.Objectives = append(s.Objectives, r.objective(n, fmt.Sprintf("%sobjectives[%d].", path, i), shared, ix, slis))
	}
	s.Policies = r.policies(m["alertPolicies"], path+"alertPolicies", ix)
	return s, len(r.Errs) == before
}

// sliOf resolves indicator (inline) or indicatorRef (an SLI object of the
// import) in m.
func (r *reader) sliOf(parent *yaml.Node, m map[string]*yaml.Node, path string, ix index, slis map[string]sli) (sli, bool) {
	inline, ref := m["indicator"], m["indicatorRef"]
	switch {
	case inline != nil && ref != nil:
		r.Errorf(ref, path+"indicatorRef", "give indicator or indicatorRef, not both")
	case inline != nil:
		o, ok := r.object(inline, path+"indicator.", false)
		if !ok {
			return sli{}, false
		}
		if o.Kind != "" && o.Kind != "SLI" {
			r.Errorf(inline, path+"indicator.kind", "want SLI (got %q)", o.Kind)
			return sli{}, false
		}
		return r.indicator(o, ix)
	case ref != nil:
		s, ok := slis[ref.Value]
		if _, known := ix.ref("SLI", ref.Value); !known {
			r.Errorf(ref, path+"indicatorRef", "no SLI %q in the files imported; add the SLI, or inline it as indicator", ref.Value)
		}
		return s, ok
	default:
		r.Errorf(parent, path+"indicator", "missing: an indicator or an indicatorRef naming an SLI")
	}
	return sli{}, false
}

func (r *reader) timeWindow(parent, n *yaml.Node, path string) timeWindow {
	if n == nil {
		return timeWindow{At: r.Pos(parent), Rolling: true}
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) != 1 {
		r.Errorf(n, path, "want a list of exactly one window")
		return timeWindow{At: r.Pos(n)}
	}
	w := n.Content[0]
	path += "[0]."
	r.fields(w, path, "duration", "isRolling", "calendar")
	m := importer.Mapping(w)
	t := timeWindow{At: r.Pos(w), Duration: r.Str(w, m, path, "duration", true), Rolling: m["calendar"] == nil}
	if v := m["isRolling"]; v != nil {
		t.Rolling = v.Value == "true"
	}
	if t.Duration != "" && !shorthand.MatchString(t.Duration) {
		r.Errorf(m["duration"], path+"duration", "want a duration shorthand, a number and one of m h d w M Q Y, e.g. 28d (got %q)", t.Duration)
	}
	if c := m["calendar"]; c != nil {
		cm := importer.Mapping(c)
		t.Calendar = fmt.Sprintf("startTime %s, timeZone %s", value(cm["startTime"]), value(cm["timeZone"]))
		if t.Rolling {
			r.Errorf(m["isRolling"], path+"isRolling", "a calendar-aligned window does not roll: drop isRolling or calendar")
		}
	}
	return t
}

func (r *reader) objective(n *yaml.Node, path string, shared *sli, ix index, slis map[string]sli) objective {
	r.fields(n, path, "displayName", "op", "value", "target", "targetPercent", "timeSliceTarget", "timeSliceWindow", "indicator", "indicatorRef", "compositeWeight")
	m := importer.Mapping(n)
	o := objective{At: r.Pos(n), DisplayName: value(m["displayName"]), Op: value(m["op"]), Value: value(m["value"]), Weight: value(m["compositeWeight"])}
	var given []string
	for _, k := range []string{"timeSliceTarget", "timeSliceWindow"} {
		if v := value(m[k]); v != "" {
			given = append(given, k+" "+v)
		}
	}
	o.TimeSlice = strings.Join(given, ", ")
	o.Percent = r.target(n, m, path)
	switch {
	case m["indicator"] != nil || m["indicatorRef"] != nil:
		o.SLI, _ = r.sliOf(n, m, path, ix, slis)
	case shared != nil:
		o.SLI = *shared
	default:
		r.Errorf(n, path+"indicator", "missing: the SLO gives no indicator or indicatorRef, so each objective must")
	}
	if o.SLI.Threshold != nil {
		if !slices.Contains([]string{"lt", "lte", "gt", "gte"}, o.Op) {
			r.Errorf(n, path+"op", "a thresholdMetric's objective needs op: lt, lte, gt or gte (got %q)", o.Op)
		}
		if _, err := strconv.ParseFloat(o.Value, 64); err != nil {
			r.Errorf(n, path+"value", "a thresholdMetric's objective needs a number to compare the query with (got %q)", o.Value)
		}
	}
	return o
}

// target reads target (a ratio in [0, 1)) or targetPercent as a percent.
func (r *reader) target(n *yaml.Node, m map[string]*yaml.Node, path string) float64 {
	t, tp := m["target"], m["targetPercent"]
	if (t == nil) == (tp == nil) {
		r.Errorf(n, path+"target", "want exactly one of target (0.995) and targetPercent (99.5)")
		return 0
	}
	field, at, scale := "targetPercent", tp, 1.0
	if t != nil {
		field, at, scale = "target", t, 100
	}
	v, err := strconv.ParseFloat(at.Value, 64)
	if err != nil || v <= 0 || v*scale >= 100 {
		r.Errorf(at, path+field, "want a number in (0, %v) (got %q): slogen takes objectives strictly between 0 and 100 %%", 100/scale, at.Value)
		return 0
	}
	// 0.999 * 100 is 99.89999999999999 in binary: round to the digits given.
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v*scale, 'g', 12, 64), 64)
	return v
}

func value(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	return n.Value
}

// keys are a map node's keys, in the file's order.
func keys(n *yaml.Node) []string {
	var out []string
	for k := range importer.Mapping(n) {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// team reads a scalar team label (labels may also hold lists) and the
// other labels' keys.
func team(labels *yaml.Node) (string, []string) {
	t := importer.Mapping(labels)["team"]
	if t == nil || t.Kind != yaml.ScalarNode {
		return "", keys(labels)
	}
	return t.Value, slices.DeleteFunc(keys(labels), func(k string) bool { return k == "team" })
}
