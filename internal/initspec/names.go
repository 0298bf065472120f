package initspec

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// name gives each service a spec name: its job's, with the model's last
// path element where a job serves several models, and its namespace
// where jobs of one name run in several; each unique.
func name(services []Service) {
	perTarget := map[Target]int{}
	for _, s := range services {
		perTarget[s.Target]++
	}
	taken := map[string]bool{}
	for i := range services {
		s := &services[i]
		n := slug(s.Job)
		if perTarget[s.Target] > 1 {
			n = slug(n + "-" + path.Base(s.Model))
		}
		if taken[n] && s.Namespace != "" {
			n = slug(n + "-" + s.Namespace)
		}
		for k := 2; taken[n]; k++ {
			n = slug(fmt.Sprintf("%s-%d", strings.TrimRight(n, "0123456789-"), k))
		}
		taken[n] = true
		s.Name = n
	}
}

var notInName = regexp.MustCompile(`[^a-z0-9]+`)

// slug is s as a service name may be written: lower case, digits and
// dashes, at most 63 characters, starting and ending alphanumeric.
func slug(s string) string {
	n := strings.Trim(notInName.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(n) > 60 {
		n = strings.Trim(n[:60], "-")
	}
	if n == "" {
		return "service"
	}
	return n
}
