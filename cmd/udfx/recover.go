package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/udfx/udfx/internal/applyjournal"
	"github.com/udfx/udfx/internal/patch"
)

// repoOfArgs says which repository a command reads or writes, from its
// arguments, for the commands that do: they roll back an interrupted
// --apply before anything else. verify is not among them: a gate must
// not repair what it checks, so it fails with interrupted-apply instead.
var repoOfArgs = map[string]func(e *env, args []string) string{
	"rewrite":  udfRepo,
	"test":     udfRepo,
	"scaffold": udfRepo,
	"bench":    udfRepo,
}

// udfRepo is the repository of a FILE[:NAME] argument, found as
// locateUDF finds it; with no argument (rewrite --recover), the work
// directory's.
func udfRepo(e *env, args []string) string {
	dir := e.WorkDir
	if len(args) > 0 {
		ref := parseUDFRef(args[0], func(p string) bool {
			st, err := os.Stat(e.abs(p))
			return err == nil && !st.IsDir()
		})
		dir = filepath.Dir(e.abs(ref.path))
		if st, err := os.Stat(e.abs(ref.path)); err == nil && st.IsDir() {
			// udfx rewrite DIR: the folder's own repository.
			dir = e.abs(ref.path)
		}
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return patch.RepoRoot(dir)
}

// recoverApplies rolls back every interrupted --apply in the repository
// the command works on, before the command reads any of it, with a line
// on stderr for each. One it cannot roll back stops the command with
// exitState.
func recoverApplies(e *env, cmd *cobra.Command, args []string) error {
	repoOf, ok := repoOfArgs[cmd.Name()]
	if !ok {
		return nil
	}
	reps, err := patch.Recover(repoOf(e, args))
	for _, r := range reps {
		fmt.Fprintf(e.Stderr, "udfx: rolled back an interrupted --apply of %s: %s\n", r.UDF, r.Summary())
	}
	e.recovered += len(reps)
	if err == nil {
		return nil
	}
	var ce *applyjournal.ConflictError
	var de *applyjournal.DamagedError
	if errors.As(err, &ce) || errors.As(err, &de) {
		return stateError(err)
	}
	return internalError(err)
}
