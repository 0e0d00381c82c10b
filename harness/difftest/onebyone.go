package difftest

import (
	"context"
	"fmt"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/value"
)

// thrownRows are the rows on which the original throws in udfx's runner,
// as both sides did on each in a Spark job of its own.
type thrownRows struct {
	rows     [][]value.Value
	index    []int // of each row among the generated inputs
	original []value.Value
	rewrite  []value.Value
}

// thrownBy takes the rows not kept (those on which the original throws
// in udfx's runner), after the original's job over all rows failed
// (failed); more than MaxRowsOneByOne is an *OriginalError. Nothing runs
// yet: run does, once the rest has passed.
func thrownBy(rows [][]value.Value, kept []int, failed *spark.JobError) (*thrownRows, error) {
	t := &thrownRows{}
	next := 0
	for i := range rows {
		if next < len(kept) && kept[next] == i {
			next++
			continue
		}
		t.rows = append(t.rows, rows[i])
		t.index = append(t.index, i)
	}
	if len(t.rows) > MaxRowsOneByOne {
		return nil, &OriginalError{Err: fmt.Errorf("the original throws on %d of the %d generated rows (%w); a Spark job stops at its first exception, so each of those rows is a job of its own, and udfx runs at most %d", len(t.rows), len(rows), failed, MaxRowsOneByOne)}
	}
	return t, nil
}

// run runs both sides on each row, one row a Spark job. Spark is the
// authority on each row: a row on which the original returns a value
// there is compared like any other.
func (t *thrownRows) run(ctx context.Context, st *sparkTest) error {
	st.progress(fmt.Sprintf("running both sides on each of the %d rows the original throws on, one Spark job a row", len(t.rows)))
	rec, err := BuildRecord(st.params, t.rows, st.mem)
	if err != nil {
		return err
	}
	defer rec.Release()
	ansi := st.ansi
	res, err := st.s.RunEachRow(ctx, spark.Job{UDF: st.u, Rewrite: st.rw.SQL, Input: rec, ANSI: &ansi})
	if err != nil {
		return err
	}
	t.original, t.rewrite = res.Original.Values, res.Rewrite.Values
	return nil
}

// tallyInto adds the rows to rep; the first that disagrees is the
// counterexample, unshrunk (shrinking runs both sides on rows that do not
// throw).
func (t *thrownRows) tallyInto(rep *Report, params []inputs.Param, opts Options) {
	rep.OneByOneRows = len(t.rows)
	bad := tally(rep, opts, t.original, t.rewrite)
	if bad < 0 {
		return
	}
	ce := &Counterexample{Original: JSONValue{t.original[bad]}, Rewrite: JSONValue{t.rewrite[bad]}, Row: t.index[bad]}
	for i, p := range params {
		ce.Inputs = append(ce.Inputs, NamedValue{Name: p.Name, Value: JSONValue{t.rows[bad][i]}})
	}
	rep.Counterexample = ce
}
