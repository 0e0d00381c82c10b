package udf

import "fmt"

// Classify gives advice on each rewrite target from what the front-end
// found: the UDF's kind and language, its types and the blockers in its
// body. It is advice only: the differential tests of later stages prove or
// disprove it.
func Classify(u *UDF) []TargetAdvice {
	out := make([]TargetAdvice, 0, len(Targets))
	for _, t := range Targets {
		reasons := targetBlockers(u, t)
		feasible := len(reasons) == 0
		if feasible {
			reasons = []string{feasibleReason(u, t)}
		}
		out = append(out, TargetAdvice{Target: t, Feasible: feasible, Reasons: reasons})
	}
	if u.Kind == KindRDDPipeline {
		out = append(out, TargetAdvice{Target: TargetDataFrame, Feasible: true,
			Reasons: []string{"a chain of RDD transformations; DataFrame code may compute the same multiset of results (udfx rewrite checks each step)"}})
	}
	return out
}

func feasibleReason(u *UDF, t Target) string {
	switch t {
	case TargetSQL:
		if u.Kind == KindPandasUDF {
			return "a series-to-series pandas_udf over double columns; elementwise arithmetic on its Series may read as SQL (NULL in as NaN, NaN out as NULL)"
		}
		return "body is a pure expression of its parameters; a Spark SQL expression may express it exactly"
	case TargetColumnar:
		return "pure JVM code; cuDF column operations may express it as a RapidsUDF"
	case TargetCUDA:
		if hasBlocker(u, BlockerLoop) {
			return "fixed-width types; the loop can run per row in a kernel"
		}
		return "fixed-width types and pure per-row code; a kernel can evaluate it per row"
	case TargetVectorizedPython:
		if u.Kind == KindPandasUDF {
			return "a pandas_udf that loops in Python; numba may compile its per-row function"
		}
		if hasBlocker(u, BlockerLoop) {
			return "pure per-row Python; the loop needs numba to vectorize"
		}
		return "pure per-row Python; pandas/numpy operations may express it over whole batches"
	}
	return ""
}

func hasBlocker(u *UDF, k BlockerKind) bool {
	for _, b := range u.Blockers {
		if b.Kind == k {
			return true
		}
	}
	return false
}

// blockersFor lists, per target, the blocker kinds that rule it out.
var blockersFor = map[Target][]BlockerKind{
	TargetSQL:              {BlockerIO, BlockerNetwork, BlockerNondeterminism, BlockerMutableState, BlockerExceptionHandler, BlockerLoop, BlockerUnknownCall},
	TargetColumnar:         {BlockerIO, BlockerNetwork, BlockerNondeterminism, BlockerMutableState, BlockerExceptionHandler, BlockerLoop, BlockerUnknownCall},
	TargetCUDA:             {BlockerIO, BlockerNetwork, BlockerNondeterminism, BlockerMutableState, BlockerExceptionHandler, BlockerUnknownCall},
	TargetVectorizedPython: {BlockerIO, BlockerNetwork, BlockerNondeterminism, BlockerMutableState, BlockerExceptionHandler, BlockerUnknownCall},
}

func targetBlockers(u *UDF, t Target) []string {
	var reasons []string
	if u.Kind == KindRDDPipeline {
		return []string{"a chain of RDD transformations, not one function: its target is dataframe, the whole chain as DataFrame code"}
	}
	switch t {
	case TargetSQL:
		switch u.Kind {
		case KindPandasUDF:
			if !PandasSQLCandidate(u) {
				reasons = append(reasons, "pandas_udf code works on whole batches, not on one row's values")
			}
		case KindRDDLambda:
			reasons = append(reasons, "an RDD transformation, not a column expression: the job must move to DataFrames first")
		case KindHiveGenericUDF:
			reasons = append(reasons, "GenericUDF logic goes through ObjectInspectors the source does not pin down")
		}
	case TargetColumnar, TargetCUDA:
		if u.Language == Python {
			reasons = append(reasons, "RapidsUDF is a JVM interface: Python UDFs take the vectorized-python target")
		}
		if u.Kind == KindHiveGenericUDF {
			reasons = append(reasons, "GenericUDF logic goes through ObjectInspectors the source does not pin down")
		}
		if t == TargetCUDA && u.Language != Python {
			for _, p := range u.Params {
				if p.Type == nil || !p.Type.IsFixedWidth() {
					reasons = append(reasons, fmt.Sprintf("parameter %s is %s, not a fixed-width type a kernel reads per row", p.Name, p.Type))
				}
			}
			if u.Return != nil && !u.Return.IsFixedWidth() {
				reasons = append(reasons, fmt.Sprintf("returns %s, not a fixed-width type a kernel writes per row", u.Return))
			}
		}
	case TargetVectorizedPython:
		switch {
		case u.Language != Python:
			reasons = append(reasons, "vectorized Python replaces Python UDFs only")
		case u.Kind == KindPandasUDF && !hasBlocker(u, BlockerLoop):
			reasons = append(reasons, "already a vectorized pandas_udf")
		case u.Kind == KindRDDLambda:
			reasons = append(reasons, "an RDD transformation, not a column expression: the job must move to DataFrames first")
		}
	}
	if u.Return == nil && u.Kind != KindRDDLambda {
		reasons = append(reasons, "the return type is not known from the source")
	}
	for _, p := range u.Params {
		// Python parameters take the type of the column at the call site,
		// so only JVM UDFs are expected to pin them down in source.
		if p.Type == nil && u.Language != Python {
			reasons = append(reasons, fmt.Sprintf("the Spark type of parameter %s is not known from the source", p.Name))
		}
	}
	for _, b := range u.Blockers {
		for _, k := range blockersFor[t] {
			if b.Kind == k {
				reasons = append(reasons, fmt.Sprintf("%s at %d:%d: %s", b.Kind, b.Span.Start.Line, b.Span.Start.Column, b.Detail))
			}
		}
	}
	return reasons
}

// PandasSQLCandidate tells whether the built-in translator reads u's body
// as SQL at all: a series-to-series pandas_udf returning a double or a
// boolean, whose parameters are double columns (or of types not known
// yet). Other pandas_udfs keep the vectorized-python target alone.
func PandasSQLCandidate(u *UDF) bool {
	if u.Kind != KindPandasUDF || u.PandasFlavor != PandasSeriesToSeries || u.Return == nil || (u.Return.Kind != Double && u.Return.Kind != Boolean) {
		return false
	}
	for _, p := range u.Params {
		if p.Type != nil && p.Type.Kind != Double {
			return false
		}
	}
	return len(u.Params) > 0
}
