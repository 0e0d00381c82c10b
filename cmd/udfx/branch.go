package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/internal/batch"
	"github.com/udfx/udfx/internal/patch"
	"github.com/udfx/udfx/internal/termsafe"
)

// A folder run's --branch NAME commits each verified rewrite on a new
// branch, one commit per UDF, and never touches the working tree, the
// index or the current branch: the commits are built with git's plumbing
// (hash-object, a temporary index read from HEAD, write-tree,
// commit-tree), so no checkout is made and none is left behind, and the
// branch's ref is created only once the last commit is made. An
// interruption leaves no branch and no changed file: only objects that
// nothing names, which git's gc removes. Commit hooks do not run (no
// `git commit`, no work tree to run them in).

// branchRepo is where --branch builds its branch: the repository every
// path of the run lies in, checked before anything runs.
type branchRepo struct {
	name string
	root string
	// head is the commit the branch starts from.
	head string
	env  []string
}

// checkBranch refuses --branch NAME, before anything runs, when the paths
// are not all in one git repository, the repository has no commit yet,
// NAME is not a branch name git takes as it is, or a branch NAME exists.
func checkBranch(ctx context.Context, e *env, name string, paths []string) (*branchRepo, error) {
	root := ""
	for _, p := range paths {
		dir := e.abs(p)
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			dir = filepath.Dir(dir)
		}
		r := patch.RepoRoot(dir)
		if _, err := os.Stat(filepath.Join(r, ".git")); err != nil {
			return nil, usageErrorf("--branch %s: %s is not in a git repository", name, p)
		}
		if root != "" && r != root {
			return nil, usageErrorf("--branch %s: %s and %s are in different git repositories (%s, %s): run once per repository", name, paths[0], p, root, r)
		}
		root = r
	}
	b := &branchRepo{name: name, root: root, env: gitEnviron(e)}
	// git check-ref-format --branch also expands @{-1} and the like to
	// the branch they stand for: NAME must come back as it went in.
	out, err := b.git(ctx, nil, "check-ref-format", "--branch", name)
	if err != nil || out != name || strings.HasPrefix(name, "-") {
		return nil, usageErrorf("--branch %q is not a valid branch name (git check-ref-format --branch)", name)
	}
	if _, err := b.git(ctx, nil, "rev-parse", "--verify", "--quiet", "refs/heads/"+name); err == nil {
		return nil, usageErrorf("--branch %s: a branch %s already exists in %s: pick another name, or delete it first (git branch -D %s)", name, name, root, name)
	}
	if b.head, err = b.git(ctx, nil, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return nil, usageErrorf("--branch %s: %s has no commit yet to start the branch from", name, root)
	}
	return b, nil
}

// gitEnviron is the environment of --branch's git commands: the
// process's, with where git reads its configuration taken from env (main
// reads the process's; tests point it at an empty configuration).
func gitEnviron(e *env) []string {
	out := os.Environ()
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM"} {
		if v := e.getenv(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// git runs git in the repository with stdin, and returns its output
// without the final newline.
func (b *branchRepo) git(ctx context.Context, stdin []byte, args ...string) (string, error) {
	return b.gitIndex(ctx, "", stdin, args...)
}

// gitIndex is git with index as its index file ("" for the repository's
// own).
func (b *branchRepo) gitIndex(ctx context.Context, index string, stdin []byte, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = b.root, b.env
	if index != "" {
		cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], "GIT_INDEX_FILE="+index)
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// identity is the -c options that give git an identity for the commits
// where the user configured none: a configured one is never overridden
// (and GIT_AUTHOR_*, GIT_COMMITTER_* and EMAIL, when set, still win).
func (b *branchRepo) identity(ctx context.Context) []string {
	var args []string
	if _, err := b.git(ctx, nil, "config", "--get", "user.name"); err != nil {
		args = append(args, "-c", "user.name=udfx")
	}
	if _, err := b.git(ctx, nil, "config", "--get", "user.email"); err != nil && !hasEnv(b.env, "EMAIL") {
		args = append(args, "-c", "user.email=udfx@localhost")
	}
	return args
}

// hasEnv is whether environ sets key to something.
func hasEnv(environ []string, key string) bool {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, key+"="); ok && v != "" {
			return true
		}
	}
	return false
}

// branchCommit is one UDF's commit on the branch.
type branchCommit struct {
	item *batch.Item
	res  *udfResult
}

// buildBranch commits the patch of every verified UDF on the branch, one
// commit each, and creates the branch at the last. It leaves out, and
// names, a patch that clashes with another (as --apply does) and one
// whose files differ from HEAD: its proof is of the working tree's file,
// and the branch starts from HEAD. It returns the commits made.
func buildBranch(ctx context.Context, w io.Writer, e *env, b *branchRepo, items []batch.Item, results map[*batch.Item]*udfResult) (int, error) {
	picked, left := verifiedPatches(e, items, results)
	var notes []string
	for _, l := range left {
		notes = append(notes, fmt.Sprintf("%s: %s; commit it afterwards with udfx rewrite %s --apply", l.item.UDF.Name, l.why, l.item.Ref))
	}
	tmp, err := os.MkdirTemp("", "udfx-branch-")
	if err != nil {
		return 0, fmt.Errorf("--branch %s: %w", b.name, err)
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index")
	if _, err := b.gitIndex(ctx, index, nil, "read-tree", b.head); err != nil {
		return 0, fmt.Errorf("--branch %s: %w", b.name, err)
	}
	ident := b.identity(ctx)
	parent, n := b.head, 0
	for _, p := range picked {
		if p.res.root != b.root {
			notes = append(notes, fmt.Sprintf("%s: its patch is for %s, not %s", p.item.UDF.Name, p.res.root, b.root))
			continue
		}
		if why, err := b.differsFromHead(ctx, repoPath(b.root, e.abs(p.item.UDF.File)), p.res.changes); err != nil {
			return 0, fmt.Errorf("--branch %s: %w", b.name, err)
		} else if why != "" {
			notes = append(notes, fmt.Sprintf("%s: %s, and the branch is built from HEAD: commit the file and run again, or apply it to the working tree with udfx rewrite %s --apply", p.item.UDF.Name, why, p.item.Ref))
			continue
		}
		if err := patch.CheckRecordKept(p.res.changes); err != nil {
			notes = append(notes, fmt.Sprintf("%s: %v", p.item.UDF.Name, err))
			continue
		}
		c, err := b.commit(ctx, index, ident, parent, p)
		if err != nil {
			return 0, fmt.Errorf("--branch %s: commit of %s: %w; no branch was created", b.name, p.item.UDF.Name, err)
		}
		parent, n = c, n+1
		if e.branchCommitted != nil {
			if err := e.branchCommitted(n); err != nil {
				return 0, fmt.Errorf("--branch %s: %w; no branch was created", b.name, err)
			}
		}
	}
	if n == 0 {
		fmt.Fprintf(w, "branch         %s not created: no verified rewrite to commit\n", b.name)
	} else {
		if _, err := b.git(ctx, nil, "branch", b.name, parent); err != nil {
			return 0, fmt.Errorf("--branch %s: %w; no branch was created", b.name, err)
		}
		fmt.Fprintf(w, "branch         %s: %d commits, one per verified rewrite, on HEAD %s; the working tree and the current branch are as they were (git switch %s to review)\n",
			b.name, n, b.head[:min(12, len(b.head))], b.name)
	}
	for _, l := range notes {
		fmt.Fprintf(w, "not on branch  %s\n", termsafe.String(l))
	}
	if dirty, err := b.git(ctx, nil, "status", "--porcelain", "--untracked-files=no"); err == nil && dirty != "" {
		files := strings.Split(dirty, "\n")
		fmt.Fprintf(w, "note           the branch starts from HEAD: uncommitted changes in %d files are not on it (%s)\n", len(files), termsafe.String(firstFiles(files, 5)))
	}
	return n, nil
}

// firstFiles names up to k of git status's lines' files.
func firstFiles(lines []string, k int) string {
	var names []string
	for _, l := range lines[:min(k, len(lines))] {
		names = append(names, strings.TrimSpace(l[min(3, len(l)):]))
	}
	s := strings.Join(names, ", ")
	if len(lines) > k {
		s += fmt.Sprintf(", and %d more", len(lines)-k)
	}
	return s
}

// differsFromHead says why the file that defines a UDF (def) or its
// patch's files are not as HEAD has them, "" when they are: the proof and
// the patch were made from the working tree's files.
func (b *branchRepo) differsFromHead(ctx context.Context, def string, changes []patch.FileChange) (string, error) {
	patched := false
	for _, c := range changes {
		patched = patched || c.Path == def
	}
	if !patched {
		blob, _, err := b.headBlob(ctx, def)
		if err != nil {
			return "", err
		}
		if blob == "" {
			return def + " is not committed", nil
		}
		oid, err := b.git(ctx, nil, "hash-object", "--", def)
		if err != nil {
			return "", err
		}
		if oid != blob {
			return def + " has uncommitted changes", nil
		}
	}
	for _, c := range changes {
		blob, _, err := b.headBlob(ctx, c.Path)
		if err != nil {
			return "", err
		}
		switch {
		case c.Old == nil && blob != "":
			return c.Path + " is in HEAD but not in the working tree", nil
		case c.Old == nil:
			continue
		case blob == "":
			return c.Path + " is not committed", nil
		}
		// The working tree's bytes as git would store them (its
		// line-ending and other filters applied).
		oid, err := b.git(ctx, c.Old, "hash-object", "--path="+c.Path, "--stdin")
		if err != nil {
			return "", err
		}
		if oid != blob {
			return c.Path + " has uncommitted changes", nil
		}
	}
	return "", nil
}

// headBlob is the blob and mode of path in HEAD; "" when HEAD has no
// such file.
func (b *branchRepo) headBlob(ctx context.Context, path string) (oid, mode string, err error) {
	out, err := b.git(ctx, nil, "ls-tree", "-z", b.head, "--", path)
	if err != nil {
		return "", "", err
	}
	// <mode> SP <type> SP <oid> TAB <path> NUL
	meta, _, ok := strings.Cut(strings.TrimSuffix(out, "\x00"), "\t")
	f := strings.Fields(meta)
	if !ok || len(f) != 3 || f[1] != "blob" {
		return "", "", nil
	}
	return f[2], f[0], nil
}

// commit stages one UDF's patch in index and commits it on parent.
func (b *branchRepo) commit(ctx context.Context, index string, ident []string, parent string, p branchCommit) (string, error) {
	for _, c := range p.res.changes {
		if c.New == nil {
			if _, err := b.gitIndex(ctx, index, nil, "update-index", "--force-remove", "--", c.Path); err != nil {
				return "", err
			}
			continue
		}
		oid, err := b.git(ctx, c.New, "hash-object", "-w", "--path="+c.Path, "--stdin")
		if err != nil {
			return "", err
		}
		_, mode, err := b.headBlob(ctx, c.Path)
		if err != nil {
			return "", err
		}
		if mode == "" {
			mode = "100644"
		}
		if _, err := b.gitIndex(ctx, index, nil, "update-index", "--add", "--cacheinfo", mode+","+oid+","+c.Path); err != nil {
			return "", err
		}
	}
	tree, err := b.gitIndex(ctx, index, nil, "write-tree")
	if err != nil {
		return "", err
	}
	args := append(append([]string{}, ident...), "commit-tree", tree, "-p", parent, "-F", "-")
	return b.git(ctx, []byte(commitMessage(p)), args...)
}

// commitMessage names the UDF, its file, the target, the measured
// speedup and the evidence record of one UDF's commit.
func commitMessage(p branchCommit) string {
	r := p.res.row
	speedup := "speedup not measured"
	if r.Speedup != 0 {
		speedup = fmt.Sprintf("%.1f× faster", r.Speedup)
	}
	var m strings.Builder
	fmt.Fprintf(&m, "udfx: rewrite %s (%s) to %s, %s\n\n", p.item.UDF.Name, p.item.UDF.File, r.Target, speedup)
	fmt.Fprintf(&m, "UDF:      %s\nFile:     %s\nTarget:   %s\n", p.item.UDF.Name, p.item.UDF.File, r.Target)
	if r.Speedup != 0 {
		fmt.Fprintf(&m, "Speedup:  %.2f× (median of alternating runs, original against rewrite)\n", r.Speedup)
	} else {
		m.WriteString("Speedup:  not measured for this target (its test time is no benchmark)\n")
	}
	if r.RewriteDir != "" {
		fmt.Fprintf(&m, "Evidence: %s/evidence.json\n", r.RewriteDir)
	}
	fmt.Fprintf(&m, "\nProved by udfx %s with a differential test against the original; udfx verify checks the evidence record again.\n", version)
	return m.String()
}
