package bench

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// SVG draws the result as a bar chart: one bar per side at its median,
// a whisker from the fastest to the slowest run, and every run as a dot,
// so a reader sees the spread the medians hide.
func SVG(r *Result) []byte {
	const (
		width, left, right = 720, 110, 40
		top, barH, gap     = 56, 34, 26
	)
	height := top + 2*barH + gap + 60
	maxS := 0.0
	for _, xs := range [][]float64{r.OriginalS, r.RewriteS} {
		for _, x := range xs {
			maxS = math.Max(maxS, x)
		}
	}
	maxS = math.Max(maxS, math.Max(r.OriginalMedianS, r.RewriteMedianS))
	if maxS <= 0 {
		maxS = 1
	}
	scale := niceCeil(maxS)
	plotW := float64(width - left - right)
	x := func(s float64) float64 { return float64(left) + s/scale*plotW }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	title := fmt.Sprintf("%s: %.2f× (median of %d alternating runs, %d rows, engine %s)", r.UDF, r.Speedup, r.Runs, r.Rows, r.Engine)
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", left-100, html.EscapeString(title))
	sides := []struct {
		label  string
		median float64
		runs   []float64
		color  string
	}{
		{"original", r.OriginalMedianS, r.OriginalS, "#c0504d"},
		{"rewrite", r.RewriteMedianS, r.RewriteS, "#4f81bd"},
	}
	for i, s := range sides {
		y := float64(top + i*(barH+gap))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-8, y+barH/2+5, s.label)
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%.1f" height="%d" fill="%s"/>`+"\n", left, y, x(s.median)-float64(left), barH, s.color)
		if len(s.runs) > 0 {
			lo, hi := s.runs[0], s.runs[0]
			for _, v := range s.runs {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
			mid := y + barH/2
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222" stroke-width="1.5"/>`+"\n", x(lo), mid, x(hi), mid)
			for _, v := range []float64{lo, hi} {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#222" stroke-width="1.5"/>`+"\n", x(v), mid-7, x(v), mid+7)
			}
			for _, v := range s.runs {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="#222"/>`+"\n", x(v), y+barH-5)
			}
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", x(s.median)+6, y+14, formatSeconds(s.median))
	}
	axisY := top + 2*barH + gap + 14
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#444"/>`+"\n", left, axisY, width-right, axisY)
	for i := 0; i <= 4; i++ {
		v := scale * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#444"/>`+"\n", x(v), axisY, x(v), axisY+5)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" font-size="11">%s</text>`+"\n", x(v), axisY+18, formatSeconds(v))
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" fill="#555">bars: median; whiskers: fastest to slowest run; dots: each run. %s</text>`+"\n", left, axisY+38, html.EscapeString(r.Machine))
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten, for axis ends.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func formatSeconds(s float64) string {
	switch {
	case s == 0:
		return "0"
	case s < 1e-3:
		return fmt.Sprintf("%.0f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.1f ms", s*1e3)
	default:
		return fmt.Sprintf("%.2f s", s)
	}
}
