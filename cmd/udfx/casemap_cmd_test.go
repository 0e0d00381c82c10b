package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/jdkcase"
	"github.com/udfx/udfx/harness/pycase"
)

// normalizeUDF lower-cases as real Python UDFs do: str.lower() follows
// CPython's Unicode database.
const normalizeUDF = `from pyspark.sql.functions import udf


@udf("string")
def normalize(city: str) -> str:
    if city is None:
        return None
    return city.strip().lower()
`

// str.lower() is rewritten and verified, and the record names the Unicode
// of the CPython it was proved on. verify fails the record when that is
// not the Unicode of the CPython it re-runs with, and, for a record that
// does not name one, when it is not the translation's.
func TestAPythonLowerIsProvedForItsCPythonsUnicode(t *testing.T) {
	dir := repoWithFile(t, "jobs/cities.py", normalizeUDF)
	rewrite, report, verify := rewriteApplyVerify(t, dir, "jobs/cities.py:normalize", "normalize")
	assert.Contains(t, rewrite, "result         verified: ")
	assert.Contains(t, report, "regexp_extract_all", "the rewrite repairs the code points where CPython's Unicode is not Spark's")
	assert.Contains(t, verify, "1 pass")

	recPath := filepath.Join(dir, evidence.Dir, "normalize", evidence.FileName)
	rec, err := evidence.Read(recPath)
	require.NoError(t, err)
	require.Equal(t, pycase.Unicode(), rec.PythonUnicode)

	verifyWithRecorded(t, dir, recPath, func(r *evidence.Record) { r.PythonUnicode = "16.0.0" },
		"the record was proved on a CPython whose Unicode is 16.0.0; the CPython that re-ran it has Unicode "+pycase.Unicode())
	// The translation follows the Unicode of this CPython: the record
	// passes without the field.
	verifyWithRecorded(t, dir, recPath, func(r *evidence.Record) { r.PythonUnicode = "" }, "")
}

// verifyWithRecorded changes the record at recPath with change and runs
// verify: it fails saying want, or passes where want is "".
func verifyWithRecorded(t *testing.T, dir, recPath string, change func(*evidence.Record), want string) {
	t.Helper()
	rec, err := evidence.Read(recPath)
	require.NoError(t, err)
	change(rec)
	b, err := json.MarshalIndent(rec, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(recPath, b, 0o644))
	vout, verr, code := runCLI(t, dir, "verify")
	if want == "" {
		assert.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", vout, verr)
		return
	}
	assert.NotEqual(t, 0, code)
	assert.Contains(t, vout, want)
}

// skuUDF upper-cases as real JVM UDFs do: toUpperCase() follows the
// JDK's Unicode and the default locale.
const skuUDF = `package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

public class NormalizeSku implements UDF1<String, String> {
    @Override
    public String call(String sku) {
        if (sku == null) {
            return null;
        }
        return sku.trim().toUpperCase();
    }
}
`

// String.toUpperCase() is rewritten and verified, and the record names
// the JDK it was proved on; verify fails the record when the JDK it
// re-runs with is another, and passes one that does not name it where
// the translation follows this JDK.
func TestAJVMUpperIsProvedForItsJDK(t *testing.T) {
	dir := repoWithFile(t, "src/main/java/com/acme/udf/NormalizeSku.java", skuUDF)
	rewrite, report, verify := rewriteApplyVerify(t, dir, "src/main/java/com/acme/udf/NormalizeSku.java:NormalizeSku", "NormalizeSku")
	assert.Contains(t, rewrite, "result         verified: ")
	assert.Contains(t, report, "regexp_extract_all", "the rewrite keeps the code points the JDK does not upper-case and Spark does")
	assert.Contains(t, verify, "1 pass")

	recPath := filepath.Join(dir, evidence.Dir, "NormalizeSku", evidence.FileName)
	rec, err := evidence.Read(recPath)
	require.NoError(t, err)
	require.Equal(t, jdkcase.JDK(), rec.JDKCase)

	verifyWithRecorded(t, dir, recPath, func(r *evidence.Record) { r.JDKCase = "99" },
		"the record was proved on JDK 99; the original re-ran on JDK "+jdkcase.JDK())
	verifyWithRecorded(t, dir, recPath, func(r *evidence.Record) { r.JDKCase = "" }, "")
}
