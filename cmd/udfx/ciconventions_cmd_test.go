package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/udfx/udfx/harness/evidence"
	"github.com/udfx/udfx/internal/treetest"
)

// The CI conventions udfx ships as files, run for real: the composite
// GitHub Action (action.yml), the pre-commit hook (.pre-commit-hooks.yaml)
// and the GitLab CI job (docs/gitlab-ci.yml), each against a temporary git
// repository that holds the verified Celsius rewrite of verify_cmd_test.go
// and then a broken one. Nothing here is skipped for a missing tool: CI
// installs Go, git, Python and bubblewrap, and the test installs
// pre-commit itself.
//
// udfx is built from a clone of the repository at HEAD with the working
// tree's CI files committed on top: what a user's runner checks out, not
// whatever half-edited files the working tree holds beside them.

// ciFiles are the files these tests run, copied from the working tree.
var ciFiles = []string{"action.yml", ".pre-commit-hooks.yaml", "docs/gitlab-ci.yml"}

// ciBranch is the branch of the clone the GitLab job checks out.
const ciBranch = "udfx-ci-conventions-test"

func TestCIConventions(t *testing.T) {
	for _, tool := range []string{"bash", "git", "go", "python3"} {
		_, err := exec.LookPath(tool)
		require.NoError(t, err, "%s is needed to run the CI conventions", tool)
	}
	// act (nektos/act) would run action.yml in a container; it is not
	// installed here, so the test plays the runner itself.
	if _, err := exec.LookPath("act"); err == nil {
		t.Log("act is installed; the test still plays the runner itself")
	}
	clone := ciClone(t)
	for _, tc := range []struct {
		name string
		run  func(*testing.T, string)
	}{
		{"github-action-flags", testActionFlags},
		{"github-action", testAction},
		{"pre-commit", testPreCommit},
		{"gitlab", testGitLabJob},
		{"docs", testCIDocs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			tc.run(t, clone)
			t.Logf("%s took %s", tc.name, time.Since(start).Round(time.Second))
		})
	}
}

// ciClone clones the repository at HEAD and commits the working tree's CI
// files on top, on ciBranch.
func ciClone(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "udfx")
	ciGit(t, "", "clone", "--quiet", repoRoot(t), dir)
	ciGit(t, dir, "checkout", "--quiet", "-B", ciBranch)
	for _, f := range ciFiles {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), f))
		require.NoError(t, err)
		writeFile(t, filepath.Join(dir, f), string(b))
	}
	ciGit(t, dir, append([]string{"add", "--"}, ciFiles...)...)
	ciGit(t, dir, "commit", "--quiet", "--allow-empty", "-m", "the working tree's CI files")
	return dir
}

// ciGit runs git in dir with a fixed identity and fails the test on error.
func ciGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(ciBaseEnv(t), "GIT_AUTHOR_NAME=udfx test", "GIT_AUTHOR_EMAIL=test@udfx.invalid",
		"GIT_COMMITTER_NAME=udfx test", "GIT_COMMITTER_EMAIL=test@udfx.invalid")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

// ciWorkspace is a git repository holding the verified Celsius rewrite.
func ciWorkspace(t *testing.T) string {
	t.Helper()
	dir := verifyRepo(t)
	ciGit(t, dir, "init", "--quiet")
	ciGit(t, dir, "add", ".")
	ciGit(t, dir, "commit", "--quiet", "-m", "a verified rewrite")
	return dir
}

// ciBaseEnv is the environment the CI tools run in: this process's,
// without what a CI system of its own would set, with udfx's cache folder
// empty and Go's caches where they are (XDG_CACHE_HOME would move them).
func ciBaseEnv(t *testing.T) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CI" || k == "XDG_CACHE_HOME" || k == "GOCACHE" || k == "GOMODCACHE" ||
			strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "RUNNER_") ||
			strings.HasPrefix(k, "CI_") || strings.HasPrefix(k, "GITLAB_") || strings.HasPrefix(k, "PRE_COMMIT") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "XDG_CACHE_HOME="+ciCacheHome(t), "GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
}

var ciCache string

// ciCacheHome is an empty cache folder shared by the tests of this binary:
// udfx finds no proof and no Python environment of the user's there.
func ciCacheHome(t *testing.T) string {
	if ciCache == "" {
		ciCache = filepath.Join(testCacheDir, "ci-xdg-cache")
		require.NoError(t, os.MkdirAll(ciCache, 0o755))
	}
	return ciCache
}

var goEnvCache = map[string]string{}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	if v, ok := goEnvCache[name]; ok {
		return v
	}
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err)
	v := strings.TrimSpace(string(out))
	require.NotEmpty(t, v, "go env %s", name)
	goEnvCache[name] = v
	return v
}

// setEnv returns env with name set to value.
func setEnv(env []string, name, value string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// GitHub Action.

type actionFile struct {
	Name   string `yaml:"name"`
	Inputs map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
}

func readAction(t *testing.T, clone string) *actionFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(clone, "action.yml"))
	require.NoError(t, err)
	var a actionFile
	require.NoError(t, yaml.Unmarshal(b, &a))
	require.Equal(t, "composite", a.Runs.Using)
	for name, def := range map[string]string{"path": ".", "sarif-file": "udfx.sarif", "args": "", "full": "false", "upload-sarif": "true", "proof-cache": "true"} {
		require.Contains(t, a.Inputs, name)
		assert.Equal(t, def, a.Inputs[name].Default, "input %s", name)
	}
	for _, st := range a.Runs.Steps {
		if st.Uses != "" {
			continue
		}
		// Expressions are expanded into the script's text before the shell
		// sees it: an input there is script injection.
		assert.NotContains(t, st.Run, "${{", "step %q: inputs reach the shell through env, never through the script's text", st.Name)
		assert.Equal(t, "bash", st.Shell, "step %q", st.Name)
		assert.True(t, strings.HasPrefix(st.Run, "set -euo pipefail\n"), "step %q starts with set -euo pipefail", st.Name)
		assert.Empty(t, st.If, "step %q: the test runner runs run: steps only while all before them succeed", st.Name)
	}
	return &a
}

// actionRunner plays GitHub's runner for the action's run: steps: the
// environment files, the expressions the action uses, PATH additions and
// step outputs.
type actionRunner struct {
	t          *testing.T
	action     *actionFile
	actionPath string
	workspace  string
	temp       string
	inputs     map[string]string
	forkPR     bool
	// pullRequest is a pull request from a branch of the repository
	// itself; sha and ref are the commit and ref the run is for.
	pullRequest bool
	sha, ref    string
	// cache plays actions/cache (nil: no entry is ever found or kept).
	cache   *actionsCache
	paths   []string                     // from $GITHUB_PATH, newest first
	outputs map[string]map[string]string // step id → outputs
	log     strings.Builder
}

func newActionRunner(t *testing.T, a *actionFile, actionPath, workspace string, inputs map[string]string) *actionRunner {
	r := &actionRunner{t: t, action: a, actionPath: actionPath, workspace: workspace, temp: t.TempDir(),
		inputs: map[string]string{}, outputs: map[string]map[string]string{}, sha: "0123456789abcdef", ref: "refs/heads/main"}
	for name, in := range a.Inputs {
		r.inputs[name] = in.Default
	}
	for name, v := range inputs {
		require.Contains(t, a.Inputs, name, "the action has no input %s", name)
		r.inputs[name] = v
	}
	return r
}

var exprRE = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// expand replaces each ${{ expression }} in s with its value.
func (r *actionRunner) expand(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return r.eval(exprRE.FindStringSubmatch(m)[1])
	})
}

// eval evaluates the expressions the action uses, and fails the test on
// any other: the runner here knows only what it was taught.
func (r *actionRunner) eval(e string) string {
	e = strings.TrimSpace(e)
	if name, ok := strings.CutPrefix(e, "inputs."); ok {
		v, ok := r.inputs[name]
		require.True(r.t, ok, "${{ %s }}: the action has no such input", e)
		return v
	}
	if rest, ok := strings.CutPrefix(e, "steps."); ok {
		id, name, ok := strings.Cut(rest, ".outputs.")
		require.True(r.t, ok, "${{ %s }}", e)
		return r.outputs[id][name]
	}
	switch e {
	case "github.action_path":
		return r.actionPath
	case "github.workspace":
		return r.workspace
	case "runner.temp":
		return r.temp
	case "github.event.pull_request.head.repo.fork == true":
		return strconv.FormatBool(r.forkPR)
	case "github.event.pull_request.head.repo.fork != true":
		return strconv.FormatBool(!r.forkPR)
	case "runner.os":
		return "Linux"
	case "github.sha":
		return r.sha
	case "github.event_name":
		return r.eventName()
	case "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)":
		return strconv.FormatBool(r.ref == "refs/heads/main")
	}
	r.t.Fatalf("the test's runner cannot evaluate ${{ %s }}: teach it", e)
	return ""
}

// condition evaluates an if: of terms joined by &&: always(), or a
// comparison with a quoted string or true.
func (r *actionRunner) condition(cond string, failed bool) bool {
	ok := true
	always := false
	for _, term := range strings.Split(cond, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "always()":
			always = true
		case strings.Contains(term, " == '"):
			lhs, rhs, _ := strings.Cut(term, " == ")
			ok = ok && r.eval(lhs) == strings.Trim(rhs, "'")
		default:
			ok = ok && r.eval(term) == "true"
		}
	}
	return ok && (always || !failed)
}

// eventName is the event the run is for.
func (r *actionRunner) eventName() string {
	if r.forkPR || r.pullRequest {
		return "pull_request"
	}
	return "push"
}

// runSteps runs the action's steps in order and returns the exit code of
// the first run: step that failed (0 if none) and the upload step, which
// it does not run (it needs GitHub), with whether it would run. The
// actions/cache steps it plays with r.cache.
func (r *actionRunner) runSteps(steps []actionStep) (code int, upload *actionStep, uploads bool) {
	t := r.t
	failed := false
	for i := range steps {
		st := &steps[i]
		switch action, _, _ := strings.Cut(st.Uses, "@"); action {
		case "":
		case "github/codeql-action/upload-sarif":
			require.Nil(t, upload, "one upload step")
			upload = st
			uploads = r.condition(st.If, failed)
			continue
		case "actions/cache/restore", "actions/cache/save":
			if r.condition(st.If, failed) && r.cache != nil {
				path, key := r.expand(st.With["path"]), r.expand(st.With["key"])
				if action == "actions/cache/save" {
					r.cache.save(t, path, key)
				} else {
					r.cache.restore(t, path, key, r.expand(st.With["restore-keys"]))
				}
			}
			continue
		default:
			t.Fatalf("the test's runner cannot play uses: %s: teach it", st.Uses)
		}
		if failed {
			continue
		}
		if c := r.runStep(st); c != 0 {
			code, failed = c, true
		}
	}
	return code, upload, uploads
}

// runStep runs one run: step as GitHub's runner does with shell: bash.
func (r *actionRunner) runStep(st *actionStep) int {
	t := r.t
	files := filepath.Join(r.temp, "_runner_file_commands")
	require.NoError(t, os.MkdirAll(files, 0o755))
	pathFile, outputFile := filepath.Join(files, "path"), filepath.Join(files, "output_"+st.ID)
	for _, f := range []string{pathFile, outputFile, filepath.Join(files, "env"), filepath.Join(files, "summary")} {
		require.NoError(t, os.WriteFile(f, nil, 0o644))
	}
	script := filepath.Join(r.temp, "step.sh")
	require.NoError(t, os.WriteFile(script, []byte(st.Run), 0o644))

	event, eventName := `{}`, r.eventName()
	if r.forkPR {
		event = `{"pull_request":{"head":{"repo":{"fork":true}}}}`
	} else if r.pullRequest {
		event = `{"pull_request":{"head":{"repo":{"fork":false}}}}`
	}
	eventFile := filepath.Join(files, "event.json")
	require.NoError(t, os.WriteFile(eventFile, []byte(event), 0o644))

	env := ciBaseEnv(t)
	env = append(env, "CI=true", "GITHUB_ACTIONS=true", "RUNNER_OS=Linux", "RUNNER_TEMP="+r.temp,
		"GITHUB_WORKSPACE="+r.workspace, "GITHUB_ACTION_PATH="+r.actionPath,
		"GITHUB_EVENT_NAME="+eventName, "GITHUB_EVENT_PATH="+eventFile,
		"GITHUB_PATH="+pathFile, "GITHUB_OUTPUT="+outputFile, "GITHUB_ENV="+filepath.Join(files, "env"),
		"GITHUB_STEP_SUMMARY="+filepath.Join(files, "summary"))
	env = setEnv(env, "PATH", strings.Join(append(append([]string{}, r.paths...), os.Getenv("PATH")), string(os.PathListSeparator)))
	for k, v := range st.Env {
		env = setEnv(env, k, r.expand(v))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = r.workspace
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	r.log.WriteString("## " + st.Name + "\n" + string(out))
	code := 0
	if err != nil {
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "step %q", st.Name)
		code = ee.ExitCode()
	}

	b, err := os.ReadFile(pathFile)
	require.NoError(t, err)
	for _, p := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if p != "" {
			r.paths = append([]string{p}, r.paths...)
		}
	}
	if st.ID != "" {
		b, err := os.ReadFile(outputFile)
		require.NoError(t, err)
		r.outputs[st.ID] = map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok {
				r.outputs[st.ID][k] = v
			}
		}
	}
	return code
}

// actionsCache plays actions/cache: a folder saved under a key once (a
// key is never overwritten), restored by its exact key or else as the
// newest entry whose key starts with the restore key.
type actionsCache struct {
	dir   string
	keys  []string // in the order saved
	saves int
}

func (c *actionsCache) save(t *testing.T, path, key string) {
	if slices.Contains(c.keys, key) {
		return
	}
	if _, err := os.Stat(path); err != nil {
		return
	}
	treetest.Copy(t, path, filepath.Join(c.dir, strconv.Itoa(len(c.keys))))
	c.keys = append(c.keys, key)
	c.saves++
}

func (c *actionsCache) restore(t *testing.T, path, key, prefix string) {
	for i := len(c.keys) - 1; i >= 0; i-- {
		if c.keys[i] == key || prefix != "" && strings.HasPrefix(c.keys[i], prefix) {
			treetest.Copy(t, filepath.Join(c.dir, strconv.Itoa(i)), path)
			return
		}
	}
}

// stepByID returns the action's step with id.
func stepByID(t *testing.T, a *actionFile, id string) actionStep {
	t.Helper()
	for _, st := range a.Runs.Steps {
		if st.ID == id {
			return st
		}
	}
	t.Fatalf("action.yml has no step %q", id)
	return actionStep{}
}

// testActionFlags runs the verify step with an udfx that records its
// arguments: when --full is passed, and that inputs reach udfx as data.
func testActionFlags(t *testing.T, clone string) {
	a := readAction(t, clone)
	verifyStep := stepByID(t, a, "verify")
	stub := t.TempDir()
	argsFile := filepath.Join(stub, "args")
	writeFile(t, filepath.Join(stub, "udfx"), "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" > '"+argsFile+"'\n")
	require.NoError(t, os.Chmod(filepath.Join(stub, "udfx"), 0o755))

	for _, tc := range []struct {
		name   string
		fork   bool
		inputs map[string]string
		want   []string
	}{
		{"push", false, nil, []string{"verify", "--sarif", "udfx.sarif", "--cache-dir", "$PROOFS", "--", "."}},
		{"full input", false, map[string]string{"full": "true"}, []string{"verify", "--sarif", "udfx.sarif", "--full", "--cache-dir", "$PROOFS", "--", "."}},
		{"fork pull request", true, nil, []string{"verify", "--sarif", "udfx.sarif", "--full", "--cache-dir", "$PROOFS", "--", "."}},
		{"no proof cache", false, map[string]string{"proof-cache": "false"}, []string{"verify", "--sarif", "udfx.sarif", "--", "."}},
		{"inputs are data", false, map[string]string{
			"path": "sub dir", "sarif-file": "out $(touch sarif-pwned).sarif", "proof-cache": "false",
			"args": "--junit \"a b.xml\"\n  $(touch pwned) ;touch\tpwned2 `touch pwned3`",
		}, []string{"verify", "--sarif", "out $(touch sarif-pwned).sarif", "--junit", `"a`, `b.xml"`, "$(touch", "pwned)", ";touch", "pwned2", "`touch", "pwned3`", "--", "sub dir"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			r := newActionRunner(t, a, clone, ws, tc.inputs)
			r.forkPR = tc.fork
			r.paths = []string{stub}
			require.Equal(t, 0, r.runStep(&verifyStep), r.log.String())
			b, err := os.ReadFile(argsFile)
			require.NoError(t, err)
			want := slices.Clone(tc.want)
			if i := slices.Index(want, "$PROOFS"); i >= 0 {
				// In the runner's temporary folder, outside the workspace.
				want[i] = filepath.Join(r.temp, "udfx-proofs")
			}
			assert.Equal(t, want, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
			entries, err := os.ReadDir(ws)
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing an input holds runs")
			assert.Empty(t, r.outputs["verify"]["sarif"], "the stub wrote no SARIF file")
		})
	}
}

// testAction runs the action over a verified rewrite, then over a forged
// record whose hashes were updated: only the re-run catches it.
func testAction(t *testing.T, clone string) {
	a := readAction(t, clone)
	ws := ciWorkspace(t)
	// A hosted runner's RUNNER_TEMP is the same folder in every job (and
	// so is PATH, which the proof cache's key reads), emptied between jobs:
	// the proof cache lives on only through actions/cache.
	runnerTemp := t.TempDir()
	store := &actionsCache{dir: t.TempDir()}
	jobs := 0
	job := func(inputs map[string]string) *actionRunner {
		require.NoError(t, os.RemoveAll(runnerTemp))
		require.NoError(t, os.Mkdir(runnerTemp, 0o755))
		r := newActionRunner(t, a, clone, ws, inputs)
		r.temp, r.cache = runnerTemp, store
		jobs++
		r.sha = fmt.Sprintf("%040d", jobs)
		return r
	}
	r := job(map[string]string{"args": "--junit udfx-junit.xml"})
	code, upload, uploads := r.runSteps(a.Runs.Steps)
	require.Equal(t, 0, code, r.log.String())
	assert.Contains(t, r.log.String(), "1 rewrite checked (1 records): 1 pass")
	assert.Equal(t, []string{filepath.Join(r.temp, "udfx-bin")}, r.paths, "the build step puts udfx on PATH")

	require.NotNil(t, upload, "the action uploads the SARIF report")
	assert.True(t, strings.HasPrefix(upload.Uses, "github/codeql-action/upload-sarif@"), upload.Uses)
	assert.Equal(t, "${{ inputs.sarif-file }}", upload.With["sarif_file"])
	assert.Contains(t, upload.If, "always()")
	assert.Contains(t, upload.If, "inputs.upload-sarif == 'true'")
	assert.True(t, uploads, "a written report is uploaded")
	sarifDoc := readSARIF(t, filepath.Join(ws, "udfx.sarif"))
	assert.Empty(t, sarifDoc.Runs[0].Results, "a passing rewrite has no result")
	junit, err := os.ReadFile(filepath.Join(ws, "udfx-junit.xml"))
	require.NoError(t, err, "args reach udfx verify")
	require.NoError(t, xml.Unmarshal(junit, new(struct{})), "the JUnit report is XML")

	// Not uploaded when the input says no.
	r.inputs["upload-sarif"] = "false"
	assert.False(t, r.condition(upload.If, false))

	require.Equal(t, 1, store.saves, "a push to the default branch saves the proof cache")

	// Again, on the next commit: the restored proof cache holds the
	// passing re-run.
	r = job(nil)
	code, _, _ = r.runSteps(a.Runs.Steps)
	require.Equal(t, 0, code, r.log.String())
	assert.Contains(t, r.log.String(), "from the proof cache: 1")
	// A pull request from the repository's own branch reads the default
	// branch's proofs but never saves: its originals ran in the job.
	saves := store.saves
	r = job(nil)
	r.pullRequest = true
	code, _, _ = r.runSteps(a.Runs.Steps)
	require.Equal(t, 0, code, r.log.String())
	assert.Contains(t, r.log.String(), "from the proof cache: 1")
	assert.Equal(t, saves, store.saves, "a pull request's run saves no proof cache")
	// Nor does a push to another branch.
	r = job(nil)
	r.ref = "refs/heads/feature"
	code, _, _ = r.runSteps(a.Runs.Steps)
	require.Equal(t, 0, code, r.log.String())
	assert.Equal(t, saves, store.saves, "a push to another branch saves no proof cache")
	// A fork's pull request re-runs every record, and uploads nothing: its
	// token cannot write security events.
	r = job(nil)
	r.forkPR = true
	code, _, uploads = r.runSteps(a.Runs.Steps)
	require.Equal(t, 0, code, r.log.String())
	assert.Contains(t, r.log.String(), "re-run now: 1 records (--full)")
	assert.False(t, uploads)
	assert.Equal(t, saves, store.saves)

	// A forged record: the rewrite changed and its hash with it.
	forgeRecord(t, ws, "celsius * 1.8 + 32.0", func(*evidence.Record) {})
	require.NoError(t, os.Remove(filepath.Join(ws, "udfx.sarif")))
	r = job(nil)
	code, _, uploads = r.runSteps(a.Runs.Steps)
	assert.Equal(t, exitFailed, code, r.log.String())
	assert.Contains(t, r.log.String(), "::error ", "annotations for the failing rewrite")
	assert.True(t, uploads, "the report of a failed gate is uploaded too")
	sarifDoc = readSARIF(t, filepath.Join(ws, "udfx.sarif"))
	require.Len(t, sarifDoc.Runs[0].Results, 1)
	assert.Equal(t, "mismatch", sarifDoc.Runs[0].Results[0].RuleID)
}

type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Results []struct {
			RuleID string `json:"ruleId"`
		} `json:"results"`
	} `json:"runs"`
}

func readSARIF(t *testing.T, path string) sarifLog {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the SARIF report is written")
	require.True(t, json.Valid(b), "the SARIF report is JSON: %s", b)
	var doc sarifLog
	require.NoError(t, json.Unmarshal(b, &doc))
	assert.Equal(t, "2.1.0", doc.Version)
	require.Len(t, doc.Runs, 1)
	return doc
}

// pre-commit.

// testPreCommit installs pre-commit into a virtual environment and runs
// the hook with try-repo, which builds udfx with go install as a user's
// pre-commit does.
func testPreCommit(t *testing.T, clone string) {
	b, err := os.ReadFile(filepath.Join(clone, ".pre-commit-hooks.yaml"))
	require.NoError(t, err)
	var hooks []struct {
		ID            string `yaml:"id"`
		Name          string `yaml:"name"`
		Description   string `yaml:"description"`
		Entry         string `yaml:"entry"`
		Language      string `yaml:"language"`
		PassFilenames *bool  `yaml:"pass_filenames"`
		AlwaysRun     bool   `yaml:"always_run"`
	}
	require.NoError(t, yaml.Unmarshal(b, &hooks))
	require.Len(t, hooks, 1)
	h := hooks[0]
	assert.Equal(t, "udfx-verify", h.ID)
	assert.Equal(t, "udfx verify --skip-rerun", h.Entry)
	assert.Equal(t, "golang", h.Language)
	require.NotNil(t, h.PassFilenames)
	assert.False(t, *h.PassFilenames)
	assert.True(t, h.AlwaysRun)
	assert.Contains(t, h.Name, "drift check")
	assert.Contains(t, h.Description, "not a proof")

	venv := filepath.Join(t.TempDir(), "venv")
	env := ciBaseEnv(t)
	ciRun(t, "", env, "python3", "-m", "venv", venv)
	ciRun(t, "", env, filepath.Join(venv, "bin", "pip"), "install", "--quiet", "pre-commit==4.6.2")
	preCommit := filepath.Join(venv, "bin", "pre-commit")
	assert.Equal(t, "pre-commit 4.6.2", strings.TrimSpace(ciRun(t, "", env, preCommit, "--version")))

	ws := ciWorkspace(t)
	env = setEnv(env, "PRE_COMMIT_HOME", filepath.Join(t.TempDir(), "pre-commit-home"))
	env = append(env, "PRE_COMMIT_COLOR=never")
	tryRepo := func() (string, int) {
		cmd := exec.Command(preCommit, "try-repo", clone, "udfx-verify", "--all-files", "--verbose")
		cmd.Dir, cmd.Env = ws, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, "%s", out)
			return string(out), ee.ExitCode()
		}
		return string(out), 0
	}
	out, code := tryRepo()
	require.Equal(t, 0, code, out)
	assert.Regexp(t, `udfx verify --skip-rerun \(drift check, not a proof\)\.+Passed`, out)
	assert.Contains(t, out, "1 rewrite checked (1 records, hashes only): 1 pass")

	// Drift: the rewrite was edited after it was proved.
	writeSQLRewrite(t, ws, "celsius * 1.8 + 32.0")
	out, code = tryRepo()
	assert.Equal(t, 1, code, out)
	assert.Regexp(t, `udfx verify --skip-rerun \(drift check, not a proof\)\.+Failed`, out)
	assert.Contains(t, out, "stale-rewrite")
}

// ciRun runs name in dir and fails the test unless it succeeds.
func ciRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
	return string(out)
}

// GitLab CI.

// testGitLabJob runs the script of docs/gitlab-ci.yml's job as GitLab's
// shell executor does, one shell for all its lines, with the install line
// turned off by its variable and udfx cloned from the local clone.
func testGitLabJob(t *testing.T, clone string) {
	b, err := os.ReadFile(filepath.Join(clone, "docs", "gitlab-ci.yml"))
	require.NoError(t, err)
	var jobs map[string]struct {
		Image     string            `yaml:"image"`
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
		Artifacts struct {
			When    string   `yaml:"when"`
			Paths   []string `yaml:"paths"`
			Reports struct {
				JUnit string `yaml:"junit"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	require.NoError(t, yaml.Unmarshal(b, &jobs))
	job, ok := jobs["udfx-verify"]
	require.True(t, ok, "docs/gitlab-ci.yml has the job udfx-verify")
	assert.Equal(t, "udfx-junit.xml", job.Artifacts.Reports.JUnit)
	assert.Equal(t, "always", job.Artifacts.When, "the reports of a failed gate are kept")
	assert.ElementsMatch(t, []string{"udfx.sarif", "udfx-junit.xml"}, job.Artifacts.Paths)
	require.Contains(t, job.Variables, "UDFX_INSTALL_PREREQUISITES")
	require.Contains(t, job.Variables, "UDFX_REPO")
	require.Contains(t, job.Variables, "UDFX_REF")
	var installs, verifies int
	for _, l := range job.Script {
		if strings.Contains(l, "apt-get") {
			installs++
			assert.True(t, strings.HasPrefix(l, `if [ "$UDFX_INSTALL_PREREQUISITES" = true ]; then `), "the install line is gated: %s", l)
		}
		if strings.HasPrefix(l, "udfx verify ") {
			verifies++
			assert.Contains(t, l, "--junit udfx-junit.xml")
			assert.Contains(t, l, "--sarif udfx.sarif")
		}
	}
	assert.Equal(t, 1, installs)
	assert.Equal(t, 1, verifies)

	ws := ciWorkspace(t)
	env := ciBaseEnv(t)
	env = append(env, "CI=true", "GITLAB_CI=true", "CI_PROJECT_DIR="+ws, "CI_JOB_NAME=udfx-verify")
	for k, v := range job.Variables {
		assert.NotContains(t, v, "$", "variable %s: the test passes variables as they are", k)
		env = setEnv(env, k, v)
	}
	env = setEnv(env, "UDFX_INSTALL_PREREQUISITES", "false")
	env = setEnv(env, "UDFX_REPO", "file://"+clone)
	env = setEnv(env, "UDFX_REF", ciBranch)
	env = setEnv(env, "TMPDIR", t.TempDir())
	script := filepath.Join(t.TempDir(), "script.sh")
	require.NoError(t, os.WriteFile(script, []byte(strings.Join(job.Script, "\n")+"\n"), 0o644))
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir, cmd.Env = ws, env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "1 rewrite checked (1 records): 1 pass")

	junit, err := os.ReadFile(filepath.Join(ws, "udfx-junit.xml"))
	require.NoError(t, err, "the job writes the JUnit report")
	var suites struct {
		XMLName xml.Name `xml:"testsuites"`
		Tests   int      `xml:"tests,attr"`
	}
	require.NoError(t, xml.Unmarshal(junit, &suites), "%s", junit)
	assert.Equal(t, 1, suites.Tests)
	readSARIF(t, filepath.Join(ws, "udfx.sarif"))
}

// Docs.

// testCIDocs keeps docs/ci.md and README's pointers in step with the files
// the other subtests run.
func testCIDocs(t *testing.T, clone string) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "ci.md"))
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	for _, s := range []string{"uses: udfx/udfx@main", "repo: https://github.com/udfx/udfx", "id: udfx-verify"} {
		assert.Contains(t, string(doc), s)
		assert.Contains(t, string(readme), s)
	}
	assert.Contains(t, string(readme), "(docs/ci.md)")
	for name := range readAction(t, clone).Inputs {
		assert.Contains(t, string(doc), "| `"+name+"` |", "docs/ci.md's table of inputs lists %s", name)
	}

	// docs/ci.md shows the GitLab job as docs/gitlab-ci.yml holds it.
	var shown, file any
	_, rest, ok := strings.Cut(string(doc), "```yaml\nudfx-verify:\n")
	require.True(t, ok, "docs/ci.md shows the GitLab job")
	block, _, ok := strings.Cut(rest, "```")
	require.True(t, ok)
	require.NoError(t, yaml.Unmarshal([]byte("udfx-verify:\n"+block), &shown))
	b, err := os.ReadFile(filepath.Join(clone, "docs", "gitlab-ci.yml"))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &file))
	assert.Equal(t, file, shown, "docs/ci.md's GitLab job differs from docs/gitlab-ci.yml")
}
