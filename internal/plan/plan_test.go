package plan

import (
	"regexp"
	"strings"
	"testing"
)

func TestDashboardUID(t *testing.T) {
	valid := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,40}$`)
	long := strings.Repeat("a", 50) + "-one"
	other := strings.Repeat("a", 50) + "-two"
	cases := map[string]string{"chat-llama": "slogen-chat-llama", long: DashboardUID(long), other: DashboardUID(other)}
	for name, uid := range cases {
		if !valid.MatchString(uid) {
			t.Errorf("DashboardUID(%q) = %q, not a valid Grafana UID", name, uid)
		}
		if DashboardUID(name) != uid {
			t.Errorf("DashboardUID(%q) = %q, want %q", name, DashboardUID(name), uid)
		}
	}
	if DashboardUID(long) == DashboardUID(other) {
		t.Errorf("long names sharing a prefix got the same UID %q", DashboardUID(long))
	}
}
