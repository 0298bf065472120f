package spec

import (
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// checkBehind holds each service's behind to a gateway of the same
// build: Alertmanager mutes the service's pages while that gateway's
// page fires, which only a gateway's SLOs, the users' view of its whole
// pool, may do.
func checkBehind(svcs []model.Service, fileOf map[string]file) Diagnostics {
	var ds Diagnostics
	for _, svc := range svcs {
		if svc.Behind == "" {
			continue
		}
		r := newResolver(fileOf[svc.Name], svc.Name)
		i := slices.IndexFunc(svcs, func(s model.Service) bool { return s.Name == svc.Behind })
		switch {
		case svc.Metrics.Gateway:
			r.errorf(fields("behind"), "%s is a gateway itself: behind is for the engine services in a gateway's pool", svc.Name)
		case i < 0:
			r.errorf(fields("behind"), "%q is no service of this build: name the gateway service (runtime %s) that routes to %s, and build both together", svc.Behind, gatewayRuntimes(), svc.Name)
		case !svcs[i].Metrics.Gateway:
			r.errorf(fields("behind"), "%q is a %s service, not a gateway: behind names the service of an endpoint picker (runtime %s) whose pool %s is in", svc.Behind, svcs[i].Runtime, gatewayRuntimes(), svc.Name)
		}
		ds = append(ds, r.errs...)
	}
	return ds
}

// gatewayRuntimes lists the runtimes whose services are gateways.
func gatewayRuntimes() string {
	var out []string
	for _, p := range profile.Runtimes() {
		if p.Gateway && !slices.Contains(out, p.Runtime) {
			out = append(out, p.Runtime)
		}
	}
	return strings.Join(out, " or ")
}
