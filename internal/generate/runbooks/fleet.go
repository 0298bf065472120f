package runbooks

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// RenderFleet writes a fleet's one runbook: a table of its services, then
// the head's text and a section per alert that any service gets, each
// headed by the alert's name, the anchor every runbook link points at.
//
// It renders each rule template's first service (templates are indices
// into svcs, as generate.Fleet's), or for slogen's own templates its
// shape's placeholder service, once per shape, and writes the identity
// (name, team, model, selector values) as placeholders. Renderings that
// then say the same are one variant; a section that variants write alike
// is written once, and one they write differently has a part for each
// text, headed by what tells the services apart.
func (t *Templates) RenderFleet(svcs []model.Service, templates [][]int) ([]byte, error) {
	page, _, err := t.renderFleet(svcs, templates)
	return page, err
}

// renderFleet is RenderFleet, and how many pages it rendered.
func (t *Templates) renderFleet(svcs []model.Service, templates [][]int) ([]byte, int, error) {
	var variants []*variant
	byText := map[string]*variant{}
	// byKey is the variant of what was rendered: a shape, or a template
	// by its index.
	byKey := map[any]*variant{}
	var errs []error
	renders := 0
	for i, members := range templates {
		svc := svcs[members[0]]
		var key any = i
		from, exact := svc, false
		if svc.Shape != nil && !t.user {
			key, from, exact = svc.Shape, svc.Shape.Sample, true
		}
		v, ok := byKey[key]
		if !ok {
			renders++
			r, err := t.renderVariant(from, exact)
			if err != nil {
				errs = append(errs, fmt.Errorf("service %s: %w", svc.Name, err))
				continue
			}
			text := r.text()
			if v = byText[text]; v == nil {
				v, byText[text] = r, r
				variants = append(variants, r)
			}
			byKey[key] = v
		}
		v.services = append(v.services, members...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, renders, err
	}
	for _, v := range variants {
		slices.Sort(v.services)
	}
	return tidy([]byte(writeFleet(svcs, variants))), renders, nil
}

// variant is one text of the runbook, with the identity as placeholders,
// and the services whose alerts it is for, in spec order.
type variant struct {
	facts facts
	head  string
	// alerts are those it has a section for, in order, and sections
	// their texts, without their headings.
	alerts   []string
	sections map[string]string
	services []int
}

// renderVariant renders the service's runbook with its identity as
// placeholders, cut into its head and its alerts' sections.
func (t *Templates) renderVariant(svc model.Service, exact bool) (*variant, error) {
	p := plan.NewIn(svc, plan.Fleet)
	// The pools write the alerts about its GPUs, and link them here: their
	// sections are those the service built alone would have.
	p.GPU = gpualerts.NewPlan(svc)
	p.GPURules = gpualerts.Build(p.GPU)
	page, alerts, err := t.render(p)
	if err != nil {
		return nil, err
	}
	rest := identityOf(svc, exact).replace(strings.TrimPrefix(string(page), header))
	v := &variant{facts: factsOf(svc), alerts: alerts, sections: map[string]string{}}
	for i, a := range alerts {
		text, after, _ := strings.Cut(rest, "\n## "+a+"\n") // render wrote the heading
		if i == 0 {
			v.head = text
		} else {
			v.sections[alerts[i-1]] = text
		}
		rest = after
	}
	if len(alerts) == 0 {
		v.head = rest
	} else {
		v.sections[alerts[len(alerts)-1]] = rest
	}
	return v, nil
}

// text is the whole variant, to tell variants apart by.
func (v *variant) text() string {
	var b strings.Builder
	b.WriteString(v.head)
	for _, a := range v.alerts {
		b.WriteString("\n## " + a + "\n" + v.sections[a])
	}
	return b.String()
}
