package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// version is udfx's version; release builds set it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// newRootCmd builds a fresh command tree, so each invocation (and each
// test) starts from clean flag state.
func newRootCmd(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "udfx",
		Short: "Find Spark UDFs and rewrite them into forms accelerated engines run natively",
		Long: `udfx finds the user-defined functions (UDFs) of Apache Spark jobs written in
Scala, Java and Python, and rewrites them into forms that GPU and native
engines run without leaving the columnar pipeline: Spark SQL expressions,
RAPIDS RapidsUDF classes, CUDA kernels and vectorized Python. Every rewrite
is proved against the original by a differential test.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(e.Stdin)
	root.SetOut(e.Stdout)
	root.SetErr(e.Stderr)
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		return recoverApplies(e, cmd, args)
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError(fmt.Errorf("%w\nRun '%s --help' for usage.", err, c.CommandPath()))
	})
	root.AddCommand(newScanCmd(e), newTestCmd(e), newVerifyCmd(e), newRewriteCmd(e), newBenchCmd(e), newVersionCmd(e), newPlanCmd(e), newSkillsCmd(e), newScaffoldCmd(e), newMCPCmd(e), newSetupCmd(e))
	return root
}

// run executes one invocation and returns the exit code.
func run(args []string, e *env) int {
	root := newRootCmd(e)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		fmt.Fprintf(e.Stderr, "udfx: %v\n", err)
	}
	return exitCode(err)
}
