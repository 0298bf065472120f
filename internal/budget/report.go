package budget

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
)

// WriteTable writes one line per SLO, for people.
func WriteTable(w io.Writer, slos []SLO) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "SERVICE\tSLO\tOBJECTIVE\tSLI\tBUDGET LEFT\tCOVERS\tSOURCE")
	for _, win := range BurnWindows {
		fmt.Fprintf(tw, "\tBURN %s", genfile.Duration(win))
	}
	fmt.Fprintln(tw)
	for _, s := range slos {
		sli, left := percent(s.SLI, 3), percent(s.Remaining, 1)
		if s.NoRequests {
			sli, left = "no requests", "no requests"
		}
		fmt.Fprintf(tw, "%s\t%s%s\t%s%% over %s\t%s\t%s\t%s of %s\t%s", s.Service, s.SLO, s.Group, num(s.Objective), s.Period,
			sli, left, percent(s.Coverage, 0), s.Period, s.Source)
		for _, b := range s.Burn {
			fmt.Fprintf(tw, "\t%s", times(b))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// percent writes a share with the given decimals, or "no data".
func percent(v *float64, decimals int) string {
	if v == nil {
		return "no data"
	}
	return strconv.FormatFloat(*v*100, 'f', decimals, 64) + "%"
}

func times(v *float64) string {
	if v == nil {
		return "no data"
	}
	return strconv.FormatFloat(*v, 'f', 2, 64) + "×"
}

// Report is the JSON document: where and when it was read, and each SLO.
type Report struct {
	Prometheus string    `json:"prometheus"`
	Time       time.Time `json:"time"`
	SLOs       []jsonSLO `json:"slos"`
}

type jsonSLO struct {
	Service   string  `json:"service"`
	SLO       string  `json:"slo"`
	Group     string  `json:"group,omitempty"`
	Objective float64 `json:"objective_percent"`
	Period    string  `json:"period"`
	jsonFigures
	// Source is "recordings" or "raw_history"; for the raw history,
	// RawHistorySpan is how much of the period it holds and Recordings
	// what the recordings say.
	Source         string              `json:"source"`
	RawHistorySpan string              `json:"raw_history_span,omitempty"`
	Recordings     *jsonFigures        `json:"recordings,omitempty"`
	BurnRate       map[string]*float64 `json:"burn_rate"`
	NoRequests     bool                `json:"no_requests"`
}

type jsonFigures struct {
	SLI             *float64 `json:"sli"`
	BudgetRemaining *float64 `json:"budget_remaining"`
	Coverage        *float64 `json:"period_coverage"`
}

func figures(f Figures) jsonFigures {
	return jsonFigures{SLI: f.SLI, BudgetRemaining: f.Remaining, Coverage: f.Coverage}
}

// WriteJSON writes the report as one JSON document; figures without data
// are null.
func WriteJSON(w io.Writer, prometheus string, ts time.Time, slos []SLO) error {
	r := Report{Prometheus: prometheus, Time: ts.UTC(), SLOs: []jsonSLO{}}
	for _, s := range slos {
		j := jsonSLO{Service: s.Service, SLO: s.SLO, Group: s.Group, Objective: s.Objective, Period: s.Period,
			jsonFigures: figures(s.Figures), Source: "recordings", BurnRate: map[string]*float64{}, NoRequests: s.NoRequests}
		if s.Source.History {
			recorded := figures(*s.Recorded)
			j.Source, j.RawHistorySpan, j.Recordings = "raw_history", genfile.Duration(s.Source.Span), &recorded
		}
		for i, win := range BurnWindows {
			j.BurnRate[genfile.Duration(win)] = s.Burn[i]
		}
		r.SLOs = append(r.SLOs, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Below lists the SLOs with less than min of their budget left, by the
// figure shown: the raw history's where the row reads it.
func Below(slos []SLO, min float64) []SLO {
	var out []SLO
	for _, s := range slos {
		if s.Remaining != nil && *s.Remaining < min {
			out = append(out, s)
		}
	}
	return out
}
