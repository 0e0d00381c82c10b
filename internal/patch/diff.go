package patch

import (
	"fmt"
	"strings"
)

// FileChange is one file of a patch: Old is nil for a file the patch
// creates. Path is slash-separated, relative to the repository root.
type FileChange struct {
	Path string
	Old  []byte
	New  []byte
}

// contextLines is the context around each hunk, as in `git diff`.
const contextLines = 3

// UnifiedDiff renders changes as a patch `git apply` accepts: a
// `diff --git` header per file, `new file mode` for created files, and
// hunks with three lines of context. Files whose content is unchanged
// are left out.
func UnifiedDiff(changes []FileChange) string {
	var b strings.Builder
	for _, c := range changes {
		if c.Old != nil && string(c.Old) == string(c.New) {
			continue
		}
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n", c.Path, c.Path)
		if c.Old == nil {
			b.WriteString("new file mode 100644\n--- /dev/null\n")
		} else {
			fmt.Fprintf(&b, "--- a/%s\n", c.Path)
		}
		fmt.Fprintf(&b, "+++ b/%s\n", c.Path)
		writeHunks(&b, splitLines(c.Old), splitLines(c.New))
	}
	return b.String()
}

// line is one line of a file; last marks a final line without a newline.
type line struct {
	text  string
	noEOL bool
}

func splitLines(b []byte) []line {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	var out []line
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, line{text: s, noEOL: true})
			break
		}
		out = append(out, line{text: s[:i]})
		s = s[i+1:]
	}
	return out
}

type opKind byte

const (
	opEqual opKind = ' '
	opDel   opKind = '-'
	opIns   opKind = '+'
)

type op struct {
	kind opKind
	a, b int // indexes into the old and new lines
}

// diffLines is Myers' O(ND) diff: the shortest edit script from a to b.
func diffLines(a, b []line) []op {
	n, m := len(a), len(b)
	max := n + m
	if max == 0 {
		return nil
	}
	v := make([]int, 2*max+2)
	var trace [][]int
	off := max + 1
	found := false
	for d := 0; d <= max && !found; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = true
				break
			}
		}
	}
	// Walk the trace back from the end.
	var ops []op
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		vd := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && vd[off+k-1] < vd[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := vd[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			ops = append(ops, op{opEqual, x, y})
		}
		if d > 0 {
			if x == prevX {
				y--
				ops = append(ops, op{opIns, x, y})
			} else {
				x--
				ops = append(ops, op{opDel, x, y})
			}
		}
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}

func writeHunks(b *strings.Builder, a, c []line) {
	ops := diffLines(a, c)
	i := 0
	for i < len(ops) {
		// Find the next change.
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			return
		}
		start := i - contextLines
		if start < 0 {
			start = 0
		}
		// Extend the hunk while changes are within 2*context of each other.
		end := i
		for {
			for end < len(ops) && ops[end].kind != opEqual {
				end++
			}
			next := end
			for next < len(ops) && ops[next].kind == opEqual {
				next++
			}
			if next < len(ops) && next-end <= 2*contextLines {
				end = next
				continue
			}
			end += contextLines
			if end > len(ops) {
				end = len(ops)
			}
			break
		}
		writeHunk(b, a, c, ops[start:end])
		i = end
	}
}

func writeHunk(b *strings.Builder, a, c []line, ops []op) {
	aStart, cStart := -1, -1
	aLen, cLen := 0, 0
	for _, o := range ops {
		switch o.kind {
		case opEqual:
			aLen++
			cLen++
		case opDel:
			aLen++
		case opIns:
			cLen++
		}
		if aStart < 0 && o.kind != opIns {
			aStart = o.a
		}
		if cStart < 0 && o.kind != opDel {
			cStart = o.b
		}
	}
	// An empty side starts at the line before it (0 for an empty file).
	aFrom, cFrom := aStart+1, cStart+1
	if aLen == 0 {
		aFrom = ops[0].a
	}
	if cLen == 0 {
		cFrom = ops[0].b
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(aFrom, aLen), hunkRange(cFrom, cLen))
	for _, o := range ops {
		var l line
		switch o.kind {
		case opEqual, opDel:
			l = a[o.a]
		case opIns:
			l = c[o.b]
		}
		b.WriteByte(byte(o.kind))
		b.WriteString(l.text)
		b.WriteByte('\n')
		if l.noEOL {
			b.WriteString("\\ No newline at end of file\n")
		}
	}
}

func hunkRange(from, n int) string {
	if n == 1 {
		return fmt.Sprint(from)
	}
	return fmt.Sprintf("%d,%d", from, n)
}
