// Package mavenjar finds a jar in the local Maven repository and, when it
// is missing, has Maven fetch it. The generated RapidsUDF classes are
// compiled against the real cuDF and RAPIDS jars, and --engine comet runs
// Spark with the real DataFusion Comet jar; only Maven Central serves
// them.
package mavenjar

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/udfx/udfx/harness/buildpath"

	"github.com/udfx/udfx/harness/filelock"
)

// The artifacts the RapidsUDF targets compile against: cudf 26.08.1 and
// rapids-4-spark_2.13 26.08.1, the newest releases, published only with a
// CUDA classifier (their native libraries inside). RapidsUDF
// (com.nvidia.spark.RapidsUDF) is only in the rapids-4-spark dist jar.
const (
	CuDF   = "ai.rapids:cudf:26.08.1:jar:cuda12"
	Rapids = "com.nvidia:rapids-4-spark_2.13:26.08.1:jar:cuda12"
)

// Comet is Apache DataFusion Comet 1.2.0 built for Spark 4.1 and Scala
// 2.13, the Spark udfx pins (spark.PinnedVersion). The jar (about 99 MB)
// carries libcomet.so for linux/amd64 and arm64.
const Comet = "org.apache.datafusion:comet-spark-spark4.1_2.13:1.2.0:jar"

// PrereqError says what is missing and how to get it.
type PrereqError struct{ Msg string }

func (e *PrereqError) Error() string { return e.Msg }

// RepoEnv names the folder udfx uses as Maven's local repository instead
// of ~/.m2/repository. CI points it at an empty folder so that a test
// which needs a jar cannot lean on an earlier run having fetched it.
const RepoEnv = buildpath.MavenRepoEnv

// LocalRepo is the Maven local repository udfx reads jars from and has
// mvn fetch into: $UDFX_MAVEN_REPO, else ~/.m2/repository.
func LocalRepo() (string, error) {
	if d := os.Getenv(RepoEnv); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home folder for Maven's local repository (%w); set %s", err, RepoEnv)
	}
	return filepath.Join(home, ".m2", "repository"), nil
}

// Path is where artifact (group:artifact:version:jar[:classifier]) lies
// in the local repository.
func Path(repo, artifact string) (string, error) {
	f := strings.Split(artifact, ":")
	if len(f) < 4 || len(f) > 5 || f[3] != "jar" {
		return "", fmt.Errorf("artifact %q: want group:artifact:version:jar[:classifier]", artifact)
	}
	name := f[1] + "-" + f[2]
	if len(f) == 5 {
		name += "-" + f[4]
	}
	dir := filepath.Join(append([]string{repo}, strings.Split(f[0], ".")...)...)
	return filepath.Join(dir, f[1], f[2], name+".jar"), nil
}

// Find returns the artifact's jar when the local repository has it.
func Find(artifact string) (string, bool) {
	_, jar, err := locate(artifact)
	if err != nil || !isFile(jar) {
		return "", false
	}
	return jar, true
}

// locate is the local repository and where artifact's jar lies in it.
func locate(artifact string) (repo, jar string, err error) {
	if repo, err = LocalRepo(); err != nil {
		return "", "", err
	}
	jar, err = Path(repo, artifact)
	return repo, jar, err
}

// Resolve returns the artifact's jar, asking Maven to fetch it into the
// local repository when it is missing (the cuDF and RAPIDS jars are about
// 0.7 and 1.0 GB; the first fetch takes minutes). Concurrent callers
// (parallel test binaries, two udfx runs) take turns through a lock file
// in the local repository: one fetches, the others wait and then find the
// jar, so no two mvn processes ever write the same files.
func Resolve(ctx context.Context, artifact string, progress func(string)) (string, error) {
	if progress == nil {
		progress = func(string) {}
	}
	repo, jar, err := locate(artifact)
	if err != nil {
		return "", err
	}
	if isFile(jar) {
		return jar, nil
	}
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return "", &PrereqError{Msg: fmt.Sprintf("%s is not in the local Maven repository (%s) and there is no mvn to fetch it: install Maven (on Debian or Ubuntu: apt-get install maven), or fetch it once with mvn dependency:get -Dartifact=%s", artifact, repo, artifact)}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		return "", fmt.Errorf("Maven's local repository: %w", err)
	}
	lock := filepath.Join(repo, ".udfx-fetch.lock")
	unlock, err := filelock.Lock(ctx, lock, func() { progress("waiting for another udfx run that is fetching jars with Maven") })
	if err != nil {
		return "", fmt.Errorf("fetch %s: lock %s: %w", artifact, lock, err)
	}
	defer unlock()
	if isFile(jar) {
		return jar, nil
	}
	progress("fetching " + artifact + " with Maven into " + repo + " (first run only)")
	// maven.repo.local is explicit because the JVM takes user.home from
	// the password database, not $HOME: without it mvn and Find could
	// look in two different folders.
	cmd := exec.CommandContext(ctx, mvn, "-B", "-q", "-Dmaven.repo.local="+repo, "dependency:get", "-Dtransitive=false", "-Dartifact="+artifact)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("mvn dependency:get %s: %v:\n%s", artifact, err, strings.TrimSpace(string(out)))
	}
	if !isFile(jar) {
		return "", fmt.Errorf("mvn fetched %s but %s is not there", artifact, jar)
	}
	return jar, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
