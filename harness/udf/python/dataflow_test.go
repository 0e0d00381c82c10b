package python

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
)

// flowSites are, by line, the types the dataflow gives the argument of
// each probe(...) call in testdata/dataflow.py, in the order of the
// calls; "" is no type.
func flowSites(t *testing.T) map[int][]string {
	t.Helper()
	src, err := os.ReadFile("testdata/dataflow.py")
	require.NoError(t, err)
	f := New()
	defer f.Close()
	us, err := f.Parse("testdata/dataflow.py", src)
	require.NoError(t, err)
	out := map[int][]string{}
	for _, u := range us {
		if u.Name != "probe" {
			continue
		}
		for _, s := range u.UseSites {
			if s.Kind != udf.UseCall {
				continue
			}
			typ := ""
			if len(s.ArgTypes) == 1 && s.ArgTypes[0].Type != nil {
				typ = s.ArgTypes[0].Type.String()
				assert.NotEmpty(t, s.ArgTypes[0].From, "line %d", s.Span.Start.Line)
			}
			out[s.Span.Start.Line] = append(out[s.Span.Start.Line], typ)
		}
	}
	return out
}

// wantFlow is what the trace must give each site of testdata/dataflow.py:
// the type where the job shows it, none where it cannot be sure.
var wantFlow = map[int][]string{
	23:  {"double"},                                // a DDL of implicitly concatenated literals, in a constant
	27:  {"bigint"},                                // spark.range's id, the name as a string
	28:  {"int"},                                   // a StructType constant; orders["id"]
	31:  {"bigint", "double", "boolean", "string"}, // createDataFrame over literal rows and a list of names
	33:  {"bigint"},                                // Row(k=v) rows, a None in one
	36:  {"string"},                                // a CSV read without a schema or inferSchema
	41:  {"double", "string", "double"},            // reassigned: cast, renamed, filtered, selected, aliased
	45:  {"int"},                                   // a parameter: the function's one caller passes readings
	55:  {"double"},                                // what a function returns
	59:  {"string", "double", ""},                  // a join: the sides' columns; a key they type differently
	65:  {"bigint"},                                // toDF, then df.transform(f)
	69:  {""},                                      // two callers whose frames disagree
	78:  {""},                                      // reassigned in a loop
	81:  {""},                                      // inferSchema
	87:  {"double"},                                // a StructType over lines, with a trailing comma
	91:  {""},                                      // a column name a for loop binds, though a constant of that name says otherwise
	94:  {"double"},                                // csv(path, schema): the schema by position
	96:  {"string"},                                // load(path, "csv") over .format("json"): load\'s own format wins
	99:  {""},                                      // a lambda reads the name when called, after it is bound again
	104: {"string", ""},                            // a frame whose columns the file does not show: a select's cast names its column
	111: {"double"},                                // a schema a function returns
	113: {"string"},                                // the spark-csv package's format name, a header and no schema
	121: {"int"},                                   // another UDF's result: its declared return type
	122: {"double"},                                // a UDF made and called in place, aliased
}

// TestTheDataflowTypesTheArguments: every site gets the type its job
// shows, and none where the trace cannot be sure.
func TestTheDataflowTypesTheArguments(t *testing.T) {
	assert.Equal(t, wantFlow, flowSites(t))
}
