package verify

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/render/columnar"
	"github.com/udfx/udfx/harness/render/cuda"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/translate"
	"github.com/udfx/udfx/harness/translate/ir"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/notebook"
)

// checkRendered holds the columnar and cuda files of a SQL record to what
// udfx renders from the proved expression. They need a GPU to run, so no
// re-run can prove them; a hash proves only that nobody changed them
// since the hash was written, and whoever edits the file can write the
// hash. So verify translates the original again, requires the proved SQL
// to be that translation (or its null-guard-free alternative, which
// rewrite --optimize may keep), renders both targets from it and compares
// byte for byte. origAbs is the original's file, recDir the record's folder
// relative to the repository, and content the bytes of each item's file
// that passed its hash (nil for the others).
func checkRendered(rec *evidence.Record, u *udf.UDF, origAbs, recDir, sqlText string, items []Item, content [][]byte) {
	var idx []int
	for i, rw := range rec.Rewrites {
		if ti, _ := udf.InfoOf(rw.Target); ti.FromSQL && items[i].Status == Pass {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	fail := func(detail string) {
		for _, i := range idx {
			items[i].Status, items[i].Detail = StaleRewrite, detail
		}
	}
	src, err := notebook.ReadCode(origAbs)
	if err != nil {
		for _, i := range idx {
			items[i].Status, items[i].Detail = Error, fmt.Sprintf("read the original %s: %v", rec.Original.File, err)
		}
		return
	}
	want, problem := renderedFiles(u, src, recDir, sqlText)
	if problem != "" {
		fail(problem)
		return
	}
	for _, i := range idx {
		rw := rec.Rewrites[i]
		w, ok := want[rw.Path]
		switch {
		case !ok:
			items[i].Status, items[i].Detail = StaleRewrite, fmt.Sprintf("udfx renders no %s file %s from the proved expression", rw.Target, rw.Path)
		case !bytes.Equal(w, content[i]):
			items[i].Status, items[i].Detail = StaleRewrite, fmt.Sprintf("the %s file is not what udfx renders from the proved expression (first difference at line %d)", rw.Target, firstDiffLine(w, content[i]))
		default:
			items[i].renderedNote = "rendered again from the proved expression: identical"
		}
	}
}

// renderedFiles renders the columnar and cuda files of u from the
// translator's expression that sqlText is, by their paths in the
// repository; problem says why there are none.
func renderedFiles(u *udf.UDF, src []byte, recDir, sqlText string) (map[string][]byte, string) {
	res, err := translate.Translate(u, src)
	if err != nil || res.IR == nil {
		return nil, "udfx renders columnar and cuda files only from the built-in translator's expression, and the translator gives none for the original now"
	}
	// The proved SQL is the translation or, kept by --optimize, its
	// alternative without the null guard; for a Spark with ANSI off,
	// either in that mode's form (ir.ForANSIOff), which means the same.
	forms := []ir.Expr{res.IR}
	if alt, ok := ir.WithoutNullGuard(res.IR); ok {
		forms = append(forms, alt)
	}
	var e ir.Expr
	for _, f := range forms {
		texts := []ir.Expr{f}
		if off, ok := ir.ForANSIOff(f); ok {
			texts = append(texts, off)
		}
		for _, form := range texts {
			if s, err := sparksql.Render(form); err == nil && s == strings.TrimSpace(sqlText) {
				e = f
				break
			}
		}
		if e != nil {
			break
		}
	}
	if e == nil {
		return nil, "the proved SQL is not the built-in translator's expression, and udfx renders columnar and cuda files only from that"
	}
	recPath := recDir + "/" + evidence.FileName
	want := map[string][]byte{}
	if pkg, err := columnar.PackageOf(src); err == nil {
		if files, err := columnar.RenderIn(u, e, recPath, pkg); err == nil {
			for _, f := range files {
				want[recDir+"/columnar/"+path.Base(f.Path)] = f.Content
			}
		}
	}
	if files, err := cuda.Render(u, e, recPath); err == nil {
		for _, f := range files {
			want[recDir+"/cuda/"+f.Path] = f.Content
		}
	}
	return want, ""
}

// firstDiffLine is the 1-based line where a and b first differ.
func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
