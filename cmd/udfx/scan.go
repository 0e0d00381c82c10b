package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/udfx/udfx/harness/scan"
	"github.com/udfx/udfx/harness/udf/frontends"
)

// scanOptions are the flags of `udfx scan`.
type scanOptions struct {
	format  string
	workers int
	// progressAfter is how long a scan runs before a progress bar appears
	// on a terminal; short scans print none.
	progressAfter time.Duration
}

var scanFormats = []string{"table", "json", "sarif"}

func newScanCmd(e *env) *cobra.Command {
	opts := &scanOptions{progressAfter: 300 * time.Millisecond}
	cmd := &cobra.Command{
		Use:   "scan [PATH...]",
		Short: "Find the UDFs in Scala, Java and Python source",
		Long: `Scan walks the given files and folders (default: the current folder) and
reports every Spark UDF defined in Scala, Java or Python source: its kind,
signature in Spark types, registered SQL names, use sites, the rewrite
targets that look feasible and the blockers found in its body.

Folders are walked honouring .gitignore files; binary files, vendored
folders (vendor, third_party, node_modules, site-packages, virtualenvs) and
hidden folders are skipped, and symlink loops are not followed. A file that
does not parse is reported with its line and skipped.

Exit codes: 0 scan completed (with or without UDFs), 2 bad usage or a path
that does not exist, 3 internal failure.`,
		Example: `  udfx scan examples
  udfx scan src/main --format json > udfs.json
  udfx scan . --format sarif > udfx.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runScan(cmd, e, opts, args)
		},
	}
	cmd.Flags().StringVarP(&opts.format, "format", "f", "table", "output format: table, json or sarif")
	cmd.Flags().IntVarP(&opts.workers, "workers", "j", 0, "parsing goroutines (0: one per CPU)")
	return cmd
}

func runScan(cmd *cobra.Command, e *env, opts *scanOptions, paths []string) error {
	write, err := scanWriter(opts.format)
	if err != nil {
		return err
	}
	if opts.workers < 0 {
		return usageErrorf("--workers must be 0 or more, got %d", opts.workers)
	}
	var progress *lazyProgress
	if e.StderrTTY {
		progress = &lazyProgress{w: e.Stderr, after: opts.progressAfter, start: time.Now()}
	}
	res, err := scan.Run(cmd.Context(), scan.Options{
		Paths:       paths,
		BaseDir:     e.WorkDir,
		Workers:     opts.workers,
		Progress:    progress.update,
		NewFrontend: frontends.New,
	})
	progress.finish()
	if err != nil {
		var inErr *scan.InputError
		if errors.As(err, &inErr) {
			return usageError(fmt.Errorf("scan %w", err))
		}
		return internalError(err)
	}
	if opts.format == "table" {
		// Parse errors are for the person at the terminal; json and sarif
		// carry them in the document.
		for _, pe := range res.Errors {
			fmt.Fprintf(e.Stderr, "warning: %v (file skipped)\n", pe)
		}
	}
	if err := write(e.Stdout, res); err != nil {
		return internalError(fmt.Errorf("write report: %w", err))
	}
	return nil
}

func scanWriter(format string) (func(io.Writer, *scan.Result) error, error) {
	switch format {
	case "table":
		return scan.WriteTable, nil
	case "json":
		return func(w io.Writer, r *scan.Result) error { return scan.WriteJSON(w, r, version) }, nil
	case "sarif":
		return func(w io.Writer, r *scan.Result) error { return scan.WriteSARIF(w, r, version) }, nil
	}
	return nil, usageErrorf("unknown --format %q: want one of %v", format, scanFormats)
}

// lazyProgress shows a progress bar on stderr once a scan has run longer
// than `after`, so quick scans stay quiet. A nil *lazyProgress does
// nothing.
type lazyProgress struct {
	w     io.Writer
	after time.Duration
	start time.Time
	bar   *progressbar.ProgressBar
}

func (p *lazyProgress) update(done, total int) {
	if p == nil {
		return
	}
	if p.bar == nil {
		if time.Since(p.start) < p.after || done == total {
			return
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("scanning"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("files"),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	_ = p.bar.Set(done)
}

func (p *lazyProgress) finish() {
	if p == nil || p.bar == nil {
		return
	}
	_ = p.bar.Finish()
}
