// Package pertype proves a UDF whose parameter types no source gives, one
// type at a time, instead of stopping: each assignment of the types the
// body may admit (typeinfer.PerTypeChoices) is translated, the rewrites
// are composed into one typeof guard (sparksql.TypeGuard), and the guard
// is tested with each assignment's types. The guard keeps only the
// verified assignments and makes Spark reject every other type, so the
// rewrite holds wherever it runs. The translator and the test are the
// caller's (harness/rewrite, the corpus tests).
package pertype

import (
	"errors"
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/render/sparksql"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/typeinfer"
)

// Bounds: the assignments the translator is asked about (it is quick),
// and the ones the differential test then runs (each runs the original).
const (
	MaxAssignments = 100
	MaxProved      = 8
)

// Verdicts of a Verdict.
const (
	Verified = "verified"
	Refuted  = "refuted"
	Declined = "declined"
	NotTried = "not tried"
)

// Verdict is what proving found for one assignment of types.
type Verdict struct {
	// Types is "price double" or "a string, b int".
	Types   string `json:"types"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

// Assignment is u with types given to the parameters no source types.
type Assignment struct {
	// UDF is a copy of u with those types, each with source
	// udf.TypeFromPerType.
	UDF *udf.UDF
	// Names are the parameters it types, Types their types.
	Names []string
	Types []*udf.Type
	// Label names it: "score double".
	Label string
}

// Branch is an assignment with the rewrite the translator gave for it.
type Branch struct {
	Assignment
	SQL string
}

// Translation is what the translator gave for an assignment: its SQL,
// or the reason it declined ("construct: reason").
type Translation struct {
	SQL     string
	Decline string
}

// Test is the differential test of guard with a's types, in round 1, 2.
// ok is whether it passed; otherwise verdict (Refuted or Declined) and
// reason say why.
type Test func(a Assignment, guard string, round int) (ok bool, verdict, reason string, err error)

// Result is the proof: the guard over the proved branches (empty when no
// type was proved) and the verdict of every assignment, the verified
// first, in the guard's order.
type Result struct {
	Guard    string
	Names    []string
	Proved   []Branch
	Verdicts []Verdict
}

// ErrTooMany is returned when the assignments exceed MaxAssignments.
var ErrTooMany = errors.New("too many assignments of types to prove one by one")

// Assignments lists every assignment of typeinfer.PerTypeChoices to the
// parameters of u that no source types, in the choices' order.
func Assignments(u *udf.UDF, src []byte) ([]Assignment, error) {
	names, choices := typeinfer.PerTypeChoices(u, src)
	if len(names) == 0 {
		return nil, fmt.Errorf("every parameter of %s has a type", u.Name)
	}
	combos := [][]*udf.Type{nil}
	for _, cs := range choices {
		var next [][]*udf.Type
		for _, c := range combos {
			for _, t := range cs {
				next = append(next, append(append([]*udf.Type(nil), c...), t))
			}
		}
		combos = next
		if len(combos) > MaxAssignments {
			return nil, fmt.Errorf("%w: more than %d for %s", ErrTooMany, MaxAssignments, strings.Join(names, ", "))
		}
	}
	out := make([]Assignment, len(combos))
	for i, c := range combos {
		out[i] = typed(u, names, c)
	}
	return out, nil
}

// Prove translates each assignment, composes the guard over those the
// translator rewrote (at most MaxProved), and tests it with each one's
// types. The verified stay; when some failed, the smaller guard is tested
// again, so the guard returned is the one every kept branch passed with.
func Prove(u *udf.UDF, as []Assignment, translate func(Assignment) (Translation, error), test Test) (*Result, error) {
	res := &Result{}
	var failed []Verdict
	var branches []Branch
	for _, a := range as {
		res.Names = a.Names
		tr, err := translate(a)
		if err != nil {
			return nil, fmt.Errorf("translate for %s: %w", a.Label, err)
		}
		switch {
		case tr.SQL == "":
			reason := tr.Decline
			if reason == "" {
				reason = "the translator gave no rewrite"
			}
			failed = append(failed, Verdict{Types: a.Label, Verdict: Declined, Reason: reason})
		case len(branches) == MaxProved:
			failed = append(failed, Verdict{Types: a.Label, Verdict: NotTried, Reason: fmt.Sprintf("udfx proves at most %d types per UDF", MaxProved)})
		default:
			branches = append(branches, Branch{Assignment: a, SQL: tr.SQL})
		}
	}
	for round := 1; len(branches) > 0; round++ {
		bs := make([]sparksql.TypeBranch, len(branches))
		for i, b := range branches {
			bs[i] = sparksql.TypeBranch{Types: b.Types, SQL: b.SQL}
		}
		guard, err := sparksql.TypeGuard(u.Name, res.Names, bs)
		if err != nil {
			return nil, err
		}
		var kept []Branch
		for _, b := range branches {
			ok, verdict, reason, err := test(b.Assignment, guard, round)
			if err != nil {
				return nil, err
			}
			if ok {
				kept = append(kept, b)
				continue
			}
			failed = append(failed, Verdict{Types: b.Label, Verdict: verdict, Reason: reason})
		}
		if len(kept) == len(branches) {
			res.Guard, res.Proved = guard, kept
			break
		}
		if round == 2 && len(kept) > 0 {
			// A branch that passed beside others and fails beside fewer
			// would be a guard that does not select by type alone.
			return nil, fmt.Errorf("per type: the guard's verdicts for %s changed when refuted branches were dropped", u.Name)
		}
		branches = kept
	}
	for _, b := range res.Proved {
		res.Verdicts = append(res.Verdicts, Verdict{Types: b.Label, Verdict: Verified})
	}
	res.Verdicts = append(res.Verdicts, failed...)
	return res, nil
}

// typed is u with the named parameters given types ts, each with its
// source.
func typed(u *udf.UDF, names []string, ts []*udf.Type) Assignment {
	cp := *u
	cp.Params = append([]udf.Param(nil), u.Params...)
	cp.TypeSources = nil
	var parts []string
	for j, name := range names {
		for i := range cp.Params {
			if cp.Params[i].Name == name {
				cp.Params[i].Type = ts[j]
			}
		}
		parts = append(parts, name+" "+ts[j].String())
	}
	source := func(name string, t *udf.Type, why string) udf.TypeSource {
		d := "one of the types it was proved for, one by one"
		if why != "" {
			d += " (no source gives it: " + why + ")"
		}
		return udf.TypeSource{Name: name, Type: t, Source: udf.TypeFromPerType, Detail: d}
	}
	given := map[string]bool{}
	for _, s := range u.TypeSources {
		for j, name := range names {
			if s.Name == name {
				s, given[name] = source(name, ts[j], s.Detail), true
			}
		}
		cp.TypeSources = append(cp.TypeSources, s)
	}
	for j, name := range names {
		if !given[name] {
			cp.TypeSources = append(cp.TypeSources, source(name, ts[j], ""))
		}
	}
	return Assignment{UDF: &cp, Names: names, Types: ts, Label: strings.Join(parts, ", ")}
}
