package batch

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// ChangedFiles are the files of dir's git repository that differ from
// ref: changed in commits since ref, changed in the working tree, or new
// and not ignored. The paths are absolute and slash-separated, as Filter
// takes them. A ref git does not know is an error that quotes git.
func ChangedFiles(ctx context.Context, dir, ref string) (map[string]bool, error) {
	if ref == "" || strings.HasPrefix(ref, "-") {
		return nil, fmt.Errorf("--changed-since %q: want a commit, branch or tag", ref)
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--changed-since needs a git repository: %w", err)
	}
	root := strings.TrimSpace(top)
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--changed-since %s: git knows no such commit", ref)
	}
	// -z: names as git stores them, no quoting of unusual bytes.
	changed, err := git(ctx, root, "diff", "--name-only", "-z", "--no-renames", ref, "--")
	if err != nil {
		return nil, fmt.Errorf("--changed-since %s: %w", ref, err)
	}
	untracked, err := git(ctx, root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("--changed-since %s: %w", ref, err)
	}
	files := map[string]bool{}
	for _, list := range []string{changed, untracked} {
		for _, name := range strings.Split(list, "\x00") {
			if name != "" {
				files[filepath.ToSlash(filepath.Join(root, filepath.FromSlash(name)))] = true
			}
		}
	}
	return files, nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return string(out), nil
}
