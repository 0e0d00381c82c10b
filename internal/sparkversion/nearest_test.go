package sparkversion

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNearestIsTheProjectHoldingTheFile(t *testing.T) {
	root := t.TempDir()
	write := fileWriter(t, root)
	write("requirements.txt", "pyspark==4.1.1\n")
	write("legacy/etl/requirements/base.txt", "pyspark==3.5.1\n")
	write("legacy/etl/jobs/daily.py", "")
	write("jobs/new.py", "")
	write("scala/build.sbt", `libraryDependencies += "org.apache.spark" %% "spark-sql" % "3.5.2"`+"\n")
	write("scala/src/main/scala/A.scala", "")
	write("tools/notes.txt", "pyspark==3.4.0\n")
	write("tools/x.py", "")

	versions := func(file string) []string {
		t.Helper()
		ds, err := Nearest(root, filepath.Join(root, filepath.FromSlash(file)))
		require.NoError(t, err)
		var out []string
		for _, d := range ds {
			out = append(out, d.File+" "+d.Version)
		}
		return out
	}
	assert.Equal(t, []string{"legacy/etl/requirements/base.txt 3.5"}, versions("legacy/etl/jobs/daily.py"))
	assert.Equal(t, []string{"requirements.txt 4.1"}, versions("jobs/new.py"))
	assert.Equal(t, []string{"scala/build.sbt 3.5"}, versions("scala/src/main/scala/A.scala"))
	assert.Equal(t, []string{"requirements.txt 4.1"}, versions("tools/x.py"), "notes.txt is no requirements file")

	none := t.TempDir()
	ds, err := Nearest(none, filepath.Join(none, "a", "b.py"))
	require.NoError(t, err)
	assert.Empty(t, ds)
}
