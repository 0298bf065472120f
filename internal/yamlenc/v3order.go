package yamlenc

import "unicode"

// naturalCompare orders map keys as yaml.v3 does (sorter.go): runs of
// digits compare as numbers, so gpu9 comes before gpu10; two letters
// compare by code point; a letter comes after any other character, unless
// a digit precedes it, in which case it comes first: v1a before v1.0 and
// v1-0, but _x before x.
func naturalCompare(a, b string) int {
	var abuf, bbuf [64]rune
	ar, br := appendRunes(abuf[:0], a), appendRunes(bbuf[:0], b)
	switch {
	case naturalLess(ar, br):
		return -1
	case naturalLess(br, ar):
		return 1
	}
	return 0
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// naturalLess is yaml.v3's keyList.Less for two strings.
func naturalLess(a, b []rune) bool {
	digits := false // whether the runes so far, all equal, end in a digit
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			digits = unicode.IsDigit(a[i])
			continue
		}
		al, bl := unicode.IsLetter(a[i]), unicode.IsLetter(b[i])
		switch {
		case al && bl:
			return a[i] < b[i]
		case al || bl:
			return al == digits
		}
		return numberLess(a, b, i)
	}
	return len(a) < len(b)
}

// numberLess compares the numbers that start at i in a and b, both
// carrying on any digits before i; leading zeros count only in a tie.
func numberLess(a, b []rune, i int) bool {
	var an, bn int64
	if a[i] == '0' || b[i] == '0' {
		for j := i - 1; j >= 0 && unicode.IsDigit(a[j]); j-- {
			if a[j] != '0' {
				an, bn = 1, 1
				break
			}
		}
	}
	ai, an := number(a, i, an)
	bi, bn := number(b, i, bn)
	switch {
	case an != bn:
		return an < bn
	case ai != bi:
		return ai < bi
	}
	return a[i] < b[i]
}

// number reads the digits of s from i on after n, returning where they
// end and the number they make.
func number(s []rune, i int, n int64) (int, int64) {
	for ; i < len(s) && unicode.IsDigit(s[i]); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	return i, n
}
