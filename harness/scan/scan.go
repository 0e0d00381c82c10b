// Package scan finds the UDFs in a tree of Scala, Java and Python files:
// it walks the paths (honouring .gitignore, skipping binary and vendored
// files, never looping on symlinks), parses the files in parallel with the
// language front-ends and gathers one deterministic Result.
package scan

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/notebook"
	"github.com/udfx/udfx/internal/regular"
	"github.com/udfx/udfx/internal/typeinfer"
)

// SchemaVersion is the version of the JSON document Result serialises to
// (docs/scan-json.md). Bump it on any incompatible change.
const SchemaVersion = 1

// Options say what to scan and how.
type Options struct {
	// Paths are files and folders; relative ones are taken from BaseDir.
	Paths []string
	// BaseDir is the folder paths are resolved against and reported
	// relative to; empty means the working directory.
	BaseDir string
	// Workers is the number of parsing goroutines; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, is called after each file with the number done
	// and the total, from a single goroutine.
	Progress func(done, total int)
	// NewFrontend makes the front-end for a language (frontends.New for
	// the built-in ones). Each worker gets its own.
	NewFrontend func(udf.Language) udf.Frontend
}

// Result is everything a scan found.
type Result struct {
	SchemaVersion int       `json:"schema_version"`
	FilesScanned  int       `json:"files_scanned"`
	UDFs          []udf.UDF `json:"udfs"`
	// Errors are files that were found but could not be parsed or read;
	// they contribute no UDFs.
	Errors  []*udf.ParseError `json:"errors"`
	Skipped []Skipped         `json:"skipped"`
}

// Run scans opts.Paths. It returns an *InputError for a path that cannot
// be scanned; files that fail to parse are reported in Result.Errors.
func Run(ctx context.Context, opts Options) (*Result, error) {
	base := opts.BaseDir
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("scan: working directory: %w", err)
		}
		base = wd
	}
	if len(opts.Paths) == 0 {
		opts.Paths = []string{"."}
	}
	w := &walker{base: base, seen: map[string]bool{}, visited: map[fileID]bool{}}
	for _, p := range opts.Paths {
		if err := w.add(p); err != nil {
			return nil, err
		}
	}
	newFrontend := opts.NewFrontend
	if newFrontend == nil {
		return nil, errors.New("scan: no front-ends given")
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(w.files) {
		workers = max(len(w.files), 1)
	}

	type outcome struct {
		udfs    []udf.UDF
		err     *udf.ParseError
		skipped string
		bug     error
	}
	outcomes := make([]outcome, len(w.files))
	jobs := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			frontends := map[udf.Language]udf.Frontend{}
			defer func() {
				for _, f := range frontends {
					f.Close()
				}
			}()
			for i := range jobs {
				f := w.files[i]
				fe := frontends[f.lang]
				if fe == nil {
					fe = newFrontend(f.lang)
					frontends[f.lang] = fe
				}
				udfs, perr, skipped, bug := parseFile(fe, f)
				outcomes[i] = outcome{udfs: udfs, err: perr, skipped: skipped, bug: bug}
				done <- i
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range w.files {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	n := 0
	for range done {
		n++
		if opts.Progress != nil {
			opts.Progress(n, len(w.files))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	}

	res := &Result{SchemaVersion: SchemaVersion, UDFs: []udf.UDF{}, Errors: []*udf.ParseError{}, Skipped: w.skipped}
	if res.Skipped == nil {
		res.Skipped = []Skipped{}
	}
	for i, o := range outcomes {
		switch {
		case o.bug != nil:
			return nil, o.bug
		case o.skipped != "":
			res.Skipped = append(res.Skipped, Skipped{File: w.files[i].path, Reason: o.skipped})
		case o.err != nil:
			res.FilesScanned++
			res.Errors = append(res.Errors, o.err)
		default:
			res.FilesScanned++
			res.UDFs = append(res.UDFs, o.udfs...)
		}
	}
	udf.SortUDFs(res.UDFs)
	return res, nil
}

// InternalError is a failure of udfx itself, not of the input.
type InternalError struct {
	File string
	Err  error
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error scanning %s: %v (please report this with the file)", e.File, e.Err)
}
func (e *InternalError) Unwrap() error { return e.Err }

// parseFile reads and parses one file. A front-end that panics is a bug in
// udfx: it comes back as an *InternalError naming the file rather than
// killing the process with a stack dump.
func parseFile(fe udf.Frontend, f file) (udfs []udf.UDF, perr *udf.ParseError, skipped string, bug error) {
	src, err := regular.ReadFile(f.abs, MaxFileSize)
	var notRegular *regular.NotRegularError
	var large *regular.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, nil, notRegular.Reason(), nil
	case errors.As(err, &large):
		return nil, nil, tooLarge, nil
	case err != nil:
		return nil, &udf.ParseError{File: f.path, Pos: udf.Position{Line: 1, Column: 1}, Message: fmt.Sprintf("read: %v", err)}, "", nil
	}
	if isBinary(src) {
		return nil, nil, "binary content", nil
	}
	if notebook.IsNotebook(f.path) {
		code, err := notebook.Code(f.path, src)
		switch {
		case errors.Is(err, notebook.ErrNotPython):
			return nil, nil, "a notebook in another language than Python", nil
		case err != nil:
			return nil, &udf.ParseError{File: f.path, Pos: udf.Position{Line: 1, Column: 1}, Message: err.Error()}, "", nil
		}
		src = code
	}
	defer func() {
		if r := recover(); r != nil {
			udfs, perr, skipped = nil, nil, ""
			bug = &InternalError{File: f.path, Err: fmt.Errorf("%s front-end panicked: %v", f.lang, r)}
		}
	}()
	udfs, err = fe.Parse(f.path, src)
	if err != nil {
		var pe *udf.ParseError
		if errors.As(err, &pe) {
			return nil, pe, "", nil
		}
		return nil, nil, "", &InternalError{File: f.path, Err: err}
	}
	for i := range udfs {
		// Types from use (a schema in the file, a udfx comment): a bad
		// comment leaves the UDF as the front-end typed it; the commands
		// that run the UDF report it.
		_ = typeinfer.Resolve(&udfs[i], src, typeinfer.Options{})
	}
	return udfs, nil, "", nil
}
