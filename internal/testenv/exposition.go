package testenv

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// ReadExposition reads the series of an exposition in Prometheus's text
// format with their label values as written: Prometheus 2 stores an le
// of "1" as "1" and one of "1.0" as "1.0", where the text parser of
// Prometheus 3 would make both "1.0".
func ReadExposition(path string) ([]labels.Labels, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := parser.NewParser(parser.Options{})
	var series []labels.Labels
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ls, err := p.ParseMetric(seriesPart(line))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		series = append(series, ls)
	}
	return series, sc.Err()
}

// seriesPart is a sample line without its value and timestamp.
func seriesPart(line string) string {
	if i := strings.LastIndexByte(line, '}'); i >= 0 {
		return line[:i+1]
	}
	return strings.Fields(line)[0]
}
