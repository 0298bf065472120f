package dashboard

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// sample is one series of an instant vector.
type sample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

// instantQuery runs an instant query and returns its series that have a number
// (NaN is no data). Scalars come back as one series without labels.
func instantQuery(p *testenv.Prometheus, q string) ([]sample, error) {
	resp, err := http.Get(p.URL + "/api/v1/query?" + url.Values{"query": {q}}.Encode())
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var body struct {
		Status, Error string
		Data          struct {
			ResultType string          `json:"resultType"`
			Result     json.RawMessage `json:"result"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("decoding the answer to %s: %w", q, err)
	}
	if body.Status != "success" {
		return nil, fmt.Errorf("query %s: %s", q, body.Error)
	}
	var all []sample
	switch body.Data.ResultType {
	case "vector":
		err = json.Unmarshal(body.Data.Result, &all)
	case "scalar":
		all = []sample{{}}
		err = json.Unmarshal(body.Data.Result, &all[0].Value)
	default:
		err = fmt.Errorf("query %s: unexpected %s result", q, body.Data.ResultType)
	}
	var out []sample
	for _, s := range all {
		if v, ok := s.Value[1].(string); ok && !math.IsNaN(parseFloat(v)) {
			out = append(out, s)
		}
	}
	return out, err
}

func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
