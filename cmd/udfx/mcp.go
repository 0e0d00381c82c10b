package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/mcpserver"
)

func newMCPCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve scan, scaffold, test, bench, rewrite and verify as Model Context Protocol tools over stdio",
		Long: `Mcp runs a Model Context Protocol server on stdin and stdout, so an MCP
client (a coding agent, an IDE) drives udfx with the same loops and gates as
a user at a shell. Its tools are scan, scaffold, test, bench, rewrite and
verify; each call runs that udfx command in this process with the inputs as
flags (--format json where the command has it) and returns the command's
output, with isError set and the exit code and messages added when it does
not exit 0 (1 a check failed, 2 bad usage, 3 the original could not be run,
4 an interrupted --apply could not be rolled back).

Paths in tool inputs are relative to the folder udfx mcp was started in, and
paths leading outside it are refused. Commands run one at a time. Stdout
carries the protocol only: the commands' output is captured, and logs go to
stderr. The rewrite tool uses the built-in translator (the client is the
model) and writes only the workspace unless its input sets apply.

Configure a client with the command "udfx mcp", started in the repository;
for example, in an mcp.json:

  {"mcpServers": {"udfx": {"command": "udfx", "args": ["mcp"]}}}`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), e)
		},
	}
}

func runMCP(ctx context.Context, e *env) error {
	srv, err := mcpserver.New(func(ctx context.Context, args []string) mcpserver.Result {
		return runCaptured(ctx, e, args)
	}, mcpserver.Options{
		Root:    e.WorkDir,
		Version: version,
		Logger:  slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return internalError(err)
	}
	// Not the SDK's IOTransport: one malformed line would end the session.
	t := &mcpserver.StdioTransport{In: e.Stdin, Out: e.Stdout}
	if err := srv.Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, context.Canceled) {
		return internalError(fmt.Errorf("mcp: %w", err))
	}
	return nil
}

// nopWriteCloser keeps the transport from closing the process's stdout.
// runCaptured runs one udfx command in-process for a tool call: a fresh
// command tree over buffers, so nothing it prints reaches the protocol's
// stream, and no terminal, so no progress output.
func runCaptured(ctx context.Context, parent *env, args []string) (res mcpserver.Result) {
	var stdout, stderr bytes.Buffer
	child := &env{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		WorkDir: parent.WorkDir, Getenv: toolGetenv(parent), Spark: parent.Spark,
	}
	// A bug in one command must not take the server, and the client's
	// session, down with it: report it as the internal failure it is.
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(&stderr, "udfx: internal error: %v\n", p)
			res = mcpserver.Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: exitInternal}
		}
	}()
	root := newRootCmd(child)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err != nil {
		fmt.Fprintf(&stderr, "udfx: %v\n", err)
	}
	return mcpserver.Result{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: exitCode(err)}
}

// toolGetenv is the environment a tool call sees: the server's, except
// that it is never a CI step, so verify writes no GitHub annotations or
// step summary on its behalf.
func toolGetenv(parent *env) func(string) string {
	return func(key string) string {
		if key == "GITHUB_ACTIONS" || key == "GITHUB_STEP_SUMMARY" {
			return ""
		}
		return parent.getenv(key)
	}
}
