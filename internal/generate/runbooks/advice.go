package runbooks

import "github.com/slogen-dev/slogen/internal/profile"

// Advice is what a runbook says of a service's runtime: its name, whether
// it claims a share of each GPU's memory at start, and its settings and
// caveats for the alerts that name them (profile.Advice). A text of
// several lines breaks them where the page does: write it with hang.
type Advice struct {
	// Title is the runtime's name as its project writes it.
	Title string
	// Preallocates reports whether the runtime claims a fixed share of
	// each GPU's memory at start, which holds its KV cache: a cache that
	// fills under load and a GPU about 90 % full are how it runs.
	Preallocates bool
	profile.Advice
}

func adviceOn(p profile.Profile) Advice {
	return Advice{Title: p.Title, Preallocates: p.Preallocation != "", Advice: p.Advice}
}
