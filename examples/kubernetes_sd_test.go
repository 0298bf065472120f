//go:build kubernetes

package examples_test

// Registers kubernetes_sd_configs with Prometheus's config loader; see
// internal/generate/scrape/kubernetes_sd_test.go for why it takes a build tag.
import _ "github.com/prometheus/prometheus/discovery/kubernetes"

func init() { kubernetesSD = true }
