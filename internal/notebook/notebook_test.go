package notebook

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readSales(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/sales.ipynb")
	require.NoError(t, err)
	return raw
}

func TestCode(t *testing.T) {
	n, err := Parse(readSales(t))
	require.NoError(t, err)
	assert.Equal(t, `# %% [udfx] cell 2
#udfx-magic:%pip install pyspark
from pyspark.sql.functions import udf, col
from pyspark.sql.types import StringType
# %% [udfx] cell 3
@udf(returnType=StringType())
def band(price):
    return "high" if price > 100.0 else "low"

df = spark.table("sales")
df.select(band(col("price"))).show()
# %% [udfx] cell 4
#udfx-magic:%%sql
#udfx-magic:SELECT * FROM sales
`, string(n.Code()))

	other, err := Code("job.py", []byte("x = 1\n"))
	require.NoError(t, err)
	assert.Equal(t, "x = 1\n", string(other))
}

// An edit of one cell's Python rewrites that cell's source alone, in its
// layout; outputs, metadata and the other cells stay byte for byte.
func TestUpdateTouchesOnlyTheEditedCell(t *testing.T) {
	raw := readSales(t)
	n, err := Parse(raw)
	require.NoError(t, err)
	same, err := n.Update(n.Code())
	require.NoError(t, err)
	assert.Equal(t, raw, same)

	code := strings.Replace(string(n.Code()), `df.select(band(col("price"))).show()`, `df.select(expr("CASE WHEN price > 100.0D THEN 'high' ELSE 'low' END")).show()`, 1)
	code = strings.Replace(code, "from pyspark.sql.functions import udf, col\n", "from pyspark.sql.functions import udf, col, expr\n", 1)
	out, err := n.Update([]byte(code))
	require.NoError(t, err)
	want := strings.Replace(string(raw), `"df.select(band(col(\"price\"))).show()"`, `"df.select(expr(\"CASE WHEN price > 100.0D THEN 'high' ELSE 'low' END\")).show()"`, 1)
	want = strings.Replace(want, `"from pyspark.sql.functions import udf, col\n",`, `"from pyspark.sql.functions import udf, col, expr\n",`, 1)
	assert.Equal(t, want, string(out), "the magic line and the last line's missing newline are as they were")

	back, err := Parse(out)
	require.NoError(t, err)
	assert.Equal(t, code, string(back.Code()))
}

// A cell held as one string stays one string; a line added to a cell is
// one more element.
func TestUpdateLayouts(t *testing.T) {
	raw := []byte(`{"cells": [{"cell_type": "code", "source": "a = 1\nb = 2", "outputs": [], "metadata": {}},
{"cell_type": "code", "source": ["c = 3\n", "d = 4\n"], "outputs": [], "metadata": {}}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}`)
	n, err := Parse(raw)
	require.NoError(t, err)
	code := strings.Replace(string(n.Code()), "b = 2\n", "b = 22\n", 1)
	code = strings.Replace(code, "d = 4\n", "d = 4\ne = 5\n", 1)
	out, err := n.Update([]byte(code))
	require.NoError(t, err)
	assert.Equal(t, `{"cells": [{"cell_type": "code", "source": "a = 1\nb = 22", "outputs": [], "metadata": {}},
{"cell_type": "code", "source": ["c = 3\n","d = 4\n","e = 5\n"], "outputs": [], "metadata": {}}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}`, string(out))

	_, err = n.Update([]byte(strings.Replace(code, "# %% [udfx] cell 2\n", "", 1)))
	assert.ErrorContains(t, err, "1 cell headers, the notebook 2 code cells")
}

// A Python line added under a cell magic would be the magic's input, not
// Python: Update refuses it, and keeps the magic's own lines editable.
func TestUpdateRefusesPythonUnderACellMagic(t *testing.T) {
	raw := []byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "%%sql\nSELECT * FROM sales"}]}`)
	n, err := Parse(raw)
	require.NoError(t, err)
	code := string(n.Code())
	require.Equal(t, "# %% [udfx] cell 1\n#udfx-magic:%%sql\n#udfx-magic:SELECT * FROM sales\n", code)

	_, err = n.Update([]byte(code + "x = 1\n"))
	assert.ErrorContains(t, err, `cell 1 runs under the cell magic "%%sql": udfx cannot put the Python line "x = 1" in it`)

	out, err := n.Update([]byte(strings.Replace(code, "sales", "orders", 1)))
	require.NoError(t, err)
	assert.Equal(t, `{"nbformat": 4, "cells": [{"cell_type": "code", "source": "%%sql\nSELECT * FROM orders"}]}`, string(out))
}

func TestParseRefuses(t *testing.T) {
	for in, want := range map[string]string{
		`{`:                            "not valid JSON",
		`{"nbformat": 3, "cells": []}`: "nbformat 3",
		`{"nbformat": 4}`:              "no cells array",
		`{"nbformat": 4, "cells": [{"cell_type": "code", "source": [1]}]}`:                    "cell 1: a source line is not a string",
		`{"nbformat": 4, "metadata": {"kernelspec": {"language": "scala"}}, "cells": []}`:     "not a Python notebook",
		`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "# %% [udfx] cell 9\n"}]}`: "a line starts as udfx's cell headers do",
	} {
		_, err := Parse([]byte(in))
		assert.ErrorContains(t, err, want, in)
	}
}

// FuzzNotebook: whatever the file, Parse either refuses it or gives
// Python that Update writes back unchanged, and an edit inside a cell
// reads back as that edit.
func FuzzNotebook(f *testing.F) {
	raw, err := os.ReadFile("testdata/sales.ipynb")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw, "x = 1")
	f.Add([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "a\r\nb"}]}`), "%%%")
	f.Add([]byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "%%sql\nSELECT 1\n"}]}`), "x = 1")
	f.Fuzz(func(t *testing.T, raw []byte, line string) {
		n, err := Parse(raw)
		if err != nil {
			return
		}
		code := n.Code()
		same, err := n.Update(code)
		if err != nil || !bytes.Equal(same, raw) {
			t.Fatalf("Update(Code()) changed the notebook: %v", err)
		}
		// An empty last line is no line to nbformat: not an edit to read back.
		if len(n.cells) == 0 || line == "" || strings.ContainsAny(line, "\n\r") || strings.HasPrefix(line, "#") {
			return
		}
		// Add a line at the end of the first cell.
		i := bytes.IndexByte(code, '\n') + 1
		j := bytes.Index(code[i:], []byte(headerPrefix))
		if j < 0 {
			j = len(code) - i
		}
		edited := append(append(append([]byte{}, code[:i+j]...), line+"\n"...), code[i+j:]...)
		out, err := n.Update(edited)
		if err != nil {
			return
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("the updated notebook does not parse: %v", err)
		}
		if got := back.Code(); !bytes.Equal(got, edited) && !isMagic(line) {
			t.Fatalf("the edit does not read back:\n%q\n%q", got, edited)
		}
	})
}
