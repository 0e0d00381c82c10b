package verify

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
)

// checkUseSites checks each use site the record lists: its New text must
// follow from its Old text and the SQL rewrite, and the code must run it
// there. The record is the pull request's, so the file decides where the
// sites are: each copy of a site's text must be a recorded site and an
// expression in the code (a copy in a comment or a string cannot stand
// in for an edited site), each site lies at its span or, where lines
// above it moved, where its line context is, and a line with a site's
// context that holds other code of its kind is an edited site.
func (v *verifier) checkUseSites(repo string, rec *evidence.Record, u *udf.UDF, sql string) (string, Location) {
	type group struct {
		file, text string
		kind       udf.UseKind
		sites      []evidence.UseSite
	}
	var groups []*group
	for _, s := range rec.UseSites {
		loc := Location{File: v.rel(filepath.Join(repo, filepath.FromSlash(s.File))), Line: max(s.Span.Start.Line, 1)}
		if evidence.SHA256([]byte(s.New)) != s.NewSHA256 {
			return fmt.Sprintf("the record's use site at %s:%d does not hash as it says", s.File, s.Span.Start.Line), loc
		}
		if s.File != rec.Original.File {
			return fmt.Sprintf("the record's use site in %s is not in the UDF's file %s", s.File, rec.Original.File), loc
		}
		want, err := patch.UseSiteText(u, udf.UseKind(s.Kind), s.Old, sql)
		if err != nil || want != s.New {
			return fmt.Sprintf("the use site at %s:%d does not follow from the SQL rewrite: the record has %s, rewrite.sql gives %s for %s",
				s.File, s.Span.Start.Line, quoteShort(s.New), quoteShort(want), quoteShort(s.Old)), loc
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.file == s.File && g.text == s.New && g.kind == udf.UseKind(s.Kind) })
		if i < 0 {
			groups = append(groups, &group{file: s.File, text: s.New, kind: udf.UseKind(s.Kind)})
			i = len(groups) - 1
		}
		groups[i].sites = append(groups[i].sites, s)
	}
	if len(groups) == 0 {
		return "", Location{}
	}
	fe := frontends.New(u.Language)
	defer fe.Close()
	locator, ok := fe.(udf.SiteLocator)
	if !ok {
		return fmt.Sprintf("udfx cannot locate %s use sites in the code", u.Language), Location{File: v.rel(filepath.Join(repo, filepath.FromSlash(groups[0].file))), Line: 1}
	}
	for _, g := range groups {
		abs := filepath.Join(repo, filepath.FromSlash(g.file))
		fileLoc := Location{File: v.rel(abs), Line: 1}
		b, err := notebook.ReadCode(abs)
		if err != nil {
			return fmt.Sprintf("the use site's file %s cannot be read: %v", g.file, err), fileLoc
		}
		all, code, err := locator.Occurrences(g.file, b, g.text, g.kind)
		if err != nil {
			return fmt.Sprintf("the use sites in %s cannot be checked: %v", g.file, err), fileLoc
		}
		if problem, loc := v.placeSites(b, abs, g.file, g.text, g.kind, g.sites, all, code); problem != "" {
			return problem, loc
		}
	}
	return "", Location{}
}

// placeSites matches the recorded sites of one text to its occurrences
// in src (all of them, and those in the code).
func (v *verifier) placeSites(src []byte, abs, file, text string, kind udf.UseKind, sites []evidence.UseSite, all, code []int) (string, Location) {
	at := func(off int) Location { return Location{File: v.rel(abs), Line: lineOf(src, off)} }
	for _, off := range all {
		if !slices.Contains(code, off) {
			return fmt.Sprintf("%s:%d holds the proved text of a use site (%s) outside the code, in a comment or a string: a copy there could stand in for an edited site, so remove it",
				file, lineOf(src, off), quoteShort(text)), at(off)
		}
	}
	used := map[int]bool{}
	for _, s := range sites {
		loc := Location{File: v.rel(abs), Line: max(s.Span.Start.Line, 1)}
		if off, ok := udf.OffsetOf(src, s.Span.Start); ok && slices.Contains(code, off) && !used[off] {
			used[off] = true
			continue
		}
		// Moved: the site is where its line context is.
		found := -1
		for _, off := range code {
			if used[off] {
				continue
			}
			// One side of the line kept suffices: the job's code around a
			// site changes (a new .alias(...), a renamed variable), and
			// a site with both sides changed is not the recorded one.
			before, after := evidence.LineContext(src, off, off+len(text))
			if (s.Before == "" && s.After == "") || before == s.Before || after == s.After {
				found = off
				break
			}
		}
		if found < 0 {
			return fmt.Sprintf("the inlined rewrite at %s:%d changed: the job no longer runs the proved expression there (want %s)",
				file, s.Span.Start.Line, quoteShort(text)), loc
		}
		used[found] = true
	}
	if len(all) > len(sites) {
		extra := slices.DeleteFunc(slices.Clone(code), func(off int) bool { return used[off] })
		return fmt.Sprintf("%s holds the proved text of a use site %d times but the record lists %d such sites (another at line %d): a copy that is not a recorded site could stand in for an edited one",
			file, len(all), len(sites), lineOf(src, extra[0])), at(extra[0])
	}
	// A line that starts as a site's line did and goes on with other
	// code of the site's kind is that site, edited (and another copy
	// placed elsewhere).
	lines := strings.Split(string(src), "\n")
	for _, s := range sites {
		if strings.TrimSpace(s.Before) == "" {
			continue
		}
		for i, line := range lines {
			rest, ok := strings.CutPrefix(line, s.Before)
			if !ok || strings.HasPrefix(rest, firstLine(text)) || !sameShape(rest, text, kind) {
				continue
			}
			return fmt.Sprintf("the inlined rewrite at %s:%d changed: the line that held the proved expression now runs %s (want %s)",
				file, i+1, quoteShort(rest), quoteShort(text)), Location{File: v.rel(abs), Line: i + 1}
		}
	}
	return "", Location{}
}

// sameShape reports whether rest starts as an edited form of text
// would: a call of the same function (an edited expr(...)), or for SQL
// any string.
func sameShape(rest, text string, kind udf.UseKind) bool {
	if kind == udf.UseSQL {
		return rest != "" && strings.ContainsAny(rest[:1], `"'`)
	}
	callee, _, ok := strings.Cut(text, "(")
	return ok && strings.HasPrefix(rest, callee+"(")
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// lineOf is the 1-based line of byte offset off.
func lineOf(src []byte, off int) int {
	return strings.Count(string(src[:min(off, len(src))]), "\n") + 1
}
