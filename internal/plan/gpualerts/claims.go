package gpualerts

import (
	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// A fleet's services claim their GPUs: each service's rule file records,
// from its dcgm mapping, which GPUs it uses (ServiceClaims), and the pool
// alerts about GPUs take the service and its alerting labels from the
// claim. Claims is the root file's view of them: a GPU two services claim
// (overlapping pod patterns, hosts shared under host mapping) is claimed
// by neither, since a join with two claims would fail the whole rule.
const (
	ServiceClaims = "slogen:gpu_service:info"
	Claims        = "slogen:gpu_service:claim"
)

// ClaimKey names one GPU, or one MIG instance of it, whichever pod uses
// it: what pool alerts join claims on.
var ClaimKey = []string{"UUID", "GPU_I_ID"}

// PoolLabel is the claim's label naming the service's pool, so that
// pools that share a dcgm-exporter job each alert about their own GPUs.
const PoolLabel = "gpu_pool"

// claim records the GPUs the service's mapping selects, one series per
// GPU with value 1, labelled as ls.
func claim(svc model.Service, ls map[string]string) rules.Rule {
	return rules.Rule{
		Record: ServiceClaims,
		Expr:   pql.Group(gpuSelector(svc, dcgm.FBUsed), pql.By(append([]string{"job"}, ClaimKey...)...)),
		Labels: ls,
	}
}

// ClaimLabels are the labels of the service's claim: the service, its
// pool and the spec's alerting labels.
func ClaimLabels(svc model.Service) map[string]string {
	ls := map[string]string{"service": svc.Name, PoolLabel: poolID(svc)}
	for _, l := range svc.Alerting.Labels {
		ls[l.Name] = l.Value
	}
	return ls
}

// dedupedClaims records the claims of one dcgm-exporter job that no other
// service shares. Its job label, which its series have anyway, tells one
// job's rule from another's, as promtool check rules asks.
func dedupedClaims(job string) rules.Rule {
	all := pql.Metric(ServiceClaims, pql.Eq("job", job))
	shared := pql.Gt(pql.Count(all, pql.By(ClaimKey...)), pql.Num(1))
	return rules.Rule{Record: Claims, Expr: pql.Unless(all, shared, pql.On(ClaimKey...)), Labels: map[string]string{"job": job}}
}
