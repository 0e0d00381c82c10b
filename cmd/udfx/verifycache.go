package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/verify"
	"github.com/udfx/udfx/internal/confine"
	"github.com/udfx/udfx/internal/digest"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/sandbox"
)

// udfxCacheDir is where udfx keeps what outlives a run: env.CacheDir,
// else os.UserCacheDir()/udfx.
func (e *env) udfxCacheDir() (string, error) {
	if e.CacheDir != "" {
		return e.CacheDir, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "udfx"), nil
}

// gateCache is the proof cache of one `udfx verify` run over root: nil
// with --skip-rerun, which re-runs nothing. Its folder must lie outside
// the repository, where a pull request can write nothing the gate would
// take for a proof; its Base names everything a re-run depends on beyond
// the repository's files.
func gateCache(e *env, opts *verifyOptions, root, python string, mode sandbox.Mode) (*verify.ProofCache, error) {
	if opts.skipRerun {
		return nil, nil
	}
	dir := opts.cacheDir
	if dir == "" {
		d, err := e.udfxCacheDir()
		if err != nil {
			if opts.full {
				return nil, nil // nothing to read, nowhere to keep
			}
			return nil, usageErrorf("udfx has no cache folder here (%v): name one outside the repository with --cache-dir, or pass --full", err)
		}
		dir = filepath.Join(d, "verify")
	}
	dir = e.abs(dir)
	top := patch.RepoRoot(root)
	for _, repo := range []string{root, top} {
		if confine.Within(existingPath(repo), existingPath(dir)) {
			return nil, usageErrorf("the proof cache %s lies inside the repository %s, where a pull request could write what the gate takes for a proof: name a folder outside it with --cache-dir", dir, repo)
		}
	}
	exe, err := executableSHA256()
	if err != nil {
		return nil, internalError(err)
	}
	py, err := pythonKey(e, python)
	if err != nil {
		// Without its packages no key says what a re-run ran on: every
		// record is re-run, and the re-run says what is wrong with it.
		return nil, nil
	}
	contained := "uncontained"
	if d, err := sandbox.Decide(mode); err == nil && d.Contained() {
		contained = "contained"
	}
	settings := []string{
		"timeout=" + opts.timeout.String(), fmt.Sprint("memory=", opts.memoryMB),
		"sandbox=" + string(mode) + " " + contained, "require-engine=" + opts.requireEngine,
		"spark-master=" + opts.spark.master, "spark-remote=" + opts.spark.remote, "comet-jar=" + opts.spark.cometJar,
	}
	return &verify.ProofCache{
		Dir:  dir,
		Base: digest.Key("udfx verify proof cache", version, exe, py, jvmKey(e.getenv), strings.Join(settings, "\n")),
		Full: opts.full,
	}, nil
}

// existingPath is p with the links of its longest existing prefix
// resolved: a cache folder not created yet may still lie, through a
// link above it, inside the repository.
func existingPath(p string) string {
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
