package verify

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/internal/sparkversion"
)

// The gate holds a record to the Spark the project declares now, and to
// the Spark udfx proves for, whatever the record claims.
func TestTheGateHoldsARecordToTheDeclaredSpark(t *testing.T) {
	gate := sparkversion.Minor(pyenv.SparkVersion())
	r := newRepo(t)
	req := filepath.Join(r.dir, "jobs", "requirements.txt")

	r.write(t, req, "pyspark=="+pyenv.SparkVersion()+"\n")
	it := only(t, r.verify(t, false))
	assert.Equal(t, Pass, it.Status, it.Detail)

	r.write(t, req, "# the cluster image\npyspark[sql]==3.5.1\n")
	for _, skip := range []bool{true, false} {
		it = only(t, r.verify(t, skip))
		assert.Equal(t, WrongEngine, it.Status, it.Detail)
		assert.Equal(t, "the rewrite is proved for Spark "+gate+", and the project now declares Spark 3.5 (jobs/requirements.txt:2: pyspark[sql]==3.5.1), whose SQL differs in arithmetic, casts and errors: re-run udfx rewrite once udfx proves for 3.5", it.Detail)
		assert.False(t, it.Rerun)
	}

	// Two declarations of the project that disagree.
	r.write(t, req, "pyspark=="+pyenv.SparkVersion()+"\n")
	r.write(t, filepath.Join(r.dir, "jobs", "pyproject.toml"), "[project]\nname = \"jobs\"\ndependencies = [\"pyspark==3.5.1\"]\n")
	it = only(t, r.verify(t, false))
	assert.Equal(t, WrongEngine, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "the project declares two Spark versions")

	// A sibling project's declaration says nothing about this one.
	r.write(t, filepath.Join(r.dir, "jobs", "pyproject.toml"), "[project]\nname = \"jobs\"\n")
	r.write(t, filepath.Join(r.dir, "legacy", "requirements.txt"), "pyspark==3.5.1\n")
	it = only(t, r.verify(t, false))
	assert.Equal(t, Pass, it.Status, it.Detail)

	// A record that claims another Spark than udfx proves for.
	r.record(t, func(rec *evidence.Record) {
		rec.Spark = &evidence.SparkTarget{Version: "3.5", From: "requirements.txt:1: pyspark==3.5.1"}
	})
	it = only(t, r.verify(t, true))
	assert.Equal(t, WrongEngine, it.Status, it.Detail)
	assert.Equal(t, "the record claims a proof for Spark 3.5; udfx proves for Spark "+gate+", and re-runs it there", it.Detail)
}
