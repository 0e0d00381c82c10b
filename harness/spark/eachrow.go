package spark

import (
	"context"
	"fmt"
	"os"

	"github.com/udfx/udfx/harness/value"
)

// RowsResult is what each side of a job did on each input row, every row
// run as a Spark job of its own.
type RowsResult struct {
	Original *SideRows // nil when the job had no UDF
	Rewrite  *SideRows // nil when the job had no rewrite
}

// SideRows is one side's jobs, one per row.
type SideRows struct {
	// Values has one value per input row, in input order: what the side
	// returned, or, where the row's job failed, a value.Error with the
	// exception's class, message and error condition.
	Values []value.Value
	// Errs has the failed job of each row that failed (nil elsewhere).
	Errs []*JobError
	// Seconds is the wall time of all the side's jobs.
	Seconds float64
}

type rowsWire struct {
	Errors []struct {
		Row   int        `json:"row"`
		Error *wireError `json:"error"`
	} `json:"errors"`
	Rows    int     `json:"rows"`
	Out     string  `json:"out"`
	Seconds float64 `json:"seconds"`
}

// RunEachRow runs each side on each of the job's rows in a Spark job of
// its own. A Spark job stops at its first exception without saying on
// which row, so where a side throws on some rows, only a job per row
// shows what it does on each. It costs a job per row and side: keep the
// input to the rows that need it.
func (s *Session) RunEachRow(ctx context.Context, job Job) (*RowsResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var reply struct {
		Original *rowsWire `json:"original"`
		Rewrite  *rowsWire `json:"rewrite"`
	}
	req, err := s.callJob(ctx, job, "each_row", &reply)
	if err != nil {
		return nil, err
	}
	rows := int(job.Input.NumRows())
	res := &RowsResult{}
	if req.orig != nil {
		if res.Original, err = s.sideRows(Original, reply.Original, rows); err != nil {
			return nil, err
		}
	}
	if job.Rewrite != "" {
		if res.Rewrite, err = s.sideRows(Rewrite, reply.Rewrite, rows); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// sideRows checks that every row has either a result or an error, never
// both.
func (s *Session) sideRows(side Side, w *rowsWire, rows int) (*SideRows, error) {
	bad := func(msg string, args ...any) error {
		return &SessionError{Msg: fmt.Sprintf("each_row %s: "+msg, append([]any{side}, args...)...), Log: s.logPath}
	}
	if w == nil {
		return nil, bad("the driver sent no result")
	}
	r := &SideRows{Values: make([]value.Value, rows), Errs: make([]*JobError, rows), Seconds: w.Seconds}
	seen := make([]bool, rows)
	if w.Out != "" {
		vals, got, _, err := readSomeResults(w.Out, rows)
		if err != nil {
			return nil, fmt.Errorf("spark: %w", err)
		}
		os.Remove(w.Out)
		copy(r.Values, vals)
		copy(seen, got)
	}
	for _, e := range w.Errors {
		if e.Row < 0 || e.Row >= rows || seen[e.Row] || e.Error == nil {
			return nil, bad("row %d has no error or also a result", e.Row)
		}
		seen[e.Row] = true
		je := e.Error.jobError(side, s.logPath)
		r.Errs[e.Row] = je
		v := value.ErrorOf(je.Class, je.Message)
		v.Condition = je.Condition
		r.Values[e.Row] = v
	}
	for k, ok := range seen {
		if !ok {
			return nil, bad("row %d has neither a result nor an error", k)
		}
	}
	return r, nil
}
