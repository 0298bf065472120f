// Package suggest finds the known name closest to a misspelt one, for
// "did you mean" hints in error messages.
package suggest

import "strings"

// Distance is the Levenshtein edit distance between a and b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// Closest is the candidate nearest to name, if one is fewer than within
// edits away; the first of equals wins. fold compares without case.
func Closest(name string, candidates []string, within int, fold bool) (string, bool) {
	if fold {
		name = strings.ToLower(name)
	}
	best, bestDist := "", within
	for _, c := range candidates {
		key := c
		if fold {
			key = strings.ToLower(c)
		}
		if d := Distance(name, key); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best, best != ""
}
