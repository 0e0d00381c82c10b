package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/sparkversion"
)

var sparkFlagRE = regexp.MustCompile(`^\d+\.\d+$`)

// sparkTarget is the Spark version the proof of u is for, and where it
// came from. udfx proves for the Spark it runs: its environment's, or the
// session's with --engine spark. When the project holding u declares
// another version (sparkversion.Nearest), or two, decline says why the
// proof would say nothing about the job. --spark states the version for a
// project that declares none; it must be one udfx proves for, and agree
// with what the project declares, since udfx verify holds every record to
// that declaration.
func sparkTarget(flag, root string, u *udf.UDF, session *spark.Session) (target *evidence.SparkTarget, decline string, err error) {
	proving := sparkversion.Minor(pyenv.SparkVersion())
	if session != nil {
		proving = sparkversion.Minor(session.Version())
	}
	if flag != "" {
		if !sparkFlagRE.MatchString(flag) {
			return nil, "", usageErrorf("--spark %q: want a major.minor version such as %s", flag, proving)
		}
		if flag != proving {
			return nil, "", usageErrorf("--spark %s: udfx proves for the Spark it runs, %s here; proofs for other versions are not supported yet, and a proof for %s says nothing about a job on %s", flag, proving, proving, flag)
		}
	}
	decls, err := sparkversion.Nearest(root, u.Path())
	if err != nil {
		return nil, "", internalError(err)
	}
	d, ok, err := sparkversion.Resolve(decls)
	var ce *sparkversion.ConflictError
	switch {
	case errors.As(err, &ce):
		return nil, fmt.Sprintf("the project declares two Spark versions, %s and %s, so udfx cannot tell which one the job runs on; declare one", ce.A, ce.B), nil
	case err != nil:
		return nil, "", internalError(err)
	case !ok && flag != "":
		return &evidence.SparkTarget{Version: proving, From: "--spark"}, "", nil
	case !ok:
		return &evidence.SparkTarget{Version: proving, From: "udfx's default (the project declares no Spark version)"}, "", nil
	}
	from := fmt.Sprintf("%s:%d: %s", d.File, d.Line, strings.TrimSpace(d.Text))
	if flag != "" && d.Version != flag {
		return nil, "", usageErrorf("--spark %s: the project declares Spark %s (%s), and udfx verify holds every record to the declaration: change it if the job runs on %s", flag, d.Version, from, flag)
	}
	if d.Version != proving {
		return nil, fmt.Sprintf("the project declares Spark %s (%s); udfx proves for Spark %s, whose SQL differs from %s in arithmetic, casts and errors (ANSI mode is off by default before 4.0), so a proof here would say nothing about the job; proofs for other Spark versions are not supported yet",
			d.Version, from, proving, d.Version), nil
	}
	return &evidence.SparkTarget{Version: proving, From: from}, "", nil
}
