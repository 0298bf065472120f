package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// Kind names the dashboard a fleet draws a service on, shared by every
// service of the fleet that differs from it only in what that dashboard
// reads from recordings and variables: its name, team, model, selector
// values, GPUs' pods or hosts, and its SLOs' objectives and thresholds.
// It is the runtime and a hash of the rest: what decides the panels and
// the alerts whose limits they draw (the runtime's metrics, the SLOs,
// their kinds, periods and group_by labels, the scrape mode, the DCGM
// mapping, a collector block), the selector's label names, and the limits drawn as
// constants (the spec's thresholds block). It reads the service alone,
// cheaply: a fleet stage finds each service's kind.
func Kind(svc model.Service) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%t\x00%s\x00%v\x00", svc.Runtime, svc.Model != "", svc.Scrape.Mode, svc.Thresholds)
	// An older generation of a runtime that renamed its metrics reads
	// other names than the newest.
	gen, _ := profile.For(svc.Runtime, svc.Version)
	if newest, _ := profile.Lookup(svc.Runtime); gen.Since != newest.Since {
		b.WriteString("since " + gen.Since + "\x00")
	}
	d := svc.DCGM
	fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%t\x00", d.Job, d.Mapping, d.PodLabel(), d.Namespace != "")
	for _, l := range svc.Selector {
		b.WriteString(l.Name + "\x01")
	}
	if svc.Global != nil {
		b.WriteString("\x00global " + svc.Global.Label)
	}
	for _, slo := range svc.SLOs {
		fmt.Fprintf(&b, "\x00%s\x01%s\x01%s\x01%s", slo.Name, slo.Kind, slo.Period.Name, strings.Join(slo.GroupBy, ","))
		for _, bd := range slo.Bounds {
			b.WriteString("\x01" + string(bd.Kind))
		}
	}
	if svc.Collector != nil { // the span panel and its variable; a service without keeps its kind
		b.WriteString("\x00collector")
	}
	if svc.Runtime == profile.CustomRuntime { // the spec names its metrics; another runtime's are its profile's
		m, _ := json.Marshal(svc.Metrics) // names, numbers and matchers' exported fields
		b.Write(m)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return svc.Runtime + "-" + hex.EncodeToString(sum[:4])
}
