package yamlenc

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// readsAsString reports whether s, written plain, reads back as the string
// s (yaml.v3's resolve) and not as a YAML 1.1 bool or base-60 number.
func readsAsString(s string) bool {
	if s == "" {
		return false // null
	}
	if strings.IndexByte("tTfFnN~.+-<", s[0]) >= 0 && keywords[s] {
		return false
	}
	switch c := s[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return false
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if isNumberOrTimestamp(s) || strings.Contains(s, ":") && base60.MatchString(s) {
			return false
		}
	}
	return len(s) > 3 || !oldBools[s]
}

// isNumberOrTimestamp is the rest of yaml.v3's resolve for strings that
// start with a sign or a digit.
func isNumberOrTimestamp(s string) bool {
	if isTimestamp(s) {
		return true
	}
	n := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(n, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(n, 0, 64); err == nil {
		return true
	}
	if yamlFloat.MatchString(n) {
		if _, err := strconv.ParseFloat(n, 64); err == nil {
			return true
		}
	}
	return signedAfterPrefix(n, "0b", 2) || signedAfterPrefix(n, "0o", 8)
}

// signedAfterPrefix reports what yaml.v3 reads besides Go's syntax: a
// sign after the base's prefix, as in 0b-1.
func signedAfterPrefix(s, prefix string, base int) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return false
	}
	_, err := strconv.ParseInt(rest, base, 64)
	return err == nil
}

func isTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' || strings.Trim(s[:4], "0123456789") != "" {
		return false
	}
	for _, layout := range timestampLayouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

var (
	timestampLayouts = []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"}
	yamlFloat        = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60           = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
)

// keywords are the plain scalars yaml.v3 reads as bools, nulls, special
// floats and the merge key.
var keywords = setOf("true", "True", "TRUE", "false", "False", "FALSE", "~", "null", "Null", "NULL",
	".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<")

// oldBools are YAML 1.1's other bools, which yaml.v3 quotes so that older
// readers keep them strings.
var oldBools = setOf("y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off", "OFF")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
