package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/pflag"

	"github.com/udfx/udfx/harness/bench"
	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/plan"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/spark"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/sandbox"
)

const (
	engineEmbedded = "embedded"
	engineSpark    = "spark"
	// engineComet is Spark with the Apache DataFusion Comet plugin: the
	// same jobs, run by Comet's native operators where it can.
	engineComet = "comet"
)

// sparkOptions choose the engine and, for Spark, where it runs.
type sparkOptions struct {
	engine   string
	master   string
	remote   string
	cometJar string
	// python, when set, is the interpreter the driver runs in, whatever
	// .venv lies above the UDF (verify's choice, gatePython).
	python string
}

func addSparkFlags(f *pflag.FlagSet, o *sparkOptions) {
	f.StringVar(&o.engine, "engine", engineEmbedded, "where to run: embedded (udfx's engine), spark (real Apache Spark) or comet (Spark with the DataFusion Comet plugin)")
	f.StringVar(&o.master, "spark-master", "", "with --engine spark or comet: the master (default "+spark.DefaultMaster+"; spark://host:port, yarn, k8s://...)")
	f.StringVar(&o.remote, "spark-remote", "", "with --engine spark: a Spark Connect server (sc://host:port) instead of a master")
	f.StringVar(&o.cometJar, "comet-jar", "", "with --engine comet: the Comet jar (default "+mavenjar.Comet+" from the local Maven repository, fetched with mvn when missing)")
}

// onSpark says whether the engine runs jobs in a Spark session.
func (o *sparkOptions) onSpark() bool { return o.engine == engineSpark || o.engine == engineComet }

func (o *sparkOptions) check() error {
	switch o.engine {
	case engineEmbedded:
		if o.master != "" || o.remote != "" {
			return usageErrorf("--spark-master and --spark-remote need --engine spark or comet")
		}
	case engineSpark:
		if o.master != "" && o.remote != "" {
			return usageErrorf("give one of --spark-master and --spark-remote, not both")
		}
	case engineComet:
		if o.remote != "" {
			return usageErrorf("--engine comet cannot use --spark-remote: Comet is a plugin of the Spark that runs the jobs, and a Spark Connect client cannot add it; start the Connect server with Comet and use --engine spark")
		}
	default:
		return usageErrorf("unknown --engine %q: want embedded, spark or comet", o.engine)
	}
	if o.cometJar != "" && o.engine != engineComet {
		return usageErrorf("--comet-jar needs --engine comet")
	}
	return nil
}

// cometJar is the Comet jar of --engine comet: the flag's, or the one
// in the local Maven repository, fetched there when it is missing.
func (o *sparkOptions) cometJarPath(ctx context.Context, e *env) (string, error) {
	if o.cometJar != "" {
		return e.abs(o.cometJar), nil
	}
	jar, err := mavenjar.Resolve(ctx, mavenjar.Comet, e.progress().Step)
	if err != nil {
		var pe *mavenjar.PrereqError
		if errors.As(err, &pe) {
			return "", &exitError{code: exitInternal, err: fmt.Errorf("--engine comet: %s; or give the jar with --comet-jar", pe.Msg)}
		}
		return "", &exitError{code: exitInternal, err: fmt.Errorf("--engine comet: %w", err)}
	}
	return jar, nil
}

// startSpark starts the session a command runs u in. A Scala or Java
// UDF is compiled into a jar first and put on the session's class path
// from the start, so that the session never restarts for it. workspace
// keeps the driver's log, which errors name.
func startSpark(ctx context.Context, e *env, o *sparkOptions, u *udf.UDF, ansi bool, workspace string) (*spark.Session, error) {
	if err := patch.MarkWorkspace(workspace); err != nil {
		return nil, internalError(err)
	}
	if err := os.MkdirAll(workspace, 0o755); err != nil {
		return nil, internalError(fmt.Errorf("workspace: %w", err))
	}
	cfg := spark.Config{Master: o.master, Remote: o.remote, ANSI: ansi, Dir: filepath.Dir(u.Path()), Workspace: workspace}
	if e.Getenv != nil {
		cfg.Env = e.Getenv
	}
	if o.python != "" {
		env := cfg.Env
		if env == nil {
			env = os.Getenv
		}
		cfg.Env = pyenv.WithPython(env, o.python)
	}
	say := e.progress().Step
	if o.engine == engineComet {
		jar, err := o.cometJarPath(ctx, e)
		if err != nil {
			return nil, err
		}
		cfg.Comet = jar
	}
	if u.Language == udf.Scala || u.Language == udf.Java {
		say("compiling " + u.Name + " for Spark")
		jars, err := spark.CompileUDF(ctx, u, cfg)
		if err != nil {
			return nil, sparkError(err)
		}
		cfg.Jars = jars
		cfg.Hive = u.Kind.IsHive()
	}
	if cfg.Comet != "" {
		say("starting Spark with Comet")
	} else {
		say("starting Spark")
	}
	start := spark.Start
	if e.Spark != nil {
		start = e.Spark.Start
	}
	s, err := start(ctx, cfg)
	if err != nil {
		return nil, sparkError(err)
	}
	return s, nil
}

// sparkError maps the Spark engine's errors to exit codes. What the
// machine or cluster lacks (*spark.EnvError), a session that does not
// start (*spark.StartError) and an original that does not compile are exit
// 3; their messages carry Spark's own summary and the log's path.
func sparkError(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return internalError(err)
}

// benchOnSpark times the original's Spark job against the rewritten one
// on bopts.Rows generated rows written as Parquet.
func benchOnSpark(ctx context.Context, e *env, o *sparkOptions, bopts bench.Options) (*bench.Result, error) {
	u := bopts.UDF
	ws := filepath.Join(patch.RepoRoot(filepath.Dir(u.Path())), ".udfx", "spark")
	mem := memory.NewGoAllocator()
	rec, _, err := bench.Inputs(u, bopts.Rows, bopts.Seed, bopts.Samples, mem)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	input := filepath.Join(ws, fmt.Sprintf("bench-%s-%d-%d.parquet", patch.SafeName(u.Name), bopts.Rows, bopts.Seed))
	if err := spark.WriteParquet(input, rec); err != nil {
		return nil, err
	}
	defer os.Remove(input)
	s, err := startSpark(ctx, e, o, u, bopts.ANSI, ws)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	ansi := bopts.ANSI
	job := spark.BenchJob{UDF: u, Rewrite: bopts.SQL, Input: input, Warmup: bopts.Warmup, Runs: bopts.Runs, ANSI: &ansi}
	if bopts.Progress != nil {
		job.Progress = func(r spark.BenchRun) {
			kind := "run"
			if r.Warmup {
				kind = "warm-up"
			}
			bopts.Progress(fmt.Sprintf("%s %d: %s %.2fs", kind, r.Index, r.Side, r.Seconds))
		}
	}
	start := time.Now()
	br, err := s.Bench(ctx, job)
	if err != nil {
		return nil, err
	}
	info := s.Info()
	res := &bench.Result{
		UDF: u.Name, SQL: bopts.SQL, Rows: bopts.Rows, Samples: bopts.Samples, Warmup: bopts.Warmup, Engine: o.engine,
		Original: fmt.Sprintf("Spark job: read Parquet, the original (%s), write to noop; %s", br.Call, sandbox.OnSpark),
		Rewrite:  fmt.Sprintf("Spark job: read Parquet, the SQL rewrite, write to noop; %s (%s), Java %s, %.0fs in all", info.Name(), info.Master, info.JavaVersion, time.Since(start).Seconds()),
		Machine:  bench.Machine(), OriginalS: br.Original, RewriteS: br.Rewrite,
	}
	if info.Comet != "" {
		if res.OriginalNative, err = plan.CometCoverage(br.OriginalPlan, br.OriginalNativeReport, spark.ResultColumn); err != nil {
			return nil, fmt.Errorf("the original's native coverage: %w", err)
		}
		if res.RewriteNative, err = plan.CometCoverage(br.RewritePlan, br.RewriteNativeReport, spark.ResultColumn); err != nil {
			return nil, fmt.Errorf("the rewrite's native coverage: %w", err)
		}
	}
	res.Summarize()
	return res, nil
}
