package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/sparkversion"
)

var sparkFlagRE = regexp.MustCompile(`^\d+\.\d+$`)

// sparkTarget is the Spark version the proof of u is for, and where it
// came from: the version the project holding u declares
// (sparkversion.Nearest), else --spark, else udfx's default. decline says
// why no proof can be made for it: a version udfx does not prove for, two
// declared versions, or what a version other than the default still
// needs. --spark must agree with the declaration, since udfx verify holds
// every record to it; for a version other than the default the project
// must declare it, or the gate would have nothing to hold the record to.
func sparkTarget(flag, root string, u *udf.UDF, o *sparkOptions) (target *evidence.SparkTarget, decline string, err error) {
	def := pyenv.DefaultSpark()
	if flag != "" {
		if !sparkFlagRE.MatchString(flag) {
			return nil, "", usageErrorf("--spark %q: want a major.minor version such as %s", flag, def)
		}
		if _, ok := pyenv.EnvFor(flag); !ok {
			return nil, "", usageErrorf("--spark %s: udfx proves for Spark %s; a proof for another version says nothing about a job on %s", flag, pyenv.SparkMinors(), flag)
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
	case !ok && flag != "" && flag != def:
		return nil, fmt.Sprintf("--spark %s: the project declares no Spark version, and udfx verify holds a record for Spark %s to the project's declaration: declare it (requirements.txt pyspark==%s.*, or spark-sql's version in the build file)", flag, flag, flag), nil
	case !ok && flag != "":
		return &evidence.SparkTarget{Version: def, From: "--spark"}, "", nil
	case !ok:
		return &evidence.SparkTarget{Version: def, From: "udfx's default (the project declares no Spark version)"}, "", nil
	}
	ansi, ansiFrom := sparkversion.DeclaredANSI(decls)
	from := fmt.Sprintf("%s:%d: %s", d.File, d.Line, strings.TrimSpace(d.Text))
	if flag != "" && d.Version != flag {
		return nil, "", usageErrorf("--spark %s: the project declares Spark %s (%s), and udfx verify holds every record to the declaration: change it if the job runs on %s", flag, d.Version, from, flag)
	}
	if _, ok := pyenv.EnvFor(d.Version); !ok {
		return nil, fmt.Sprintf("the project declares Spark %s (%s); udfx proves for Spark %s, whose SQL differs from %s in arithmetic, casts and errors, so a proof here would say nothing about the job",
			d.Version, from, pyenv.SparkMinors(), d.Version), nil
	}
	target = &evidence.SparkTarget{Version: d.Version, From: from, ANSI: ansi, ANSIFrom: ansiFrom}
	if d.Version != def {
		if why := otherSparkUnsupported(d.Version, o); why != "" {
			return nil, fmt.Sprintf("the project declares Spark %s (%s); %s", d.Version, from, why), nil
		}
	}
	if ansi != nil && *ansi != pyenv.DefaultANSI(d.Version) && o.engine == engineComet {
		return nil, fmt.Sprintf("the project runs Spark %s with ANSI %s (%s); udfx's Comet proofs run in %s's default mode: use --engine spark or the embedded engine", d.Version, onOff(*ansi), ansiFrom, d.Version), nil
	}
	return target, "", nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// otherSparkUnsupported says what keeps a proof of u for Spark version,
// other than the default, from being made; empty when nothing does. Only
// real Spark of that version knows its SQL (the embedded engine follows
// the default's), and udfx fetches Comet for the default only.
func otherSparkUnsupported(version string, o *sparkOptions) string {
	switch {
	case o.engine == engineComet:
		return fmt.Sprintf("udfx's Comet jar is built for Spark %s: Comet proofs for %s are not supported yet; use --engine spark", pyenv.DefaultSpark(), version)
	case !o.onSpark():
		return fmt.Sprintf("udfx's embedded engine follows Spark %s's SQL, so a proof for %s runs on real Spark %s: add --engine spark (udfx installs pyspark %s in its own environment the first time)", pyenv.DefaultSpark(), version, version, version)
	}
	return ""
}

// sparkPythonFor is the interpreter a session proving for target runs
// in, and the ANSI mode it runs with. For the default version it is the
// usual choice (o.python, else pyenv.Find's); for another it is udfx's
// environment of that version, created the first time, unless
// UDFX_PYTHON or o.python names one: a job's .venv is for the job's Spark,
// which the session's version check below would otherwise have to refuse.
func sparkPythonFor(ctx context.Context, e *env, o *sparkOptions, target *evidence.SparkTarget) (python string, ansi bool, err error) {
	if target == nil || target.Version == pyenv.DefaultSpark() {
		return o.python, target == nil || target.Mode(pyenv.DefaultANSI), nil
	}
	ansi = target.Mode(pyenv.DefaultANSI)
	if o.python != "" {
		return o.python, ansi, nil
	}
	if p := e.getenv("UDFX_PYTHON"); p != "" {
		return p, ansi, nil
	}
	env, _ := pyenv.EnvFor(target.Version)
	p, err := env.Ensure(ctx, e.progress().Func())
	if err != nil {
		return "", ansi, internalError(fmt.Errorf("udfx needs pyspark %s for proofs for Spark %s and could not install it: %w (or set UDFX_PYTHON to a Python that has pyspark %s)", env.Version, target.Version, err, env.Version))
	}
	return p, ansi, nil
}

// sessionProblem says why session cannot prove for target: it runs
// another Spark (a UDFX_PYTHON or .venv whose pyspark is not the
// project's).
func sessionProblem(session *spark.Session, target *evidence.SparkTarget) string {
	if session == nil || target == nil {
		return ""
	}
	if got := sparkversion.Minor(session.Version()); got != target.Version {
		return fmt.Sprintf("the proof is for Spark %s (%s), and the Spark session runs Spark %s (its Python's pyspark): point UDFX_PYTHON at a Python with pyspark %s, or unset it to let udfx install one", target.Version, target.From, session.Version(), target.Version)
	}
	return ""
}

// projectSpark points o at the Spark the project holding u declares, for
// a command that tests or times u on Spark outside a proof (udfx test,
// udfx bench): that version's environment and, unless ansiSet (the user
// gave --ansi), its mode. What rewrite would decline is a usage error
// here, with rewrite's reason.
func projectSpark(ctx context.Context, e *env, o *sparkOptions, u *udf.UDF, ansi *bool, ansiSet bool) (*evidence.SparkTarget, error) {
	root := patch.RepoRoot(filepath.Dir(u.Path()))
	target, decline, err := sparkTarget("", root, u, o)
	if err != nil {
		return nil, err
	}
	if decline != "" {
		return nil, usageErrorf("%s", decline)
	}
	python, mode, err := sparkPythonFor(ctx, e, o, target)
	if err != nil {
		return nil, err
	}
	o.python = python
	if !ansiSet {
		*ansi = mode
	}
	return target, nil
}
