package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/udf"
)

// MaxPerType bounds the per-type tests a record may list: each is a
// differential test the gate runs again.
const MaxPerType = 16

// perTypeEntry is one of a record's per-type tests as verify reads it.
type perTypeEntry struct {
	proof evidence.TypedProof
	types []*udf.Type
	label string
}

// checkTypeGuard checks a record proved per type (evidence.Record.PerType):
// the parameters it guards are exactly those the source leaves untyped,
// its entries are distinct and verified, the top-level test is its first
// entry, and the SQL rewrite is the guard its entries compose, so every
// type outside them reaches raise_error. It reports whether checking goes
// on.
func (c *recordCheck) checkTypeGuard(u *udf.UDF, open []string, f rewriteFiles) bool {
	stale := ""
	problem := func() string {
		if len(c.rec.PerType) == 0 {
			// A type proved per type holds only behind its guard.
			for _, ts := range c.rec.TypeSources {
				if ts.Source == udf.TypeFromPerType && slices.Contains(open, ts.Name) {
					return fmt.Sprintf("the record gives %s a type proved per type (%s) but lists no per-type tests, so no guard keeps other types off the rewrite", ts.Name, ts.Type)
				}
			}
			return ""
		}
		names, entries, problem := perTypeEntries(c.rec)
		if problem != "" {
			return problem
		}
		c.guardNames, c.guardEntries = names, entries
		for _, name := range names {
			for _, p := range u.Params {
				if p.Name == name && !slices.Contains(open, name) && p.Type != nil {
					stale = fmt.Sprintf("the UDF changed: the source now gives %s the type %s, and the record was proved per type for an untyped %s; re-run udfx rewrite", name, p.Type, name)
					return ""
				}
			}
		}
		a, b := slices.Clone(names), slices.Clone(open)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return fmt.Sprintf("the record's per-type tests guard (%s), and the source leaves (%s) untyped", strings.Join(names, ", "), strings.Join(open, ", "))
		}
		for i, name := range names {
			for _, p := range u.Params {
				if p.Name == name && !p.Type.Equal(entries[0].types[i]) {
					return fmt.Sprintf("the record's top-level test gives %s the type %s, its first per-type test %s", name, typeName(p.Type), entries[0].types[i])
				}
			}
		}
		if entries[0].proof.InputsSHA256 != c.rec.InputsSHA256 {
			return "the record's top-level test is not its first per-type test: their inputs hash differently"
		}
		if f.sqlIdx < 0 {
			return "the record lists per-type tests but no SQL rewrite"
		}
		branches := make([]sparksql.TypeBranch, len(entries))
		for i, e := range entries {
			branches[i] = sparksql.TypeBranch{Types: e.types, SQL: e.proof.SQL}
		}
		guard, err := sparksql.TypeGuard(u.Name, names, branches)
		if err != nil {
			return "the record's per-type tests do not compose a type guard: " + err.Error()
		}
		if strings.TrimSpace(f.sqlText) != guard {
			return "the SQL rewrite is not the type guard the record's per-type tests compose, so a type they do not name might not be rejected"
		}
		return ""
	}()
	if stale != "" {
		c.fail(StaleUDF, stale, nil)
		return false
	}
	if problem != "" {
		c.fail(InconsistentRecord, problem, c.recordLoc())
		return false
	}
	return true
}

// perTypeEntries reads a record's per-type tests: the parameter names
// they guard (the same, in the same order, in every entry) and each
// entry's types.
func perTypeEntries(rec *evidence.Record) (names []string, entries []perTypeEntry, problem string) {
	if n := len(rec.PerType); n > MaxPerType {
		return nil, nil, fmt.Sprintf("the record lists %d per-type tests; udfx proves at most %d", n, MaxPerType)
	}
	seen := map[string]bool{}
	for i, p := range rec.PerType {
		var ns, parts []string
		var ts []*udf.Type
		for _, pt := range p.Types {
			t, err := udf.ParseType(pt.Type)
			if err != nil {
				return nil, nil, fmt.Sprintf("per-type test %d: type of %s: %v", i+1, pt.Name, err)
			}
			ns, ts = append(ns, pt.Name), append(ts, t)
			parts = append(parts, pt.Name+" "+t.String())
		}
		if i == 0 {
			names = ns
		}
		if len(ns) == 0 || !slices.Equal(ns, names) {
			return nil, nil, fmt.Sprintf("per-type test %d names parameters (%s), the first names (%s)", i+1, strings.Join(ns, ", "), strings.Join(names, ", "))
		}
		label := strings.Join(parts, ", ")
		if seen[label] {
			return nil, nil, "the record lists the per-type test of " + label + " twice"
		}
		seen[label] = true
		if p.Result != evidence.Verified {
			return nil, nil, fmt.Sprintf("the per-type test of %s is %q, not %q", label, p.Result, evidence.Verified)
		}
		entries = append(entries, perTypeEntry{proof: p, types: ts, label: label})
	}
	return names, entries, ""
}

// rerunPerType re-runs the differential test of the type guard with the
// types of every per-type test after the first (the top-level re-run is
// the first's), each on its recorded inputs' hash.
func (c *recordCheck) rerunPerType(ctx context.Context, u *udf.UDF, f rewriteFiles) {
	if len(c.rec.PerType) < 2 || c.v.opts.SkipRerun || f.sqlIdx < 0 || c.items[f.sqlIdx].Status != Pass {
		return
	}
	names, entries := c.guardNames, c.guardEntries
	it := &c.items[f.sqlIdx]
	var done []string
	for _, e := range entries[1:] {
		ue := *u
		ue.Params = slices.Clone(u.Params)
		for i, name := range names {
			for j := range ue.Params {
				if ue.Params[j].Name == name {
					ue.Params[j].Type = e.types[i]
				}
			}
		}
		rec := *c.rec
		rec.InputsSHA256 = e.proof.InputsSHA256
		if problem, err := checkInputs(&rec, &ue); err != nil || problem != "" {
			if err != nil {
				problem = err.Error()
			}
			it.Status, it.Detail = InconsistentRecord, "per-type test of "+e.label+": "+problem
			return
		}
		scratch := *it
		c.v.rerun(ctx, &rec, &ue, &scratch, f.sqlText, c.pol)
		if scratch.Status != Pass {
			it.Status, it.Detail, it.Counterexample = scratch.Status, "with "+e.label+": "+scratch.Detail, scratch.Counterexample
			return
		}
		done = append(done, e.label)
	}
	it.Detail += "; the type guard re-run the same way with " + strings.Join(done, "; ")
}
