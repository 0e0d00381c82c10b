package udf

import (
	"slices"
	"strings"
)

// SQLCalls reports whether sql, the text of a string literal, calls the
// function name: the name as a whole identifier (case-insensitive, as
// Spark resolves function names), optionally quoted in backticks, followed
// by "(" after optional white space.
func SQLCalls(sql, name string) bool {
	if name == "" {
		return false
	}
	lower, want := strings.ToLower(sql), strings.ToLower(name)
	for from := 0; from < len(lower); {
		i := strings.Index(lower[from:], want)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(want)
		from = start + 1
		if start > 0 && start-1 < len(lower) && lower[start-1] == '`' && end < len(lower) && lower[end] == '`' {
			start--
			end++
		}
		if start > 0 && isIdentByte(lower[start-1]) {
			continue
		}
		j := end
		for j < len(lower) && (lower[j] == ' ' || lower[j] == '\t' || lower[j] == '\n' || lower[j] == '\r') {
			j++
		}
		if j < len(lower) && lower[j] == '(' {
			return true
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// SQLCallIndex answers SQLCalls for many names at once: Calls reads a SQL
// text once, whatever the number of names, where asking SQLCalls for each
// name would make a file of n UDFs and n SQL strings cost n² (a front-end
// must stay linear in the size of the file it reads).
type SQLCallIndex[T comparable] struct {
	plain map[string][]T // lower-cased name made of identifier bytes → values
	other []sqlName[T]   // names with other bytes, asked one by one
	order map[T]int      // the order values were first added in
}

type sqlName[T comparable] struct {
	name string
	v    T
}

// Add records that a call of name in SQL is a use of v.
func (x *SQLCallIndex[T]) Add(name string, v T) {
	if name == "" {
		return
	}
	if x.order == nil {
		x.plain, x.order = map[string][]T{}, map[T]int{}
	}
	if _, ok := x.order[v]; !ok {
		x.order[v] = len(x.order)
	}
	lower := strings.ToLower(name)
	for i := 0; i < len(lower); i++ {
		if !isIdentByte(lower[i]) {
			x.other = append(x.other, sqlName[T]{name, v})
			return
		}
	}
	x.plain[lower] = append(x.plain[lower], v)
}

// Len is the number of values added.
func (x *SQLCallIndex[T]) Len() int { return len(x.order) }

// Calls returns each value with a name that sql calls (as SQLCalls says),
// once, in the order the values were first added.
func (x *SQLCallIndex[T]) Calls(sql string) []T {
	if len(x.order) == 0 {
		return nil
	}
	seen := map[T]bool{}
	var out []T
	if len(x.plain) > 0 {
		lower := strings.ToLower(sql)
		for s := 0; s < len(lower); {
			if !isIdentByte(lower[s]) {
				s++
				continue
			}
			e := s
			for e < len(lower) && isIdentByte(lower[e]) {
				e++
			}
			if vs, ok := x.plain[lower[s:e]]; ok && calledAt(lower, s, e) {
				for _, v := range vs {
					if !seen[v] {
						seen[v] = true
						out = append(out, v)
					}
				}
			}
			s = e
		}
	}
	for _, n := range x.other {
		if !seen[n.v] && SQLCalls(sql, n.name) {
			seen[n.v] = true
			out = append(out, n.v)
		}
	}
	if len(out) > 1 {
		slices.SortFunc(out, func(a, b T) int { return x.order[a] - x.order[b] })
	}
	return out
}

// calledAt reports whether the identifier lower[s:e] (a whole run of
// identifier bytes) is called: optionally in backticks, then "(" after
// optional white space.
func calledAt(lower string, s, e int) bool {
	if s > 0 && lower[s-1] == '`' && e < len(lower) && lower[e] == '`' {
		if s > 1 && isIdentByte(lower[s-2]) {
			return false
		}
		e++
	}
	for e < len(lower) && (lower[e] == ' ' || lower[e] == '\t' || lower[e] == '\n' || lower[e] == '\r') {
		e++
	}
	return e < len(lower) && lower[e] == '('
}
