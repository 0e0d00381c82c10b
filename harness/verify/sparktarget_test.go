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
// the Spark versions udfx proves for, whatever the record claims.
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
		assert.Equal(t, "the rewrite is proved for Spark "+gate+", and the project now declares Spark 3.5 (jobs/requirements.txt:2: pyspark[sql]==3.5.1), whose SQL differs in arithmetic, casts and errors: re-run udfx rewrite for 3.5", it.Detail)
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

	// A record that claims a Spark udfx does not prove for.
	r.record(t, func(rec *evidence.Record) {
		rec.Spark = &evidence.SparkTarget{Version: "3.4", From: "requirements.txt:1: pyspark==3.4.1"}
	})
	it = only(t, r.verify(t, true))
	assert.Equal(t, WrongEngine, it.Status, it.Detail)
	assert.Equal(t, "the record claims a proof for Spark 3.4; udfx proves for Spark "+pyenv.SparkMinors(), it.Detail)

	// A proof for 3.5 made anywhere but on real Spark 3.5: the embedded
	// engine follows the default Spark's SQL.
	r.record(t, func(rec *evidence.Record) {
		rec.Spark = &evidence.SparkTarget{Version: "3.5", From: "requirements.txt:1: pyspark==3.5.1"}
		rec.Engine.ANSI = false
	})
	r.write(t, req, "pyspark==3.5.1\n")
	it = only(t, r.verify(t, true))
	assert.Equal(t, WrongEngine, it.Status, it.Detail)
	assert.Equal(t, `the record claims a proof for Spark 3.5 on engine "embedded"; udfx proves for Spark 3.5 on real Spark 3.5 only`, it.Detail)

	// A proof for 3.5 on Spark (checked without re-running it) holds
	// while the project declares 3.5, and not once it declares the
	// default, nor where it declares nothing: a pull request must not
	// pick the version whose semantics pass its rewrite.
	r.record(t, func(rec *evidence.Record) {
		rec.Spark = &evidence.SparkTarget{Version: "3.5", From: "requirements.txt:1: pyspark==3.5.1"}
		rec.Engine = evidence.Engine{Name: "spark", Version: "3.5.9", Master: "local[2]"}
	})
	it = only(t, r.verify(t, true))
	assert.Equal(t, Pass, it.Status, it.Detail)
	r.write(t, req, "pyspark=="+pyenv.SparkVersion()+"\n")
	it = only(t, r.verify(t, true))
	assert.Equal(t, WrongEngine, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "the rewrite is proved for Spark 3.5, and the project now declares Spark "+gate)
	r.write(t, req, "pandas==2.2.3\n")
	it = only(t, r.verify(t, true))
	assert.Equal(t, WrongEngine, it.Status, it.Detail)
	assert.Equal(t, "the record claims a proof for Spark 3.5, and the project declares no Spark version; udfx holds a proof for a version other than its default ("+gate+") to the project's declaration", it.Detail)

	// The record's Spark sets the mode it is held to: ANSI off is 3.5's
	// own, and a claim of it for the default Spark is a relaxation.
	r.write(t, req, "pyspark=="+pyenv.SparkVersion()+"\n")
	r.record(t, func(rec *evidence.Record) {
		rec.Spark = &evidence.SparkTarget{Version: gate, From: "requirements.txt:1: pyspark==" + pyenv.SparkVersion()}
		rec.Engine.ANSI = false
	})
	it = only(t, r.verify(t, true))
	assert.Equal(t, UndeclaredRelaxation, it.Status, it.Detail)
	assert.Contains(t, it.Detail, "the record claims ANSI off")
}
