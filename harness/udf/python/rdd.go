package python

import (
	"sort"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/udfx/udfx/harness/udf"
)

// rddFunctionArgs maps each RDD transformation to the positions of its
// function arguments (fold's first argument is the zero value, ...).
var rddFunctionArgs = map[string][]int{
	"map": {0}, "flatMap": {0}, "filter": {0}, "mapValues": {0}, "flatMapValues": {0},
	"reduceByKey": {0}, "reduce": {0}, "fold": {1}, "foldByKey": {1},
	"aggregate": {1, 2}, "aggregateByKey": {1, 2}, "combineByKey": {0, 1, 2},
	"groupBy": {0}, "keyBy": {0}, "sortBy": {0},
	"mapPartitions": {0}, "mapPartitionsWithIndex": {0},
	"foreach": {0}, "foreachPartition": {0},
	"treeReduce": {0}, "treeAggregate": {1, 2},
}

// rddFunctionKeywords are the parameter names PySpark's RDD methods give
// their function arguments.
var rddFunctionKeywords = map[string]bool{
	"f": true, "func": true, "op": true, "seqOp": true, "combOp": true,
	"seqFunc": true, "combFunc": true, "createCombiner": true,
	"mergeValue": true, "mergeCombiners": true, "keyfunc": true,
}

// rddCandidate is one function argument of an RDD transformation.
type rddCandidate struct {
	call *sitter.Node
	op   string
	arg  *sitter.Node
	// body is the lambda or def Spark runs; nil for a function from
	// elsewhere.
	body *sitter.Node
}

// findRDD makes a UDF of every lambda, def or imported function passed to
// an RDD transformation, leaving out calls inside UDF bodies (pandas
// Series.map there is no RDD operation) and inside other RDD functions
// (Spark cannot nest RDD operations, so those are plain Python calls).
func (sc *scan) findRDD() {
	var bodies []*sitter.Node
	callables := map[string]bool{}
	for _, f := range sc.found {
		if f.body != nil {
			bodies = append(bodies, f.body)
		}
		for _, c := range f.callables {
			callables[c] = true
		}
	}
	var cands []rddCandidate
	for _, call := range sc.calls {
		fn := field(call, "function")
		if fn == nil || kindOf(fn) != "attribute" {
			continue
		}
		op := sc.text(field(fn, "attribute"))
		positions, ok := rddFunctionArgs[op]
		if !ok || within(call, bodies) {
			continue
		}
		a := sc.argsOf(call)
		var args []*sitter.Node
		for _, i := range positions {
			if i < len(a.pos) {
				args = append(args, a.pos[i])
			}
		}
		for k, v := range a.kw {
			if rddFunctionKeywords[k] && v != nil {
				args = append(args, v)
			}
		}
		sort.Slice(args, func(i, j int) bool { return args[i].StartByte() < args[j].StartByte() })
		for _, arg := range args {
			switch kindOf(arg) {
			case "lambda":
				cands = append(cands, rddCandidate{call: call, op: op, arg: arg, body: arg})
			case "identifier", "attribute":
				d, ok := sc.dotted(arg)
				if !ok || callables[d] {
					continue
				}
				if def := sc.defs[d]; def != nil && kindOf(arg) == "identifier" {
					cands = append(cands, rddCandidate{call: call, op: op, arg: arg, body: def})
				} else if sc.isImported(d) {
					cands = append(cands, rddCandidate{call: call, op: op, arg: arg})
				}
			}
		}
	}
	var candBodies []*sitter.Node
	for _, c := range cands {
		if c.body != nil {
			candBodies = append(candBodies, c.body)
		}
	}
	byName := map[string]*found{}
	for _, c := range cands {
		if within(c.call, candBodies) {
			continue
		}
		if c.body != nil && kindOf(c.body) == "lambda" {
			span := sc.src.Span(c.body)
			sc.found = append(sc.found, &found{
				u: udf.UDF{
					Name:         lambdaName(span),
					Language:     udf.Python,
					Kind:         udf.KindRDDLambda,
					RDDOperation: c.op,
					File:         sc.src.Path,
					Span:         span,
					BodySpan:     span,
					Params:       sc.params(c.body, false),
				},
				body: c.body,
			})
			continue
		}
		name, _ := sc.dotted(c.arg)
		use := udf.UseSite{Kind: udf.UseReference, Span: sc.src.Span(c.arg), Text: sc.text(c.arg)}
		if f := byName[name]; f != nil {
			f.u.UseSites = append(f.u.UseSites, use)
			continue
		}
		f := &found{
			u: udf.UDF{
				Name:         name,
				Language:     udf.Python,
				Kind:         udf.KindRDDLambda,
				RDDOperation: c.op,
				File:         sc.src.Path,
				UseSites:     []udf.UseSite{use},
			},
			body: c.body,
		}
		if c.body != nil {
			f.u.Span = sc.src.Span(c.body)
			f.u.Params = sc.params(c.body, false)
		} else {
			f.u.Span = sc.src.Span(c.arg)
			f.external = name
			f.externalNode = c.arg
		}
		f.u.BodySpan = f.u.Span
		byName[name] = f
		sc.found = append(sc.found, f)
	}
}

// within is true when n lies inside one of the nodes (not being it).
func within(n *sitter.Node, nodes []*sitter.Node) bool {
	for _, b := range nodes {
		if b.StartByte() <= n.StartByte() && n.EndByte() <= b.EndByte() && b.Id() != n.Id() {
			return true
		}
	}
	return false
}
