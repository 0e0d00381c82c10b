package verify

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/internal/sparkversion"
)

// sparkProblem says why the record's proof is not one for the Spark the
// project declares now: the gate re-runs the proof on the Spark udfx runs,
// so that Spark, not the record's claim, must be the one the project's
// requirements or build files (sparkversion.Nearest to the original)
// name. A record that claims another Spark than the gate proves for was
// not written by this udfx.
func sparkProblem(repo, origAbs string, rec *evidence.Record) (string, error) {
	gate := sparkversion.Minor(pyenv.SparkVersion())
	if rec.Spark != nil && rec.Spark.Version != gate {
		return fmt.Sprintf("the record claims a proof for Spark %s; udfx proves for Spark %s, and re-runs it there", rec.Spark.Version, gate), nil
	}
	decls, err := sparkversion.Nearest(repo, origAbs)
	if err != nil {
		return "", err
	}
	d, ok, err := sparkversion.Resolve(decls)
	if ce, conflict := err.(*sparkversion.ConflictError); conflict {
		return fmt.Sprintf("the project declares two Spark versions, %s and %s; the rewrite is proved for Spark %s only", ce.A, ce.B, gate), nil
	}
	if err != nil || !ok || d.Version == gate {
		return "", err
	}
	return fmt.Sprintf("the rewrite is proved for Spark %s, and the project now declares Spark %s (%s:%d: %s), whose SQL differs in arithmetic, casts and errors: re-run udfx rewrite once udfx proves for %s",
		gate, d.Version, d.File, d.Line, strings.TrimSpace(d.Text), d.Version), nil
}
