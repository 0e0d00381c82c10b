package mavenjar

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// small is a real artifact on Maven Central of 45 kB: the race below
// fetches it into an empty repository, where the cuDF jar would take
// minutes.
const small = "org.hamcrest:hamcrest-core:1.3:jar"

func TestPath(t *testing.T) {
	for _, c := range []struct{ artifact, want, err string }{
		{CuDF, "/r/ai/rapids/cudf/26.08.1/cudf-26.08.1-cuda12.jar", ""},
		{Comet, "/r/org/apache/datafusion/comet-spark-spark4.1_2.13/1.2.0/comet-spark-spark4.1_2.13-1.2.0.jar", ""},
		{"a:b:1:pom", "", "want group:artifact:version:jar"},
		{"a:b", "", "want group:artifact:version:jar"},
	} {
		got, err := Path("/r", c.artifact)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, c.artifact)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
	}
}

func TestLocalRepoFollowsTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(RepoEnv, dir)
	got, err := LocalRepo()
	require.NoError(t, err)
	assert.Equal(t, dir, got)

	t.Setenv(RepoEnv, "")
	t.Setenv("HOME", dir)
	got, err = LocalRepo()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, ".m2", "repository"), got)
}

// TestResolveWithoutMavenNamesWhatIsMissing: on a machine without mvn a
// missing jar is a PrereqError naming the artifact, the folder looked in
// and how to install Maven.
func TestResolveWithoutMavenNamesWhatIsMissing(t *testing.T) {
	repo := t.TempDir()
	t.Setenv(RepoEnv, repo)
	t.Setenv("PATH", t.TempDir())
	_, err := Resolve(context.Background(), CuDF, nil)
	var pe *PrereqError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, pe.Msg, CuDF)
	assert.Contains(t, pe.Msg, repo)
	assert.Contains(t, pe.Msg, "apt-get install maven")
}

// helperEnv makes the test binary a second udfx process that resolves
// one artifact (see TestResolveHelper).
const helperEnv = "UDFX_MAVENJAR_HELPER"

// TestResolveHelper is not a test: run with helperEnv set to an artifact
// by TestResolveInTwoProcessesAtOnce, it waits for the go file named by
// UDFX_MAVENJAR_GO, resolves the artifact and prints what it heard and
// the jar's path.
func TestResolveHelper(t *testing.T) {
	artifact := os.Getenv(helperEnv)
	if artifact == "" {
		return
	}
	for {
		if _, err := os.Stat(os.Getenv("UDFX_MAVENJAR_GO")); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	jar, err := Resolve(context.Background(), artifact, func(s string) { fmt.Println("progress:", s) })
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("jar:", jar)
}

// TestResolveInTwoProcessesAtOnce reproduces two test binaries preparing
// the same jar in an empty Maven repository at the same moment, as go test
// runs packages: exactly one runs mvn, the other waits for it, and both
// get the same complete jar from the repository UDFX_MAVEN_REPO names.
// Without the lock both ran mvn into the same folder.
func TestResolveInTwoProcessesAtOnce(t *testing.T) {
	if _, err := exec.LookPath("mvn"); err != nil {
		t.Fatal("mvn is needed to fetch jars (apt-get install maven): README lists it")
	}
	repo := t.TempDir()
	goFile := filepath.Join(t.TempDir(), "go")
	outs := make([]string, 2)
	errs := make([]error, 2)
	var started, wg sync.WaitGroup
	for i := range outs {
		started.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestResolveHelper$", "-test.count=1")
			cmd.Env = append(os.Environ(), helperEnv+"="+small, RepoEnv+"="+repo, "UDFX_MAVENJAR_GO="+goFile)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			errs[i] = cmd.Start()
			started.Done()
			if errs[i] == nil {
				errs[i] = cmd.Wait()
			}
			outs[i] = out.String()
		}()
	}
	started.Wait()
	require.NoError(t, os.WriteFile(goFile, nil, 0o644))
	wg.Wait()

	want, err := Path(repo, small)
	require.NoError(t, err)
	fetched, waited := 0, 0
	for i, out := range outs {
		require.NoError(t, errs[i], "process %d:\n%s", i, out)
		assert.Contains(t, out, "jar: "+want+"\n", "process %d", i)
		fetched += strings.Count(out, "progress: fetching "+small)
		waited += strings.Count(out, "progress: waiting for another udfx run")
	}
	assert.Equal(t, 1, fetched, "one process runs mvn:\n%s\n---\n%s", outs[0], outs[1])
	assert.Equal(t, 1, waited, "the other waits for it:\n%s\n---\n%s", outs[0], outs[1])

	z, err := zip.OpenReader(want)
	require.NoError(t, err, "the jar is whole")
	defer z.Close()
	found := false
	for _, f := range z.File {
		found = found || f.Name == "org/hamcrest/Matcher.class"
	}
	assert.True(t, found, "the jar holds the artifact's classes")

	// A later call finds it without Maven.
	t.Setenv(RepoEnv, repo)
	t.Setenv("PATH", t.TempDir())
	got, err := Resolve(context.Background(), small, func(s string) { t.Errorf("unexpected step %q", s) })
	require.NoError(t, err)
	assert.Equal(t, want, got)
	p, ok := Find(small)
	assert.True(t, ok)
	assert.Equal(t, want, p)
	_, ok = Find(CuDF)
	assert.False(t, ok, "the cuDF jar is not in this repository")
}
