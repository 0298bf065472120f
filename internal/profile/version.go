package profile

import (
	"fmt"
	"strconv"
	"strings"
)

// version is a release number as runtimes write theirs: "0.11.2",
// "v1.0.0", Triton's "r24.08", llama.cpp's build "b6000", with any
// pre-release or build suffix ("-rc1", "rc11", "+cu124") left out.
type version []int

// parseVersion reads a release number: an optional letter prefix, then
// numbers separated by dots.
func parseVersion(s string) (version, error) {
	core := strings.TrimLeft(s, "vVrRbB")
	if i := strings.IndexFunc(core, func(r rune) bool { return r != '.' && (r < '0' || r > '9') }); i >= 0 {
		core = core[:i] // a pre-release or build: "-rc1", "rc11", "+cu124"
	}
	var v version
	for _, part := range strings.Split(core, ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("version %q is not a release number: write it as the runtime numbers its releases, such as \"0.11.0\", \"v1.0.0\" or \"r24.08\"", s)
		}
		v = append(v, n)
	}
	return v, nil
}

// before reports whether v is an older release than w; missing numbers
// count as zero, so 0.11 is 0.11.0.
func (v version) before(w version) bool {
	for i := range max(len(v), len(w)) {
		a, b := at(v, i), at(w, i)
		if a != b {
			return a < b
		}
	}
	return false
}

func at(v version, i int) int {
	if i < len(v) {
		return v[i]
	}
	return 0
}
