package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/mavenjar"
	"github.com/udfx/udfx/harness/pyenv"
	"github.com/udfx/udfx/harness/setup"
)

type setupOptions struct {
	check  bool
	jars   bool
	spark  []string
	format string
}

func newSetupCmd(e *env) *cobra.Command {
	opts := &setupOptions{}
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Check the JDK and Python, and create udfx's Python environment",
		Long: `Checks what udfx needs to run originals for real (a JDK 17 or 21 with
javac, Python 3.11 or newer with its venv module; Maven only for the
RapidsUDF compile checks; bubblewrap, optional, to contain the originals:
see --sandbox) and creates udfx's own Python environment with
the pinned pyspark, pandas and pyarrow under the user's cache folder, unless
UDFX_PYTHON names an interpreter or a .venv sits above the current folder.

udfx proves rewrites for Spark ` + pyenv.SparkMinors() + `, each on that version's
own pyspark; the default (` + pyenv.DefaultSpark() + `) lives in the environment above, and
each other version in an environment of its own that the first proof for it
creates, or --spark VERSION now.

It also shows whether the cuDF and RAPIDS jars are in the local Maven
repository (~/.m2/repository, or UDFX_MAVEN_REPO): udfx rewrite compiles
the columnar and CUDA targets' RapidsUDF classes against them and leaves
the classes rendered only without them. --jars fetches them with Maven
(about 1.7 GB, once).

udfx test, rewrite, bench, scaffold and verify run this setup themselves the
first time they need Python, so calling it is optional; it is a place to
see what udfx will use.

Exit codes: 0 ready, 2 bad usage, 3 a prerequisite is missing or the
environment could not be created.`,
		Example: `  udfx setup
  udfx setup --jars
  udfx setup --spark 3.5
  udfx setup --check --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSetup(cmd.Context(), e, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.check, "check", false, "only check; create nothing")
	cmd.Flags().BoolVar(&opts.jars, "jars", false, "also fetch the cuDF and RAPIDS jars with Maven (about 1.7 GB, once) so that rewrite compiles the RapidsUDF classes")
	cmd.Flags().StringSliceVar(&opts.spark, "spark", nil, "also create the environment of this Spark `VERSION` (major.minor; "+pyenv.SparkMinors()+"), which proofs for projects on it run in")
	cmd.Flags().StringVarP(&opts.format, "format", "f", "table", "output format: table or json")
	return cmd
}

func runSetup(ctx context.Context, e *env, opts *setupOptions) error {
	if opts.format != "table" && opts.format != "json" {
		return usageErrorf("unknown --format %q: want table or json", opts.format)
	}
	if opts.check && (opts.jars || len(opts.spark) > 0) {
		return usageErrorf("--check creates nothing, and --jars and --spark do: give one of them")
	}
	for _, v := range opts.spark {
		if _, ok := pyenv.EnvFor(v); !ok {
			return usageErrorf("--spark %q: udfx proves for Spark %s", v, pyenv.SparkMinors())
		}
	}
	checks := setup.Checks(ctx, setup.Host(e.getenv))
	python, from := "", ""
	var setupErr error
	if missing := setup.Missing(checks); len(missing) > 0 {
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = m.Name
		}
		setupErr = fmt.Errorf("missing: %s (what each is for and how to install it is above)", strings.Join(names, ", "))
	} else if f, ok := pyenv.Find(e.getenv, e.WorkDir); ok {
		python, from = f.Python, f.From
	} else if opts.check {
		p, _ := pyenv.ManagedPython()
		python, from = p, "udfx's environment: the first run creates it"
	} else if python, setupErr = e.ensurePython(ctx, e.WorkDir); setupErr == nil {
		from = "udfx's environment"
	}
	sparkEnvs, sparkErr := setupSparkEnvs(ctx, e, opts.spark, setupErr == nil)
	if setupErr == nil {
		setupErr = sparkErr
	}
	jars, jarErr := setupJars(ctx, e, opts.jars)
	if setupErr == nil {
		setupErr = jarErr
	}
	if opts.format == "json" {
		out := struct {
			Checks     []setup.Check `json:"checks"`
			Python     string        `json:"python,omitempty"`
			PythonFrom string        `json:"python_from,omitempty"`
			SparkEnvs  []setupSpark  `json:"spark_environments"`
			Jars       []setupJar    `json:"jars"`
			Ready      bool          `json:"ready"`
		}{checks, python, from, sparkEnvs, jars, setupErr == nil && isFile(python)}
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return internalError(err)
		}
	} else {
		tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PREREQUISITE\tSTATE\tFOUND")
		for _, c := range checks {
			state := "ok"
			switch {
			case !c.OK && c.Optional:
				state = "optional, missing"
			case !c.OK:
				state = "MISSING"
			}
			found := c.Found
			if found == "" {
				found = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Name, state, found)
		}
		if python != "" {
			state := "ok"
			if !isFile(python) {
				state = "not created yet"
			}
			fmt.Fprintf(tw, "Python environment\t%s\t%s\n", state, python+" ("+from+")")
		}
		for _, se := range sparkEnvs {
			state, found := "ok", se.Python
			if !se.Ready {
				state, found = "optional, not created", "udfx setup --spark "+se.Version+" creates it (pyspark "+se.PySpark+")"
			}
			fmt.Fprintf(tw, "Spark %s environment\t%s\t%s\n", se.Version, state, found)
		}
		for _, j := range jars {
			state, found := "ok", j.Path
			if found == "" {
				state, found = "optional, not fetched", "udfx setup --jars fetches "+j.Artifact
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", j.Name, state, found)
		}
		tw.Flush()
		for _, c := range checks {
			if !c.OK {
				fmt.Fprintf(e.Stdout, "\n%s: %s\n", c.Name, c.Problem)
			}
		}
	}
	if setupErr != nil {
		return internalError(setupErr)
	}
	return nil
}

// ensurePython makes sure udfx has a Python with pyspark for a run in
// dir: UDFX_PYTHON or a .venv in dir or above when there is one, else
// udfx's managed environment, created (with progress on a terminal) the
// first time.
func (e *env) ensurePython(ctx context.Context, dir string) (string, error) {
	if f, ok := pyenv.Find(e.getenv, dir); ok {
		return f.Python, nil
	}
	rep := e.progress()
	p, err := pyenv.Ensure(ctx, pyenv.Options{Progress: rep.Func()})
	if err != nil {
		return "", fmt.Errorf("udfx needs a Python with pyspark and could not create one: %w (or set UDFX_PYTHON to a Python 3.11+ that has pyspark %s)", err, pyenv.Pinned("pyspark"))
	}
	return p, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return p != "" && err == nil && !st.IsDir()
}

// setupSpark is the environment of a Spark version other than the
// default.
type setupSpark struct {
	Version string `json:"version"`
	PySpark string `json:"pyspark"`
	Python  string `json:"python,omitempty"`
	Ready   bool   `json:"ready"`
}

// setupSparkEnvs says which environments of the Spark versions other
// than the default exist, creating those of create when can (the
// prerequisites are there).
func setupSparkEnvs(ctx context.Context, e *env, create []string, can bool) ([]setupSpark, error) {
	var out []setupSpark
	var firstErr error
	for _, se := range pyenv.SparkEnvs() {
		if se.Minor == pyenv.DefaultSpark() {
			continue
		}
		python, ready := se.Ready()
		if !ready && can && slices.Contains(create, se.Minor) {
			p, err := se.Ensure(ctx, e.progress().Func())
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("the Spark %s environment: %w", se.Minor, err)
			}
			python, ready = p, err == nil
		}
		if !ready {
			python = ""
		}
		out = append(out, setupSpark{Version: se.Minor, PySpark: se.Version, Python: python, Ready: ready})
	}
	return out, firstErr
}

// setupJar is one jar of the local Maven repository that udfx rewrite
// compiles the RapidsUDF classes against; Path is empty while it is not
// there.
type setupJar struct {
	Name     string `json:"name"`
	Artifact string `json:"artifact"`
	Path     string `json:"path,omitempty"`
}

// setupJars says where the cuDF and RAPIDS jars are, fetching the
// missing ones with Maven when fetch is set.
func setupJars(ctx context.Context, e *env, fetch bool) ([]setupJar, error) {
	jars := []setupJar{{Name: "cuDF jar", Artifact: mavenjar.CuDF}, {Name: "RAPIDS jar", Artifact: mavenjar.Rapids}}
	for i := range jars {
		j := &jars[i]
		if p, ok := mavenjar.Find(j.Artifact); ok {
			j.Path = p
			continue
		}
		if !fetch {
			continue
		}
		p, err := mavenjar.Resolve(ctx, j.Artifact, e.progress().Func())
		if err != nil {
			return jars, fmt.Errorf("--jars: %w", err)
		}
		j.Path = p
	}
	return jars, nil
}
