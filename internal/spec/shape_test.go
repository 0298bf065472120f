package spec

import (
	"maps"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// TestPlaceholdersKeepHowValuesHoldTheName: a selector value that holds
// the service's name is written with the name's placeholder in it, in both
// sets, so that a generator's name-0 or vllm-name meets the same text in
// the placeholder services as in the real one; team, model and GPU get
// the set's own.
func TestPlaceholdersKeepHowValuesHoldTheName(t *testing.T) {
	raw := rawService{Team: "ads", Model: "Qwen/Qwen2.5-7B-Instruct", GPU: &rawGPU{Product: "NVIDIA L40S", Count: 2},
		Selector: map[string]string{"namespace": "chat", "job": "vllm-chat", "exported_pod": "chat-0", "cluster": "eu"}}
	for _, ph := range []placeholders{sampleTokens, checkTokens} {
		got := withIdentity("chat", raw, ph)
		name := ph.byPosition[0]
		want := map[string]string{"namespace": name, "job": "vllm-" + name, "exported_pod": name + "-0", "cluster": ph.byPosition[1]}
		if !maps.Equal(got.Selector, want) || got.Team != ph.team || got.Model != ph.model || *got.GPU != ph.gpu {
			t.Errorf("got %v, team %q, model %q, GPU %v; want %v, %q, %q, %v", got.Selector, got.Team, got.Model, *got.GPU, want, ph.team, ph.model, ph.gpu)
		}
	}
}

func withGPU(svc model.Service, product string) model.Service {
	svc.GPU = model.GPU{Product: product, Count: 1}
	return svc
}

// TestUnshapeable pins which identities a shape may stand for.
func TestUnshapeable(t *testing.T) {
	svc := func(name, team, served string, sel ...string) model.Service {
		s := model.Service{Name: name, Team: team, Model: served}
		for i := 0; i < len(sel); i += 2 {
			s.Selector = append(s.Selector, labels.Label{Name: sel[i], Value: sel[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		svc  model.Service
		want string // in the reason; "" for shapeable
	}{
		{svc("chat-llama-70b-0", "ads", "meta-llama/Llama-3.1-70B-Instruct", "job", "vllm-chat-llama-70b-0", "namespace", "chat-llama-70b-0"), ""},
		{svc("chat", "", "", "exported_pod", "chat-0"), ""},
		{svc("chat", "", "", "namespace", "inference", "job", "inference-vllm"), `"inference-vllm" holds "inference"`},
		{svc("chat-0", "", "", "namespace", "chat"), `"chat-0" holds "chat"`},
		{svc("chat", "ml", "", "job", "vllm"), `team "ml" is not 3 to 48`},
		{svc("chat", "", "7b-model", "job", "vllm"), `model "7b-model" is not 3 to 64`},
		{svc("chat", "", "Qwen/Qwen 2", "job", "vllm"), `model "Qwen/Qwen 2" is not`},
		{svc("chat", "vllm", "", "job", "vllm"), `"vllm" is also another value`},
		{svc("chat", "", "", "job", strings.Repeat("j", 49)), "is not 4 to 48"},
		{svc("chat", "", "", "job", "true"), "would be quoted"},
		{svc("chat", "yes", "", "job", "vllm"), `"yes" would be quoted`},
		{svc("chat", "", "NaN", "job", "vllm"), `"NaN" would be quoted`},
		{svc("chat", "", "Off", "job", "vllm"), `"Off" would be quoted`},
		{withGPU(svc("chat", "ads", "", "job", "vllm-chat"), "NVIDIA H100 80GB HBM3"), ""},
		{withGPU(svc("chat", "", "", "job", "vllm"), "NVIDIA H100 (80GB)"), `GPU product "NVIDIA H100 (80GB)" is not`},
		{withGPU(svc("chat", "", "", "job", "vllm"), "3090"), `"3090" would be quoted`},
		{withGPU(svc("chat", "", "", "job", "vllm"), "vllm"), `"vllm" is also another value`},
	} {
		got := unshapeable(tc.svc)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%v: %q, want %q", tc.svc.Identity(), got, tc.want)
		}
	}
}
