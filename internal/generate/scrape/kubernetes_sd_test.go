//go:build kubernetes

package scrape

// Registers kubernetes_sd_configs with Prometheus's config loader. With
// config it pulls client-go, which takes about two minutes of CPU to
// compile from an empty build cache: the everyday go test ./... leaves it
// out, and .ci/run runs these tests with -tags kubernetes. Test-only: the
// slogen binary must never link it.
import _ "github.com/prometheus/prometheus/discovery/kubernetes"

func init() { kubernetesSD = true }
