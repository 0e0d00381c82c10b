package difftest

import (
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/udfx/udfx/harness/inputs"
	"github.com/udfx/udfx/harness/value"
)

// maxHarvest bounds how much of a source file is read for its literals.
const maxHarvest = 1 << 20

// readHead is the start of the file at path, up to maxHarvest bytes.
func readHead(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHarvest))
	return string(b), err
}

// nearMissRows are inputs.NearMissRows for the literals of the original's
// file and of the rewrite's text, with the other columns from the first
// random row of the seeded rows (else the first row). A file that cannot
// be read adds no literals: the test then has fewer rows, not a wrong one.
func nearMissRows(params []inputs.Param, rows [][]value.Value, st inputs.Stats, origFile, rewrite string) [][]value.Value {
	var lits inputs.Literals
	if src, err := readHead(origFile); err == nil {
		lits.Harvest(src)
	}
	lits.Harvest(rewrite)
	var base []value.Value
	switch i := st.SpecialRows + st.NullRows; {
	case i < len(rows) && st.RandomRows > 0:
		base = rows[i]
	case len(rows) > 0:
		base = rows[0]
	}
	return inputs.NearMissRows(params, lits, base)
}

// appendRows is rec with rows after its own, in its schema.
func appendRows(rec arrow.RecordBatch, rows [][]value.Value, mem memory.Allocator) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(mem, rec.Schema())
	defer b.Release()
	for _, row := range rows {
		for j, v := range row {
			if err := value.Append(b.Field(j), v); err != nil {
				return nil, err
			}
		}
	}
	extra := b.NewRecordBatch()
	defer extra.Release()
	return concat(rec, extra, mem)
}
