package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// serviceMark stands for a service's name in a line that vet's summary
// folds: the lines of a fleet's services differ mostly in that name.
const serviceMark = "<service>"

// summarize writes vet's lines about a fleet once per text its services
// share: a line that names a service is written with the name replaced
// by <service> and, in front, which services it is about. Lines about no
// service, and those only one service has, are written as they are. The
// order is that of each text's first line.
func summarize(w io.Writer, text string, names []string) {
	known := make(map[string]bool, len(names))
	for _, n := range names {
		known[n] = true
	}
	var order []string
	about := map[string][]string{} // folded text -> the services it is about
	first := map[string]string{}   // folded text -> its first line, as written
	for line := range strings.SplitSeq(strings.TrimSuffix(text, "\n"), "\n") {
		folded, name := line, lineService(line, known)
		if name != "" {
			folded = strings.ReplaceAll(line, name, serviceMark)
		}
		if _, seen := first[folded]; !seen {
			order = append(order, folded)
			first[folded] = line
		}
		if name != "" && !slices.Contains(about[folded], name) {
			about[folded] = append(about[folded], name)
		}
	}
	for _, folded := range order {
		svcs := about[folded]
		said := strings.TrimPrefix(folded, serviceMark+": ") // the services are named in front
		switch {
		case len(svcs) < 2:
			fmt.Fprintln(w, first[folded])
		case len(svcs) == len(names):
			fmt.Fprintf(w, "every service (%d): %s\n", len(svcs), said)
		default:
			fmt.Fprintf(w, "%d services (%s): %s\n", len(svcs), listSome(svcs, 3), said)
		}
	}
}

// lineService is the service a line of vet is about: the one it starts
// with ("chat: ..."), or the one whose field a spec note or warning names
// (services."chat".runtime, services.chat.runtime); "" for none.
func lineService(line string, known map[string]bool) string {
	if name, _, ok := strings.Cut(line, ": "); ok && known[name] {
		return name
	}
	_, path, ok := strings.Cut(line, " services.")
	if !ok {
		return ""
	}
	name := path
	if strings.HasPrefix(path, `"`) {
		if q, err := strconv.QuotedPrefix(path); err == nil {
			name, _ = strconv.Unquote(q)
		}
	} else if i := strings.IndexAny(path, ".:"); i >= 0 {
		name = path[:i]
	}
	if known[name] {
		return name
	}
	return ""
}

// listSome names the first n and counts the rest.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}
