package typeinfer

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/udfx/udfx/harness/udf"
)

// Signature is a user's statement of a UDF's types: parameters by name or
// by position, and optionally the return type.
type Signature struct {
	Params []SigParam
	// Return is nil when the signature does not give one.
	Return *udf.Type
}

// SigParam is one parameter of a Signature. Name is empty for a
// parameter given by position.
type SigParam struct {
	Name string
	Type *udf.Type
}

// maxSignature bounds the text ParseSignature reads: a signature is typed
// by a person, and the type parser is recursive.
const maxSignature = 4096

// ParseSignature reads the forms a user writes types in:
//
//	price double, qty int             (--types: by name)
//	double, int                       (by position)
//	(double, int) -> double           (a udfx comment; the return is optional)
//	price: decimal(10,2), tags array<string>
//
// Types are Spark DDL strings or PySpark/Scala DataType constructors
// (udf.ParseType). Names and positions cannot be mixed.
func ParseSignature(s string) (*Signature, error) {
	if len(s) > maxSignature {
		return nil, fmt.Errorf("the signature is %d bytes long; at most %d", len(s), maxSignature)
	}
	s = strings.TrimSpace(s)
	sig := &Signature{}
	params := s
	if i := topLevel(s, "->"); i >= 0 {
		params = strings.TrimSpace(s[:i])
		ret := strings.TrimSpace(s[i+2:])
		t, err := udf.ParseType(ret)
		if err != nil {
			return nil, fmt.Errorf("return type: %w", err)
		}
		sig.Return = t
	}
	if strings.HasPrefix(params, "(") && strings.HasSuffix(params, ")") && matching(params) {
		params = strings.TrimSpace(params[1 : len(params)-1])
	}
	if params == "" {
		if sig.Return == nil {
			return nil, fmt.Errorf("the signature gives no type")
		}
		return sig, nil
	}
	named := -1
	for _, entry := range splitTop(params) {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			return nil, fmt.Errorf("an empty entry in %q", s)
		}
		p, err := parseEntry(entry)
		if err != nil {
			return nil, err
		}
		isNamed := 0
		if p.Name != "" {
			isNamed = 1
		}
		if named >= 0 && named != isNamed {
			return nil, fmt.Errorf("give every parameter by name (x double) or every one by position (double), not both: %q", s)
		}
		named = isNamed
		for _, q := range sig.Params {
			if p.Name != "" && q.Name == p.Name {
				return nil, fmt.Errorf("parameter %s is given twice", p.Name)
			}
		}
		sig.Params = append(sig.Params, p)
	}
	return sig, nil
}

// parseEntry reads "type", "name type" or "name: type".
func parseEntry(e string) (SigParam, error) {
	if t, err := udf.ParseType(e); err == nil {
		return SigParam{Type: t}, nil
	}
	i := 0
	for i < len(e) && (e[i] == '_' || e[i] < 0x80 && (unicode.IsLetter(rune(e[i])) || unicode.IsDigit(rune(e[i])))) {
		i++
	}
	name, rest := e[:i], strings.TrimSpace(e[i:])
	rest = strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	if name == "" || rest == "" || unicode.IsDigit(rune(name[0])) {
		_, err := udf.ParseType(e)
		return SigParam{}, fmt.Errorf("%q is neither a type nor 'name type': %w", e, err)
	}
	t, err := udf.ParseType(rest)
	if err != nil {
		return SigParam{}, fmt.Errorf("parameter %s: %w", name, err)
	}
	return SigParam{Name: name, Type: t}, nil
}

// String writes the signature back in the comment form.
func (s *Signature) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range s.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.Name != "" {
			b.WriteString(p.Name + " ")
		}
		b.WriteString(p.Type.String())
	}
	b.WriteByte(')')
	if s.Return != nil {
		b.WriteString(" -> " + s.Return.String())
	}
	return b.String()
}

// depthDelta is how a byte changes the nesting of brackets. '>' after '-'
// (the arrow) is not a bracket; callers find the arrow first.
func depthDelta(c byte) int {
	switch c {
	case '(', '<', '[':
		return 1
	case ')', '>', ']':
		return -1
	}
	return 0
}

// topLevel is the index of the first sep outside brackets, or -1.
func topLevel(s, sep string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		if depth == 0 && strings.HasPrefix(s[i:], sep) {
			return i
		}
		depth += depthDelta(s[i])
	}
	return -1
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		default:
			depth += depthDelta(s[i])
		}
	}
	return append(out, s[start:])
}

// matching is true when the '(' that opens s is closed by its last byte.
func matching(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '(' {
			depth++
		} else if s[i] == ')' {
			depth--
			if depth == 0 {
				return i == len(s)-1
			}
		}
	}
	return false
}
