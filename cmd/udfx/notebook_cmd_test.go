package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRewriteANotebook: a UDF in a Jupyter notebook, whose job runs at
// the top level of its cells beside %pip and a `spark` session, is found,
// proved, applied and verified. --apply rewrites the two cells it edits
// (the import and the call) and nothing else: the other cells, every
// output, execution count and metadata stay as they were.
func TestRewriteANotebook(t *testing.T) {
	t.Parallel()
	dir := exampleRepo(t, "python-notebook", "orders.ipynb")
	path := filepath.Join(dir, "examples", "python-notebook", "orders.ipynb")
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	stdout, stderr, code := runCLI(t, dir, "rewrite", "examples/python-notebook/orders.ipynb:size_band", "--rows", "2000", "--apply")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "size_band (python, examples/python-notebook/orders.ipynb)")
	assert.Contains(t, stdout, "per type       total double: verified")
	assert.Contains(t, stdout, "per type       total int: verified")

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	var was, is struct {
		Cells    []map[string]any `json:"cells"`
		Metadata map[string]any   `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(before, &was))
	require.NoError(t, json.Unmarshal(after, &is), "the applied notebook is JSON")
	require.Len(t, is.Cells, len(was.Cells))
	assert.Equal(t, was.Metadata, is.Metadata)
	for i := range was.Cells {
		for k, v := range was.Cells[i] {
			if k == "source" && (i == 2 || i == 4) {
				continue
			}
			assert.Equal(t, v, is.Cells[i][k], "cell %d %s", i+1, k)
		}
	}
	assert.Equal(t, []any{
		"orders = spark.table(\"sales.orders\")\n",
		"orders.select(\"order_id\", expr(\"CASE WHEN typeof(`total`) = 'double' THEN (CASE WHEN (`total` IS NULL) THEN 'unknown' ELSE CASE WHEN (`total` >= 250.0D AND NOT isnan(`total`)) THEN 'large' ELSE 'small' END END) WHEN typeof(`total`) = 'int' THEN (CASE WHEN (`total` IS NULL) THEN 'unknown' ELSE CASE WHEN (CAST(`total` AS DOUBLE) >= 250.0D AND NOT isnan(CAST(`total` AS DOUBLE))) THEN 'large' ELSE 'small' END END) ELSE raise_error('udfx: size_band was proved only for (total) of types (double); (int)') END\").alias(\"band\")).show(3)",
	}, is.Cells[4]["source"])
	assert.Contains(t, is.Cells[2]["source"], "from pyspark.sql.functions import col, udf, expr\n")
	// Only the edited lines differ in the file's text.
	var changed []string
	bl, al := strings.Split(string(before), "\n"), strings.Split(string(after), "\n")
	require.Len(t, al, len(bl))
	for i := range bl {
		if bl[i] != al[i] {
			changed = append(changed, al[i])
		}
	}
	assert.Len(t, changed, 2, "%s", strings.Join(changed, "\n"))

	stdout, stderr, code = runCLI(t, dir, "verify")
	require.Equal(t, exitOK, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)

	// The inlined expression edited in the notebook: the gate sees it.
	edited := strings.Replace(string(after), `'large' ELSE 'small'`, `'small' ELSE 'large'`, 1)
	require.NotEqual(t, string(after), edited)
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
	stdout, _, code = runCLI(t, dir, "verify")
	assert.Equal(t, exitFailed, code)
	assert.Contains(t, stdout, "stale-use-site")
}
