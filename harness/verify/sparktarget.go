package verify

import (
	"fmt"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/internal/sparkversion"
)

// recordSpark is the Spark version (major.minor) rec is a proof for:
// its claim, or udfx's default for a record that makes none. The claim
// is trusted only as far as sparkProblem checks it.
func recordSpark(rec *evidence.Record) string {
	if rec.Spark != nil && rec.Spark.Version != "" {
		return rec.Spark.Version
	}
	return pyenv.DefaultSpark()
}

// sparkProblem says why the record's proof is not one for the Spark the
// project declares now. The gate re-runs the proof on the Spark the
// record names, in that version's ANSI mode, so the claim must be one
// udfx proves for and it must be the version the project's requirements
// or build files nearest the original name (decls, as
// sparkversion.Nearest read them, or declsErr). A version
// other than the default must be declared, and proved on real Spark:
// otherwise a pull request could pick the version whose semantics pass
// its rewrite.
func sparkProblem(decls []sparkversion.Declared, declsErr error, rec *evidence.Record) (string, error) {
	def, claim := pyenv.DefaultSpark(), recordSpark(rec)
	if _, ok := pyenv.EnvFor(claim); !ok {
		return fmt.Sprintf("the record claims a proof for Spark %s; udfx proves for Spark %s", claim, pyenv.SparkMinors()), nil
	}
	if claim != def && rec.Engine.Name != "spark" {
		return fmt.Sprintf("the record claims a proof for Spark %s on engine %q; udfx proves for Spark %s on real Spark %s only", claim, rec.Engine.Name, claim, claim), nil
	}
	if declsErr != nil {
		return "", declsErr
	}
	d, ok, err := sparkversion.Resolve(decls)
	if ce, conflict := err.(*sparkversion.ConflictError); conflict {
		return fmt.Sprintf("the project declares two Spark versions, %s and %s; the rewrite is proved for Spark %s only", ce.A, ce.B, claim), nil
	}
	if err != nil {
		return "", err
	}
	if !ok {
		if claim != def {
			return fmt.Sprintf("the record claims a proof for Spark %s, and the project declares no Spark version; udfx holds a proof for a version other than its default (%s) to the project's declaration", claim, def), nil
		}
		return "", nil
	}
	if d.Version == claim {
		return "", nil
	}
	return fmt.Sprintf("the rewrite is proved for Spark %s, and the project now declares Spark %s (%s:%d: %s), whose SQL differs in arithmetic, casts and errors: re-run udfx rewrite for %s",
		claim, d.Version, d.File, d.Line, strings.TrimSpace(d.Text), d.Version), nil
}
