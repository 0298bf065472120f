package runbooks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// overview heads the part of a fleet's runbook that the head template
// writes.
const overview = "Overview"

// fewServices is the most services a part of a section names; it points
// at the table of services for more.
const fewServices = 10

// writeFleet writes a fleet's runbook from its variants, numbered from 1
// in the order of their first service.
func writeFleet(svcs []model.Service, variants []*variant) string {
	var b strings.Builder
	b.WriteString(header)
	fmt.Fprintf(&b, `# Runbooks

What to do when an alert of one of these %d services fires. Each alert has a
section under its name, the anchor its `+"`runbook_url`"+` points at, written once
for every service that gets it: %s stands for the alert's `+"`service`"+` label,
and %s, %s and %s for the service's
team, model and selector values, which the table below lists.
`, len(svcs), cell(ServicePlaceholder), cell(TeamPlaceholder), cell(ModelPlaceholder), cell(SelectorPlaceholder("label")))
	if len(variants) > 1 {
		b.WriteString(`Services whose runbooks differ (another runtime, other objectives or
thresholds) are of different variants; where a section differs between
them, it has a part for each, headed by what tells them apart.
`)
	}
	writeServices(&b, svcs, variants)
	writeSection(&b, svcs, overview, variants, 2, func(v *variant) (string, bool) { return v.head, true })
	for _, a := range alertsOf(variants) {
		writeSection(&b, svcs, a, variants, 0, func(v *variant) (string, bool) {
			text, ok := v.sections[a]
			return text, ok
		})
	}
	return b.String()
}

// writeServices writes the table of services, with each one's variant
// when there are several.
func writeServices(b *strings.Builder, svcs []model.Service, variants []*variant) {
	of := make([]int, len(svcs))
	for n, v := range variants {
		for _, i := range v.services {
			of[i] = n + 1
		}
	}
	several := len(variants) > 1
	b.WriteString("\n## Services\n\n| Service | Team | Runtime | Model | Selector |")
	if several {
		b.WriteString(" Variant |")
	}
	b.WriteString("\n| --- | --- | --- | --- | --- |")
	if several {
		b.WriteString(" --- |")
	}
	for i, svc := range svcs {
		b.WriteString("\n| " + cell(svc.Name) + " | " + cell(svc.Team) + " | " + svc.Runtime + " | " + cell(svc.Model) + " | ")
		for j, l := range svc.Selector {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(cell(l.Name + "=" + l.Value))
		}
		b.WriteString(" |")
		if several {
			b.WriteString(" " + strconv.Itoa(of[i]) + " |")
		}
	}
	b.WriteString("\n")
}

// alertsOf are the alerts of every variant, each where it first appears.
func alertsOf(variants []*variant) []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range variants {
		for _, a := range v.alerts {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// sectionPart is one text of a section and the variants (numbered from 1) that
// write it.
type sectionPart struct {
	text     string
	first    *variant
	variants []int
	services int
}

// writeSection writes a section of the fleet's runbook: its text, or when
// variants write it differently, a part for each text. demote lowers the
// headings of its text by as many levels, and one more under a part's
// heading.
func writeSection(b *strings.Builder, svcs []model.Service, name string, variants []*variant, demote int, textOf func(*variant) (string, bool)) {
	var parts []*sectionPart
	byText := map[string]*sectionPart{}
	for n, v := range variants {
		text, ok := textOf(v)
		if !ok {
			continue
		}
		p := byText[text]
		if p == nil {
			p = &sectionPart{text: text, first: v}
			byText[text] = p
			parts = append(parts, p)
		}
		p.variants = append(p.variants, n+1)
		p.services += len(v.services)
	}
	fmt.Fprintf(b, "\n## %s\n\n", name)
	if len(parts) == 1 {
		b.WriteString(demoteHeadings(parts[0].text, demote))
		return
	}
	of := make([]facts, len(parts))
	numbers := make([][]int, len(parts))
	for i, p := range parts {
		of[i], numbers[i] = p.first.facts, p.variants
	}
	for i, h := range headings(of, numbers) {
		fmt.Fprintf(b, "\n### %s\n\n%s\n\n%s\n", h, appliesTo(parts[i], svcs, variants), demoteHeadings(parts[i].text, demote+1))
	}
}

// appliesTo says which services a part is for: by name when they are
// few, else by variant in the table of services.
func appliesTo(p *sectionPart, svcs []model.Service, variants []*variant) string {
	if p.services > fewServices {
		return fmt.Sprintf("For the %d services of %s in [Services](#services).", p.services, variantsText(p.variants))
	}
	var names []string
	for _, n := range p.variants {
		for _, i := range variants[n-1].services {
			names = append(names, svcs[i].Name)
		}
	}
	return "For " + list(names) + "."
}
