package difftest

import (
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/value"
)

// maxHarvest bounds how much of a source file is read for its literals.
const maxHarvest = 1 << 20

// harvestFile adds the literals of the file at path to lits; a file that
// cannot be read adds none (the test then has fewer rows, not a wrong
// one).
func harvestFile(lits *inputs.Literals, path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxHarvest))
	lits.Harvest(string(b))
}

// baseRow is the row the near misses take their other columns from: the
// first random row, else the first row, else nulls.
func baseRow(rows [][]value.Value, st inputs.Stats) []value.Value {
	if i := st.SpecialRows + st.NullRows; i < len(rows) && st.RandomRows > 0 {
		return rows[i]
	}
	if len(rows) > 0 {
		return rows[0]
	}
	return nil
}

// nearMissBatch is inputs.NearMissRows for u and the SQL rewrite sql, as
// a batch of rec's schema; nil when there are none.
func nearMissBatch(u *udf.UDF, sql string, params []inputs.Param, rec arrow.RecordBatch, st inputs.Stats, mem memory.Allocator) (arrow.RecordBatch, error) {
	var lits inputs.Literals
	harvestFile(&lits, u.File)
	lits.Harvest(sql)
	var base []value.Value
	if i := st.SpecialRows + st.NullRows; i < int(rec.NumRows()) {
		base = make([]value.Value, rec.NumCols())
		for j, c := range rec.Columns() {
			base[j] = value.FromArrow(c, i)
		}
	}
	rows := inputs.NearMissRows(params, lits, base)
	if len(rows) == 0 {
		return nil, nil
	}
	b := array.NewRecordBuilder(mem, rec.Schema())
	defer b.Release()
	for _, row := range rows {
		for j, v := range row {
			if err := value.Append(b.Field(j), v); err != nil {
				return nil, err
			}
		}
	}
	return b.NewRecordBatch(), nil
}
