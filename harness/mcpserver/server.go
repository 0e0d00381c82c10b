// Package mcpserver serves udfx's commands as Model Context Protocol tools,
// so an outside agent drives the same loops behind the same gates as a
// user at a shell. Each tool call becomes the argument list of one udfx
// invocation, which the caller's RunFunc executes (in udfx, a fresh
// command tree in-process with captured output): the protocol layer only
// maps inputs to arguments and results to tool results, and every check
// the CLI enforces applies unchanged.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Result is the outcome of one udfx invocation.
type Result struct {
	Stdout   string
	Stderr   string
	ExitCode int
}

// RunFunc runs udfx with args (without the program name) and returns what
// it printed and its exit code (0 done, 1 a check failed, 2 bad usage, 3
// udfx could not do its job, 4 an interrupted --apply could not be rolled
// back).
type RunFunc func(ctx context.Context, args []string) Result

// Options configure the server.
type Options struct {
	// Root is the folder tool paths are relative to, normally the
	// server's working directory. Paths leading outside it are refused.
	Root string
	// Version is udfx's version, announced to clients.
	Version string
	// Logger receives the SDK's logs; nil discards them. It must not
	// write to the protocol's stream.
	Logger *slog.Logger
}

// ToolNames are the tools New registers, in the order of a rewrite.
var ToolNames = []string{"scan", "scaffold", "test", "bench", "rewrite", "verify"}

// ScanInput is the input of the scan tool.
type ScanInput struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or folders to scan, relative to the server's folder (default: the whole folder)"`
}

// ScaffoldInput is the input of the scaffold tool.
type ScaffoldInput struct {
	Path string `json:"path" jsonschema:"the Scala, Java or Python file defining the UDF, relative to the server's folder"`
	Name string `json:"name,omitempty" jsonschema:"the UDF's name or registered SQL name, needed when the file defines several"`
	Rows int    `json:"rows,omitempty" jsonschema:"rows of generated inputs, special values included (default 10000)"`
	Seed *int64 `json:"seed,omitempty" jsonschema:"seed of the random inputs (default 1); later stages must use the same"`
}

// TestInput is the input of the test tool.
type TestInput struct {
	Path        string `json:"path" jsonschema:"the Scala, Java or Python file defining the UDF, relative to the server's folder"`
	Name        string `json:"name,omitempty" jsonschema:"the UDF's name or registered SQL name, needed when the file defines several"`
	SQL         string `json:"sql,omitempty" jsonschema:"the candidate rewrite: a Spark SQL expression over the UDF's parameter names (give this or rewrite_file)"`
	RewriteFile string `json:"rewrite_file,omitempty" jsonschema:"a file holding the candidate's SQL expression, relative to the server's folder (give this or sql)"`
	Samples     string `json:"samples,omitempty" jsonschema:"a Parquet, CSV or JSON Lines file of rows always tested, relative to the server's folder"`
	Rows        int    `json:"rows,omitempty" jsonschema:"rows to test, special values included (default 10000)"`
	Seed        *int64 `json:"seed,omitempty" jsonschema:"seed of the random inputs (default 1)"`
	Engine      string `json:"engine,omitempty" jsonschema:"embedded (default: the original in its own runtime, the rewrite on udfx's engine) or spark (both in one real Apache Spark session; the rewritten plan must hold no UDF node)"`
}

// BenchInput is the input of the bench tool.
type BenchInput struct {
	Path   string `json:"path" jsonschema:"the Scala, Java or Python file defining the UDF, relative to the server's folder"`
	Name   string `json:"name,omitempty" jsonschema:"the UDF's name or registered SQL name, needed when the file defines several"`
	SQL    string `json:"sql,omitempty" jsonschema:"the rewrite to time (default: the rewrite applied in the repository, else the built-in translator's)"`
	Engine string `json:"engine,omitempty" jsonschema:"embedded (default: evaluation only, on udfx's engine) or spark (whole Spark jobs, original and rewrite)"`
	Rows   int    `json:"rows,omitempty" jsonschema:"rows per run (default 1000000)"`
	Runs   int    `json:"runs,omitempty" jsonschema:"timed runs of each side (default 5)"`
	Seed   *int64 `json:"seed,omitempty" jsonschema:"seed of the random inputs (default 1)"`
}

// RewriteInput is the input of the rewrite tool.
type RewriteInput struct {
	Path    string   `json:"path" jsonschema:"the Scala, Java or Python file defining the UDF, relative to the server's folder"`
	Name    string   `json:"name,omitempty" jsonschema:"the UDF's name or registered SQL name, needed when the file defines several"`
	Targets []string `json:"targets,omitempty" jsonschema:"rewrite targets among sql, columnar and cuda (default: all that apply to the UDF)"`
	Apply   bool     `json:"apply,omitempty" jsonschema:"apply the patch to the working tree (default false: only the workspace .udfx/<udf>/ is written)"`
	Rows    int      `json:"rows,omitempty" jsonschema:"rows of the differential test (default 10000)"`
	Seed    *int64   `json:"seed,omitempty" jsonschema:"seed of the random inputs (default 1)"`
	Engine  string   `json:"engine,omitempty" jsonschema:"embedded (default) or spark: where the differential test and the benchmark run"`
}

// VerifyInput is the input of the verify tool.
type VerifyInput struct {
	Path      string `json:"path,omitempty" jsonschema:"the folder to check, relative to the server's folder (default: the whole folder)"`
	SkipRerun bool   `json:"skip_rerun,omitempty" jsonschema:"check the hashes only, without re-running the differential tests"`
}

type server struct {
	run  RunFunc
	root string // absolute and clean
	real string // root with symlinks resolved
	// mu runs one udfx command at a time: each may start a JVM or a
	// CPython, and two rewrites applying patches to one tree must not
	// interleave.
	mu sync.Mutex
}

func boolPtr(b bool) *bool { return &b }

// instructions tell a client what the tools do and in which order.
const instructions = `udfx rewrites Spark UDFs (Scala, Java, Python) into Spark SQL expressions,
RAPIDS RapidsUDF classes and CUDA, and proves each rewrite with a
differential test against the real original. Work in the order of a
rewrite: scan finds the UDFs; scaffold runs the original twice and saves the
inputs and baseline; test proves or refutes a candidate SQL expression and
returns the minimal counterexample; bench times original against rewrite;
rewrite runs all four stages and writes a patch (apply=true applies it);
verify is the CI gate over every recorded rewrite. A result with isError
set carries the exit code: 1 a check failed, 2 bad usage, 3 the original
could not be run, 4 an interrupted --apply could not be rolled back. Paths are relative to the server's folder.`

// New returns a server with the six tools. Run it with (*mcp.Server).Run
// over a transport; the caller keeps anything but the protocol off that
// transport's stream.
func New(run RunFunc, opts Options) (*mcp.Server, error) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("mcp server root: %w", err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("mcp server root: %w", err)
	}
	s := &server{run: run, root: root, real: real}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "udfx", Title: "udfx", Version: opts.Version}, &mcp.ServerOptions{
		Logger:       logger,
		Capabilities: &mcp.ServerCapabilities{},
		Instructions: instructions,
	})
	s.addTools(srv)
	return srv, nil
}

// addTools registers the tools, in the order of ToolNames.
func (s *server) addTools(srv *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
	workspace := &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)}

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "scan",
		Title:       "Find Spark UDFs",
		Description: "Find the Spark UDFs in files and folders: name, language, kind, signature in Spark SQL types, spans, use sites, feasible rewrite targets and blockers (udfx scan --format json).",
		Annotations: readOnly,
	}, s.scanTool)

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "scaffold",
		Title:       "Scaffold a UDF rewrite",
		Description: "First stage of a rewrite: write the UDF's spec, generate its inputs (every special value, seeded random values, NULLs) and run the real original twice, requiring identical results; saves .udfx/<udf>/spec.json, inputs.arrow and baseline.tokens (udfx scaffold --format json). Exit 1: the original is not deterministic.",
		Annotations: workspace,
	}, s.scaffoldTool)

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "test",
		Title:       "Differential test of a candidate rewrite",
		Description: "Prove or refute a candidate rewrite: run the real original UDF (JVM or CPython) and the candidate Spark SQL expression (on udfx's embedded engine, or with engine=spark both in one real Spark session) on the same inputs and compare bit-exactly, ANSI on (udfx test --format json). Exit 1 is a mismatch; the report holds the minimal counterexample.",
		Annotations: workspace,
	}, s.testTool)

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "bench",
		Title:       "Benchmark original against rewrite",
		Description: "Time the original UDF against its rewrite on the same generated rows: warm-up, then alternating timed runs; reports each side's median and spread and the ratio of the medians (udfx bench --format json).",
		Annotations: workspace,
	}, s.benchTool)

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "rewrite",
		Title:       "Rewrite a UDF and prove it",
		Description: "Run the four stages (scaffold, convert with the built-in translator, benchmark, optimize) on one UDF; a rewrite is accepted only when the differential test passes. Writes .udfx/<udf>/ (report.md, evidence.json, rewrite.patch); with apply=true also applies the patch to the working tree, refusing files with uncommitted changes (udfx rewrite). Exit 1: no candidate passed.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(false)},
	}, s.rewriteTool)

	mcp.AddTool(srv, &mcp.Tool{
		Name:        "verify",
		Title:       "Check every recorded rewrite",
		Description: "The CI gate: find every evidence record and rewrite file below path and fail when a UDF or a rewrite changed since its record, a rewrite has no record, or the re-run differential test finds a counterexample (udfx verify --format json). Exit 1: the gate failed.",
		Annotations: readOnly,
	}, s.verifyTool)
}

// scanTool is the scan tool: udfx scan.
func (s *server) scanTool(ctx context.Context, _ *mcp.CallToolRequest, in ScanInput) (*mcp.CallToolResult, any, error) {
	args := []string{"scan", "--format=json", "--"}
	for _, p := range in.Paths {
		rel, err := s.local("paths", p)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, rel)
	}
	return s.call(ctx, args)
}

// scaffoldTool is the scaffold tool: udfx scaffold.
func (s *server) scaffoldTool(ctx context.Context, _ *mcp.CallToolRequest, in ScaffoldInput) (*mcp.CallToolResult, any, error) {
	args := []string{"scaffold", "--format=json"}
	args = appendInt(args, "rows", in.Rows)
	args = appendSeed(args, in.Seed)
	return s.callOnUDF(ctx, in.Path, in.Name, args)
}

// testTool is the test tool: udfx test.
func (s *server) testTool(ctx context.Context, _ *mcp.CallToolRequest, in TestInput) (*mcp.CallToolResult, any, error) {
	if (in.SQL == "") == (in.RewriteFile == "") {
		return nil, nil, errors.New("give the candidate with exactly one of sql or rewrite_file")
	}
	args := []string{"test", "--format=json"}
	if in.SQL != "" {
		args = append(args, "--sql="+in.SQL)
	}
	if in.RewriteFile != "" {
		rel, err := s.local("rewrite_file", in.RewriteFile)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, "--rewrite="+rel)
	}
	if in.Samples != "" {
		rel, err := s.local("samples", in.Samples)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, "--samples="+rel)
	}
	args = appendInt(args, "rows", in.Rows)
	args = appendSeed(args, in.Seed)
	args = appendEngine(args, in.Engine)
	return s.callOnUDF(ctx, in.Path, in.Name, args)
}

// benchTool is the bench tool: udfx bench.
func (s *server) benchTool(ctx context.Context, _ *mcp.CallToolRequest, in BenchInput) (*mcp.CallToolResult, any, error) {
	args := []string{"bench", "--format=json"}
	if in.SQL != "" {
		args = append(args, "--sql="+in.SQL)
	}
	args = appendEngine(args, in.Engine)
	args = appendInt(args, "rows", in.Rows)
	args = appendInt(args, "runs", in.Runs)
	args = appendSeed(args, in.Seed)
	return s.callOnUDF(ctx, in.Path, in.Name, args)
}

// rewriteTool is the rewrite tool: udfx rewrite.
func (s *server) rewriteTool(ctx context.Context, _ *mcp.CallToolRequest, in RewriteInput) (*mcp.CallToolResult, any, error) {
	// The outside agent is the model: udfx's own agent stays the
	// offline translator, whatever the server's environment holds.
	args := []string{"rewrite", "--agent=builtin"}
	if len(in.Targets) > 0 {
		args = append(args, "--target="+strings.Join(in.Targets, ","))
	}
	if in.Apply {
		args = append(args, "--apply")
	}
	args = appendInt(args, "rows", in.Rows)
	args = appendSeed(args, in.Seed)
	args = appendEngine(args, in.Engine)
	return s.callOnUDF(ctx, in.Path, in.Name, args)
}

// verifyTool is the verify tool: udfx verify.
func (s *server) verifyTool(ctx context.Context, _ *mcp.CallToolRequest, in VerifyInput) (*mcp.CallToolResult, any, error) {
	args := []string{"verify", "--format=json"}
	if in.SkipRerun {
		args = append(args, "--skip-rerun")
	}
	args = append(args, "--")
	if in.Path != "" {
		rel, err := s.local("path", in.Path)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, rel)
	}
	return s.call(ctx, args)
}

// callOnUDF runs a command whose last argument is the UDF FILE[:NAME],
// after the flags and a "--" that keeps a path from reading as a flag.
func (s *server) callOnUDF(ctx context.Context, path, name string, args []string) (*mcp.CallToolResult, any, error) {
	target, err := s.udf(path, name)
	if err != nil {
		return nil, nil, err
	}
	return s.call(ctx, append(args, "--", target))
}

func appendInt(args []string, flag string, v int) []string {
	if v == 0 {
		return args
	}
	return append(args, "--"+flag+"="+strconv.Itoa(v))
}

func appendSeed(args []string, seed *int64) []string {
	if seed == nil {
		return args
	}
	return append(args, "--seed="+strconv.FormatInt(*seed, 10))
}

// appendEngine passes the engine through; udfx itself rejects an unknown
// one with a usage error that the tool result carries.
func appendEngine(args []string, engine string) []string {
	if engine == "" {
		return args
	}
	return append(args, "--engine="+engine)
}

// PathError is a tool input naming a path outside the server's folder.
type PathError struct {
	Field, Path, Reason string
}

func (e *PathError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.Field, e.Path, e.Reason)
}

// local checks that p stays inside the root, symlinks resolved where the
// path exists, and returns it relative to the root, so the command's
// output shows the paths as the agent gave them.
func (s *server) local(field, p string) (string, error) {
	if p == "" {
		return "", &PathError{field, p, "must not be empty"}
	}
	if strings.ContainsRune(p, 0) {
		return "", &PathError{field, p, "holds a NUL byte"}
	}
	abs := filepath.Clean(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.root, abs)
	}
	rel, err := filepath.Rel(s.root, abs)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", &PathError{field, p, "leads outside the server's folder " + s.root}
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		if r, err := filepath.Rel(s.real, real); err != nil || !filepath.IsLocal(r) && r != "." {
			return "", &PathError{field, p, "is a link leading outside the server's folder " + s.root}
		}
	}
	return rel, nil
}

// udf checks the path of a UDF's file and adds its name.
func (s *server) udf(path, name string) (string, error) {
	rel, err := s.local("path", path)
	if err != nil {
		return "", err
	}
	if name != "" {
		rel += ":" + name
	}
	return rel, nil
}

// call runs one command and turns its outcome into a tool result: the
// command's stdout as text (and, when it is a JSON object, as structured
// content too), and for a non-zero exit code isError with the code and
// stderr, so the agent sees why and can correct itself.
func (s *server) call(ctx context.Context, args []string) (*mcp.CallToolResult, any, error) {
	s.mu.Lock()
	r := s.run(ctx, args)
	s.mu.Unlock()
	res := &mcp.CallToolResult{Content: []mcp.Content{}}
	if r.Stdout != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: r.Stdout})
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(r.Stdout), &obj) == nil {
			res.StructuredContent = json.RawMessage(strings.TrimSpace(r.Stdout))
		}
	}
	if r.ExitCode != 0 {
		res.IsError = true
		msg := fmt.Sprintf("udfx %s exited with code %d (%s)", args[0], r.ExitCode, meaning(r.ExitCode))
		if e := strings.TrimSpace(r.Stderr); e != "" {
			msg += ":\n" + e
		}
		res.Content = append(res.Content, &mcp.TextContent{Text: msg})
	} else if e := strings.TrimSpace(r.Stderr); e != "" {
		res.Content = append(res.Content, &mcp.TextContent{Text: "udfx " + args[0] + " warned:\n" + e})
	} else if len(res.Content) == 0 {
		res.Content = append(res.Content, &mcp.TextContent{Text: fmt.Sprintf("udfx %s finished (exit code 0)", args[0])})
	}
	return res, nil, nil
}

func meaning(code int) string {
	switch code {
	case 1:
		return "a check failed"
	case 2:
		return "bad usage"
	case 3:
		return "udfx could not do its job"
	case 4:
		return "an interrupted --apply could not be rolled back"
	}
	return "unexpected exit code"
}
