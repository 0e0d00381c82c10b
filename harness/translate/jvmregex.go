package translate

import (
	"strings"
)

// String.replaceAll(regex, replacement) is Pattern.compile(regex)
// .matcher(s).replaceAll(replacement), and Spark's regexp_replace(s,
// regex, replacement) runs the same java.util.regex: find from 0, then
// appendReplacement after each match, appendTail. So the two agree
// wherever the pattern compiles and means the same on every JDK. The
// translator takes a subset whose meaning needs no Unicode data and that
// compiles in every JDK: ASCII text; literals, escaped punctuation, \d
// \D \s \S \w \W \t \n \r \f (ASCII-only without UNICODE_CHARACTER_CLASS);
// classes of those and ranges, negated or not, without nesting or &&;
// groups (capturing, (?:…)), alternation, anchors ^ $, and the
// quantifiers * + ? {n} {n,} {n,m}, greedy, lazy or possessive. The
// replacement must be literal (no $ or \), which appendReplacement
// copies as is.

// jvmRegexOK says why pattern is outside that subset ("" when inside).
func jvmRegexOK(pattern string) string {
	p := pattern
	if p == "" {
		return "an empty pattern matches between every char"
	}
	for i := 0; i < len(p); i++ {
		if p[i] >= 0x80 {
			return "a pattern with non-ASCII text"
		}
	}
	atom := false // a quantifier may follow
	depth := 0
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "a pattern ending in \\"
			}
			if !regexEscapeOK(p[i+1]) {
				return "the escape \\" + string(p[i+1])
			}
			i += 2
			atom = true
		case c == '[':
			n, why := regexClass(p[i:])
			if why != "" {
				return why
			}
			i += n
			atom = true
		case c == '(':
			if strings.HasPrefix(p[i:], "(?:") {
				i += 3
			} else if strings.HasPrefix(p[i:], "(?") {
				return "the group " + p[i:min(i+3, len(p))] + "… (flags, lookaround, named or atomic groups)"
			} else {
				i++
			}
			depth++
			atom = false
		case c == ')':
			if depth == 0 {
				return "an unbalanced )"
			}
			depth--
			i++
			atom = true
		case c == '|':
			i++
			atom = false
		case c == '*' || c == '+' || c == '?' || c == '{':
			if !atom {
				return "a quantifier with nothing to repeat"
			}
			n := 1
			if c == '{' {
				n = regexBraces(p[i:])
				if n == 0 {
					return "a { that is not a repetition {n}, {n,} or {n,m}"
				}
			}
			i += n
			if i < len(p) && (p[i] == '?' || p[i] == '+') {
				i++
			}
			atom = false
		case c == ']' || c == '}':
			return "an unescaped " + string(c)
		default: // a literal, ., ^ or $
			i++
			atom = c != '^' && c != '$'
		}
	}
	if depth != 0 {
		return "an unbalanced ("
	}
	return ""
}

// regexEscapeOK: \c means the same ASCII-only thing in every JDK.
func regexEscapeOK(c byte) bool {
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W', 't', 'n', 'r', 'f':
		return true
	}
	return strings.IndexByte(`\.^$|?*+()[]{}-/,:;!"'#%&=<>@~`+"`", c) >= 0
}

// regexClass reads the class at the start of p: its length, or why it is
// outside the subset.
func regexClass(p string) (int, string) {
	i := 1
	if i < len(p) && p[i] == '^' {
		i++
	}
	if i < len(p) && p[i] == ']' {
		return 0, "a class starting with ]"
	}
	members := 0
	for i < len(p) {
		switch c := p[i]; {
		case c == ']':
			if members == 0 {
				return 0, "an empty class"
			}
			return i + 1, ""
		case c == '[':
			return 0, "a nested class"
		case c == '&' && i+1 < len(p) && p[i+1] == '&':
			return 0, "a class intersection &&"
		case c == '\\':
			if i+1 >= len(p) || !regexEscapeOK(p[i+1]) {
				return 0, "an escape in a class"
			}
			i += 2
		case c == '-' && members > 0 && i+1 < len(p) && p[i+1] != ']':
			// A range: Java rejects one whose ends are out of order, or
			// are not single characters.
			lo, hi := p[i-1], p[i+1]
			if p[i-2] == '\\' || hi == '\\' || hi == '[' || lo > hi {
				return 0, "the range " + p[i-1:i+2]
			}
			i += 2
		default:
			i++
		}
		members++
	}
	return 0, "an unclosed class"
}

// regexBraces is the length of the repetition {n}, {n,} or {n,m} at the
// start of p, or 0.
func regexBraces(p string) int {
	i := 1
	digits := func() int {
		s := i
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
		return i - s
	}
	if digits() == 0 {
		return 0
	}
	if i < len(p) && p[i] == ',' {
		i++
		digits()
	}
	if i < len(p) && p[i] == '}' {
		return i + 1
	}
	return 0
}

// sigmaBlindPattern reports whether the pattern (in jvmRegexOK's subset)
// is one negated class of ASCII members, alone or repeated by + or *, as
// slugs are made: every character beyond ASCII is a member, so σ and ς
// are matched alike wherever they stand and neither is left in the
// result. Rewriting a lower-cased text with it gives the same string
// whichever of the two final-sigma rules lowered it (lowercase.go).
func sigmaBlindPattern(p string) bool {
	if !strings.HasPrefix(p, "[^") {
		return false
	}
	n, why := regexClass(p)
	if why != "" || n == 0 {
		return false
	}
	for i := 0; i < n; i++ {
		if p[i] >= 0x80 {
			return false
		}
	}
	rest := p[n:]
	return rest == "" || rest == "+" || rest == "*"
}
