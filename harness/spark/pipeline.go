package spark

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// PipelineJob runs an RDD chain and its DataFrame rewrite over one text
// file (package harness/pipeline translates the chain).
type PipelineJob struct {
	// File is the Python module that holds the chain: the chain runs in
	// its namespace (its imports, its functions), as the job runs it.
	File string
	// OriginalExpr is the chain's source text with its textFile(...)
	// replaced by the name __udfx_rdd__; RewriteExpr the DataFrame code
	// with its read.text(...) replaced by __udfx_text__.
	OriginalExpr, RewriteExpr string
	// Input is the text file both read.
	Input string
	// Runs and Warmup are for PipelineBench.
	Runs, Warmup int
	Progress     func(BenchRun)
}

// PipelineResult compares the collected results of both sides as
// multisets: each result with the Python type of each of its values.
type PipelineResult struct {
	OriginalRows int `json:"original_rows"`
	RewriteRows  int `json:"rewrite_rows"`
	// Distinct counts the original's distinct results.
	Distinct    int `json:"distinct"`
	Differences int `json:"differences"`
	// Examples are up to ten results whose counts differ.
	Examples []PipelineDifference `json:"examples"`
	Seconds  struct {
		Original float64 `json:"original"`
		Rewrite  float64 `json:"rewrite"`
	} `json:"seconds"`
	// Plan is the rewrite's executed physical plan.
	Plan string `json:"plan"`
}

// PipelineDifference is one result the sides hold a different number of
// times.
type PipelineDifference struct {
	Item     string   `json:"item"`
	Types    []string `json:"types"`
	Original int      `json:"original"`
	Rewrite  int      `json:"rewrite"`
}

// PipelineTest collects both sides and compares them. A side that fails
// is a *JobError; a module that does not import a *runner.CompileError.
func (s *Session) PipelineTest(ctx context.Context, job PipelineJob) (*PipelineResult, error) {
	raw, err := s.pipeline(ctx, job, "test")
	if err != nil {
		return nil, err
	}
	var res PipelineResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &SessionError{Msg: fmt.Sprintf("bad pipeline reply: %v", err), Log: s.logPath}
	}
	return &res, nil
}

// PipelineBench times both sides, each run collecting the results;
// measured runs alternate, each pair swapping which side goes first.
func (s *Session) PipelineBench(ctx context.Context, job PipelineJob) (*BenchResult, error) {
	if job.Runs <= 0 {
		job.Runs = 1
	}
	raw, err := s.pipeline(ctx, job, "bench")
	if err != nil {
		return nil, err
	}
	var reply struct {
		Warmup struct{ Original, Rewrite []float64 }
		Runs   struct{ Original, Rewrite []float64 }
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return nil, &SessionError{Msg: fmt.Sprintf("bad pipeline bench reply: %v", err), Log: s.logPath}
	}
	return &BenchResult{Original: reply.Runs.Original, Rewrite: reply.Runs.Rewrite,
		WarmupOriginal: reply.Warmup.Original, WarmupRewrite: reply.Warmup.Rewrite}, nil
}

func (s *Session) pipeline(ctx context.Context, job PipelineJob, mode string) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead != nil {
		return nil, s.dead
	}
	if s.info.Connect {
		return nil, &EnvError{What: "Spark Connect", Msg: "an RDD chain cannot run over Spark Connect, which has no SparkContext: use a local or cluster master"}
	}
	file, err := filepath.Abs(job.File)
	if err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	input, err := filepath.Abs(job.Input)
	if err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	if _, err := os.Stat(input); err != nil {
		return nil, fmt.Errorf("spark: pipeline input: %w", err)
	}
	req := map[string]any{"op": "pipeline", "mode": mode, "file": file, "input": input,
		"original_expr": job.OriginalExpr, "rewrite_expr": job.RewriteExpr, "runs": job.Runs, "warmup": job.Warmup}
	raw, werr, err := s.call(ctx, req, benchEvents(job.Progress))
	if err != nil {
		return nil, err
	}
	if werr != nil {
		return nil, s.requestError(werr, nil)
	}
	return raw, nil
}
