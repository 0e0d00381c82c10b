package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/rewrite"
	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/runner/runners"
	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/patch"
)

// scaffoldOptions are the flags of `udfx scaffold`.
type scaffoldOptions struct {
	seed      int64
	rows      int
	timeout   time.Duration
	memoryMB  int
	sandbox   string
	workspace string
	format    string
	types     string
}

func newScaffoldCmd(e *env) *cobra.Command {
	opts := &scaffoldOptions{}
	cmd := &cobra.Command{
		Use:   "scaffold FILE[:NAME]",
		Short: "Run the first rewrite stage alone: spec, inputs, and the original run twice",
		Long: `Scaffold runs the first stage of a rewrite on one UDF, for an agent that
drives the stages itself: it writes the UDF's spec (spec.json), generates the
inputs (every special value of each parameter type, seeded random values,
NULLs; inputs.arrow), and runs the real original twice on them, requiring
identical results, then saves the baseline (baseline.tokens), all in the
workspace <repo>/.udfx/<udf>/. Candidates tested later with udfx test and
the same --seed and --rows see the same inputs.

Exit codes: 0 scaffolded, 1 the original is not deterministic (two runs
differ; no rewrite can be proved equal to it), 2 bad usage, 3 the original
could not be run, 4 an interrupted --apply could not be rolled back (see
udfx rewrite --help).`,
		Example: `  udfx scaffold examples/python-celsius/celsius.py
  udfx scaffold examples/scala-to-fahrenheit/ToFahrenheit.scala:ToFahrenheit --rows 2000 --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runScaffold(cmd.Context(), e, opts, args[0])
		},
	}
	f := cmd.Flags()
	f.Int64Var(&opts.seed, "seed", 1, "seed of the random inputs")
	f.IntVar(&opts.rows, "rows", 10_000, "rows to generate, special values included")
	f.DurationVar(&opts.timeout, "timeout", runner.DefaultLimits.Timeout, "time limit for each run of the original")
	f.IntVar(&opts.memoryMB, "memory", runner.DefaultLimits.MemoryMB, "memory limit of the original's process, MiB")
	addSandboxFlag(f, &opts.sandbox)
	f.StringVar(&opts.workspace, "workspace", "", "workspace folder (default <repo>/.udfx)")
	f.StringVarP(&opts.format, "format", "f", "text", "output format: text or json")
	addTypesFlag(f, &opts.types)
	return cmd
}

// locatedUDF is a UDF named on the command line, placed in its repository:
// what a rewrite stage works on.
type locatedUDF struct {
	// UDF is the UDF as the front-end found it, File relative to Root
	// (slash-separated), as the stages and the evidence record want it.
	UDF    *udf.UDF
	Source []byte
	// Root is the repository holding the file (the nearest folder above
	// it with a .git), else the file's folder.
	Root string
	// Workspace is this UDF's folder: <workspace flag or Root/.udfx>/<udf>.
	Workspace string
}

// lockWorkspace holds a UDF's workspace for this command: two runs on one
// UDF would overwrite each other's inputs and evidence. Another run
// holding it is exit 3, udfx could not do its job.
func lockWorkspace(ws string) (func(), error) {
	unlock, err := patch.LockWorkspace(ws)
	if err != nil {
		return nil, internalError(err)
	}
	return unlock, nil
}

// locateUDF finds FILE[:NAME] and its repository and workspace the way
// `udfx rewrite` does; workspace is the --workspace flag ("" for the
// default).
func locateUDF(e *env, target, workspace string, types udfTypes) (*locatedUDF, error) {
	u, err := findUDF(e, target, types)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(u.Path())
	if err != nil {
		return nil, internalError(err)
	}
	src, err := notebook.ReadCode(abs)
	if err != nil {
		return nil, usageErrorf("read %s: %w", u.File, err)
	}
	root := patch.RepoRoot(filepath.Dir(abs))
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, internalError(err)
	}
	u.File, u.Root = filepath.ToSlash(rel), root
	ws := filepath.Join(root, patch.WorkspaceDirName)
	if workspace != "" {
		ws = e.abs(workspace)
	}
	if err := patch.MarkWorkspace(ws); err != nil {
		return nil, internalError(err)
	}
	return &locatedUDF{UDF: u, Source: src, Root: root, Workspace: filepath.Join(ws, patch.SafeName(u.Name))}, nil
}

// display shows a path relative to the work directory when it lies below
// it, so output does not depend on where the repository is checked out.
func workRel(e *env, p string) string {
	if r, err := filepath.Rel(e.WorkDir, p); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return p
}

// scaffoldReport is `udfx scaffold --format json`.
type scaffoldReport struct {
	UDF      string `json:"udf"`
	Language string `json:"language"`
	// File is relative to the repository root.
	File string `json:"file"`
	// Workspace and Files are relative to the working directory when
	// below it.
	Workspace   string   `json:"workspace"`
	Files       []string `json:"files"`
	Seed        int64    `json:"seed"`
	Rows        int      `json:"rows"`
	Runtime     string   `json:"original_runtime"`
	Determinism string   `json:"determinism"`
}

func runScaffold(ctx context.Context, e *env, opts *scaffoldOptions, target string) error {
	if opts.format != "text" && opts.format != "json" {
		return usageErrorf("unknown --format %q: want text or json", opts.format)
	}
	if opts.rows <= 0 || opts.timeout <= 0 || opts.memoryMB <= 0 {
		return usageErrorf("--rows, --timeout and --memory must be positive")
	}
	sandboxMode, err := e.sandboxMode(opts.sandbox, false)
	if err != nil {
		return err
	}
	loc, err := locateUDF(e, target, opts.workspace, udfTypes{flag: opts.types, limits: runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode}})
	if err != nil {
		return err
	}
	unlock, err := lockWorkspace(loc.Workspace)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := e.ensurePython(ctx, filepath.Dir(loc.UDF.Path())); err != nil {
		return internalError(err)
	}
	u := loc.UDF
	out, err := rewrite.Scaffold(ctx, rewrite.Options{
		UDF: u, Source: loc.Source, RepoRoot: loc.Root, Workspace: loc.Workspace,
		Seed: opts.seed, Rows: opts.rows,
		Limits:    runner.Limits{Timeout: opts.timeout, MemoryMB: opts.memoryMB, Sandbox: sandboxMode},
		NewRunner: runners.New, Tool: "udfx " + version,
	})
	if err != nil {
		var nd *rewrite.NondeterministicError
		if errors.As(err, &nd) {
			return &exitError{code: exitFailed, err: err}
		}
		return internalError(err)
	}
	rep := scaffoldReport{
		UDF: u.Name, Language: string(u.Language), File: u.File,
		Workspace: workRel(e, out.Workspace), Seed: opts.seed, Rows: out.Rows,
		Runtime: out.Runtime, Determinism: out.Determinism,
	}
	for _, f := range out.Files {
		rep.Files = append(rep.Files, workRel(e, filepath.Join(out.Workspace, f)))
	}
	w := e.Stdout
	if opts.format == "json" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return internalError(fmt.Errorf("write report: %w", err))
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		if err != nil {
			return internalError(fmt.Errorf("write report: %w", err))
		}
		return nil
	}
	fmt.Fprintf(w, "%s (%s, %s)\n", u.Name, u.Language, u.File)
	fmt.Fprintf(w, "  workspace      %s\n", rep.Workspace)
	fmt.Fprintf(w, "  files          %s\n", strings.Join(out.Files, ", "))
	fmt.Fprintf(w, "  inputs         %d rows, seed %d\n", rep.Rows, rep.Seed)
	fmt.Fprintf(w, "  original       %s\n", rep.Runtime)
	fmt.Fprintf(w, "  result         deterministic: ran twice with identical results\n")
	fmt.Fprintf(w, "  next           udfx test %s --sql EXPR --seed %d --rows %d\n", scaffoldTarget(target), opts.seed, opts.rows)
	return nil
}

// scaffoldTarget repeats FILE[:NAME] as the user gave it, for the hint.
func scaffoldTarget(target string) string {
	if strings.ContainsAny(target, " \t'\"") {
		return "'" + strings.ReplaceAll(target, "'", `'\''`) + "'"
	}
	return target
}
