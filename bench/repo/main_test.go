package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/scan"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// The generated repository holds what the table says it holds: n UDFs
// that udfx scan finds, in the stated mix, with modules that fail to
// import and str methods the translator declines.
func TestGenerateWritesTheStatedMix(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, generate(dir, 60, 1))
	res, err := scan.Run(context.Background(), scan.Options{Paths: []string{dir}, BaseDir: dir, NewFrontend: frontends.New})
	require.NoError(t, err)
	require.Empty(t, res.Errors)
	require.Len(t, res.UDFs, 60)
	byLang, names := map[udf.Language]int{}, map[string]bool{}
	for _, u := range res.UDFs {
		byLang[u.Language]++
		assert.False(t, names[strings.ToLower(u.Name)], "two UDFs share the workspace of %s", u.Name)
		names[strings.ToLower(u.Name)] = true
	}
	assert.Equal(t, map[udf.Language]int{udf.Python: 36, udf.Scala: 15, udf.Java: 9}, byLang)

	failing, swapcase := 0, 0
	mods, err := filepath.Glob(filepath.Join(dir, "jobs", "*.py"))
	require.NoError(t, err)
	for _, m := range mods {
		b, err := os.ReadFile(m)
		require.NoError(t, err)
		if strings.HasPrefix(string(b), "import boto3\n") {
			failing++
		}
		swapcase += strings.Count(string(b), ".swapcase()")
	}
	assert.Equal(t, 2, failing)
	assert.Positive(t, swapcase)

	// Another seed, other constants: no mode reuses another's caches.
	other := t.TempDir()
	require.NoError(t, generate(other, 60, 2))
	a, err := os.ReadFile(filepath.Join(dir, "src/main/scala/jobs/Scale12.scala"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(other, "src/main/scala/jobs/Scale12.scala"))
	require.NoError(t, err)
	assert.NotEqual(t, string(a), string(b))
}
