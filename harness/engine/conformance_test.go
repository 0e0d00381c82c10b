package engine

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// conformanceCase is one line of testdata/conformance/*.jsonl, generated
// by real Apache Spark (see the generator there for the version).
type conformanceCase struct {
	ID      string `json:"id"`
	Expr    string `json:"expr"`
	Columns []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"columns"`
	Rows       [][]string        `json:"rows"`
	ANSI       bool              `json:"ansi"`
	ResultType string            `json:"result_type"`
	Results    []json.RawMessage `json:"results"`
}

type expectedError struct {
	Error *struct {
		Class     string `json:"class"`
		Condition string `json:"condition"`
	} `json:"error"`
}

func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		line := 0
		for sc.Scan() {
			line++
			if len(sc.Bytes()) == 0 {
				continue
			}
			var c conformanceCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Errorf("%s:%d: %v", file, line, err)
				continue
			}
			total++
			runConformance(t, file, line, &c)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	t.Logf("%d conformance cases in %d files", total, len(files))
}

func runConformance(t *testing.T, file string, line int, c *conformanceCase) {
	t.Helper()
	where := file + ":" + itoa(line) + " " + c.ID + " " + c.Expr
	cols := make([]Column, len(c.Columns))
	fields := make([]arrow.Field, len(c.Columns))
	arrs := make([]arrow.Array, len(c.Columns))
	for i, col := range c.Columns {
		ty, err := udf.ParseType(col.Type)
		if err != nil {
			t.Errorf("%s: column type: %v", where, err)
			return
		}
		cols[i] = Column{Name: col.Name, Type: ty}
		at, err := value.ArrowType(ty)
		if err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		b := array.NewBuilder(memory.DefaultAllocator, at)
		for _, row := range c.Rows {
			v, err := value.ParseToken(row[i])
			if err != nil {
				t.Errorf("%s: input token %q: %v", where, row[i], err)
				return
			}
			if err := value.Append(b, v); err != nil {
				t.Errorf("%s: input %q: %v", where, row[i], err)
				return
			}
		}
		arrs[i] = b.NewArray()
		defer arrs[i].Release()
		b.Release()
		fields[i] = arrow.Field{Name: col.Name, Type: at, Nullable: true}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(len(c.Rows)))
	defer rec.Release()
	e, err := Compile(c.Expr, cols, Options{ANSI: c.ANSI})
	if err != nil {
		t.Errorf("%s (ansi=%v): compile: %v", where, c.ANSI, err)
		return
	}
	if got := e.Type().String(); got != c.ResultType {
		t.Errorf("%s (ansi=%v): type %s, Spark says %s", where, c.ANSI, got, c.ResultType)
	}
	res, err := e.Eval(rec, memory.DefaultAllocator)
	if err != nil {
		t.Errorf("%s: eval: %v", where, err)
		return
	}
	defer res.Values.Release()
	rowErrs := map[int]RowError{}
	for _, re := range res.Errors {
		rowErrs[re.Row] = re
	}
	for i, raw := range c.Results {
		var ee expectedError
		if json.Unmarshal(raw, &ee) == nil && ee.Error != nil {
			re, ok := rowErrs[i]
			if !ok || re.Condition != ee.Error.Condition {
				t.Errorf("%s (ansi=%v) row %d: got %s / %+v, Spark raises %s", where, c.ANSI, i, value.Token(value.FromArrow(res.Values, i)), re, ee.Error.Condition)
			}
			continue
		}
		var tok string
		if err := json.Unmarshal(raw, &tok); err != nil {
			t.Errorf("%s row %d: result %s: %v", where, i, raw, err)
			continue
		}
		want, err := value.ParseToken(tok)
		if err != nil {
			t.Errorf("%s row %d: result token %q: %v", where, i, tok, err)
			continue
		}
		if re, ok := rowErrs[i]; ok {
			t.Errorf("%s (ansi=%v) row %d: got error %s (%s), Spark returns %s", where, c.ANSI, i, re.Condition, re.Message, tok)
			continue
		}
		got := value.FromArrow(res.Values, i)
		if !(value.Policy{}).Equal(want, got) {
			t.Errorf("%s (ansi=%v) row %d: got %s, Spark returns %s", where, c.ANSI, i, value.Token(got), tok)
		}
	}
}
