package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ordersJob types its UDF's columns only through its dataflow: a CSV read
// (every column a string), casts in a reassignment, and a function that
// applies the UDF to the frame its one caller passes.
const ordersJob = `from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import DoubleType

spark = SparkSession.builder.appName("orders").getOrCreate()


@F.udf(returnType=DoubleType())
def to_usd(amount, rate):
    if amount is None or rate is None:
        return None
    return amount * rate


def convert(df):
    return df.withColumn("usd", to_usd(F.col("amount"), F.col("rate")))


orders = spark.read.option("header", True).csv("s3://bucket/orders")
orders = orders.withColumn("amount", F.col("amount").cast("double")).withColumn("rate", F.col("rate").cast("double"))
convert(orders).write.parquet("s3://bucket/out")
`

// A plain udfx rewrite FILE:NAME verifies a UDF whose types only the
// job's dataflow shows, and the report says which line gave each type.
func TestRewriteAUDFTypedByItsJobsDataflow(t *testing.T) {
	dir := tempRepo(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "orders.py"), []byte(ordersJob), 0o644))

	stdout, stderr, code := runCLI(t, dir, "rewrite", "orders.py:to_usd")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "result         verified")
	report, err := os.ReadFile(filepath.Join(dir, ".udfx", "to_usd", "report.md"))
	require.NoError(t, err)
	assert.Contains(t, string(report), "amount double (dataflow: .cast at line 20: amount double)")
	assert.Contains(t, string(report), "rate double (dataflow: .cast at line 20: rate double)")
}

// A lambda that forwards to a function of its file goes by the function's
// name too: users type the name they wrote the logic under.
func TestAWrapperLambdaGoesByItsFunctionsName(t *testing.T) {
	dir := tempRepo(t)
	src := `from pyspark.sql.functions import udf
from pyspark.sql.types import IntegerType


def name_length(z):
    if z is None:
        return None
    return len(z)


nameLength = udf(lambda z: name_length(z), IntegerType())
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lengths.py"), []byte(src), 0o644))
	stdout, stderr, code := runCLI(t, dir, "test", "lengths.py:name_length", "--types", "z string", "--sql", "length(z)", "--rows", "200")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stdout, "nameLength (python, lengths.py)")
}
