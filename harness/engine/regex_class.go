package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Java's character classes nest ([a[b]] is a union) and intersect
// ([\p{L}&&[^a-z]]); RE2's do neither. A class that does is computed here
// as a set of code points and written out as RE2 ranges. \p{...} names a
// general category by Go's Unicode tables, as property does for a plain
// class.

// runeSet is a set of code points, one bit each.
type runeSet []uint64

func newRuneSet() runeSet { return make(runeSet, (unicode.MaxRune+64)/64) }

func (s runeSet) add(lo, hi rune) {
	for r := lo; r <= hi; r++ {
		s[r/64] |= 1 << (uint(r) % 64)
	}
}

func (s runeSet) has(r rune) bool { return s[r/64]&(1<<(uint(r)%64)) != 0 }

func (s runeSet) union(o runeSet) {
	for i := range s {
		s[i] |= o[i]
	}
}

func (s runeSet) intersect(o runeSet) {
	for i := range s {
		s[i] &= o[i]
	}
}

func (s runeSet) negate() {
	for i := range s {
		s[i] = ^s[i]
	}
}

// re2 writes s as an RE2 class; surrogates, which no UTF-8 text holds,
// are left out.
func (s runeSet) re2() string {
	var b strings.Builder
	b.WriteByte('[')
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !s.has(r) || r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		lo := r
		for r+1 <= unicode.MaxRune && s.has(r+1) && r+1 != 0xD800 {
			r++
		}
		fmt.Fprintf(&b, `\x{%X}`, lo)
		if r > lo {
			fmt.Fprintf(&b, `-\x{%X}`, r)
		}
		n++
	}
	if n == 0 {
		// The empty class: nothing matches.
		return `[^\x00-\x{10FFFF}]`
	}
	b.WriteByte(']')
	return b.String()
}

// needsSets says whether the class opening at p[i] nests another class
// or intersects, so that only setClass can translate it.
func needsSets(p string, i int) bool {
	i++
	if i < len(p) && p[i] == '^' {
		i++
	}
	if i < len(p) && p[i] == ']' {
		i++
	}
	for i < len(p) {
		switch {
		case p[i] == '\\':
			i += 2
			continue
		case p[i] == '[' || strings.HasPrefix(p[i:], "&&"):
			return true
		case p[i] == ']':
			return false
		}
		i++
	}
	return false
}

// setClass translates the class opening at t.p[t.i] through its set.
func (t *regexTranslation) setClass() error {
	s, err := t.classSet()
	if err != nil {
		return err
	}
	t.b.WriteString(s.re2())
	return nil
}

// classSet reads a class, nested or not, from its [ to its ].
func (t *regexTranslation) classSet() (runeSet, error) {
	p := t.p
	t.i++ // [
	negated := t.i < len(p) && p[t.i] == '^'
	if negated {
		t.i++
	}
	result, part := runeSet(nil), newRuneSet()
	intersected := false
	first := true
	for {
		if t.i >= len(p) {
			return nil, unsupportedRe(p, "an unclosed character class")
		}
		c := p[t.i]
		switch {
		case c == ']' && !first:
			t.i++
			if result == nil {
				result = part
			} else {
				result.intersect(part)
			}
			if negated {
				if intersected {
					// Java's reading of [^a&&b] has changed between
					// releases; udfx does not guess it.
					return nil, unsupportedRe(p, "a negated class with an intersection &&")
				}
				result.negate()
			}
			return result, nil
		case strings.HasPrefix(p[t.i:], "&&"):
			t.i += 2
			if result == nil {
				result = part
			} else {
				result.intersect(part)
			}
			part, intersected = newRuneSet(), true
		case c == '[':
			inner, err := t.classSet()
			if err != nil {
				return nil, err
			}
			part.union(inner)
		default:
			lo, set, err := t.classAtom()
			if err != nil {
				return nil, err
			}
			if set != nil {
				part.union(set)
				break
			}
			hi := lo
			if t.i+1 < len(p) && p[t.i] == '-' && p[t.i+1] != ']' && p[t.i+1] != '[' {
				t.i++
				h, hset, err := t.classAtom()
				if err != nil {
					return nil, err
				}
				if hset != nil || h < lo {
					return nil, unsupportedRe(p, "a malformed range in a character class")
				}
				hi = h
			}
			part.add(lo, hi)
		}
		first = false
	}
}

// classAtom reads one member of a class: a character, an escaped one, or
// a \p{...} category (returned as a set).
func (t *regexTranslation) classAtom() (rune, runeSet, error) {
	p := t.p
	if p[t.i] != '\\' {
		r, size := utf8.DecodeRuneInString(p[t.i:])
		t.i += size
		return r, nil, nil
	}
	if t.i+1 >= len(p) {
		return 0, nil, unsupportedRe(p, "a trailing backslash")
	}
	e := p[t.i+1]
	t.i += 2
	switch e {
	case 't':
		return '\t', nil, nil
	case 'n':
		return '\n', nil, nil
	case 'r':
		return '\r', nil, nil
	case 'f':
		return '\f', nil, nil
	case 'x', 'u':
		return t.classCodePoint(e)
	case 'p', 'P':
		name, err := t.propertyName()
		if err != nil {
			return 0, nil, err
		}
		tab, ok := unicode.Categories[name]
		if !ok {
			return 0, nil, unsupportedRe(p, `\p{`+name+`}`)
		}
		s := newRuneSet()
		for _, r := range tab.R16 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				s.add(c, c)
			}
		}
		for _, r := range tab.R32 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				s.add(c, c)
			}
		}
		if e == 'P' {
			s.negate()
		}
		return 0, s, nil
	}
	if e < 0x80 && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z' || e >= '0' && e <= '9') {
		return 0, nil, unsupportedRe(p, `the escape \`+string(e)+` inside a nested or intersected class`)
	}
	r, size := utf8.DecodeRuneInString(p[t.i-1:])
	t.i += size - 1
	return r, nil, nil
}

// classCodePoint reads the rest of \xhh, \x{h...h} or \uhhhh.
func (t *regexTranslation) classCodePoint(e byte) (rune, runeSet, error) {
	p, i := t.p, t.i
	var digits string
	switch {
	case e == 'x' && i < len(p) && p[i] == '{':
		end := strings.IndexByte(p[i:], '}')
		if end < 0 {
			return 0, nil, unsupportedRe(p, `a malformed \x{...} escape`)
		}
		digits, t.i = p[i+1:i+end], i+end+1
	case e == 'x' && i+2 <= len(p):
		digits, t.i = p[i:i+2], i+2
	case e == 'u' && i+4 <= len(p):
		digits, t.i = p[i:i+4], i+4
	}
	v, err := strconv.ParseUint(digits, 16, 32)
	if digits == "" || !isHex(digits) || err != nil || v > unicode.MaxRune || v >= 0xD800 && v <= 0xDFFF {
		return 0, nil, unsupportedRe(p, `a malformed \`+string(e)+` escape`)
	}
	return rune(v), nil, nil
}
