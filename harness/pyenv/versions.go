package pyenv

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// requirementsSpark35, requirementsSpark40 and requirementsSpark43 pin
// the environments of proofs for those Spark versions.
var (
	//go:embed requirements-spark3.5.txt
	requirementsSpark35 []byte
	//go:embed requirements-spark4.0.txt
	requirementsSpark40 []byte
	//go:embed requirements-spark4.3.txt
	requirementsSpark43 []byte
)

// SparkEnv is a managed environment udfx proves rewrites for one Spark
// version in: that version's pyspark, and the pandas, pyarrow and numpy
// it works with.
type SparkEnv struct {
	// Minor is the Spark version, major.minor ("3.5").
	Minor string
	// Requirements pins the environment; Version is its pyspark pin.
	Requirements []byte
	Version      string
}

// SparkEnvs are the Spark versions udfx proves for, oldest first: 3.5
// (Amazon EMR 7, Dataproc 2.2, Databricks 14.3 to 16.4 LTS), 4.0
// (Databricks 17.3 LTS), 4.1, the default (Requirements, which also
// carries the Python runner's and the vectorized targets' pins), and 4.3,
// the newest on PyPI. The others hold only what their Spark needs.
func SparkEnvs() []SparkEnv {
	return []SparkEnv{
		sparkEnv(requirementsSpark35),
		sparkEnv(requirementsSpark40),
		sparkEnv(Requirements),
		sparkEnv(requirementsSpark43),
	}
}

func sparkEnv(reqs []byte) SparkEnv {
	v := pysparkPin(reqs)
	return SparkEnv{Minor: minorOf(v), Requirements: reqs, Version: v}
}

// EnvFor is the environment of Spark version minor ("3.5"), or ok=false
// when udfx does not prove for it.
func EnvFor(minor string) (SparkEnv, bool) {
	for _, e := range SparkEnvs() {
		if e.Minor == minor {
			return e, true
		}
	}
	return SparkEnv{}, false
}

// DefaultSpark is the Spark version udfx proves for unless a project
// declares another: its own environment's.
func DefaultSpark() string { return minorOf(SparkVersion()) }

// SparkMinors lists the versions udfx proves for ("3.5, 4.1"), for
// messages.
func SparkMinors() string {
	var vs []string
	for _, e := range SparkEnvs() {
		vs = append(vs, e.Minor)
	}
	return strings.Join(vs, ", ")
}

// DefaultANSI is spark.sql.ansi.enabled's default in Spark minor: on
// from 4.0, off before it.
func DefaultANSI(minor string) bool {
	major, _, _ := strings.Cut(minor, ".")
	n, err := strconv.Atoi(major)
	return err == nil && n >= 4
}

// Ensure creates e's managed environment if it is not complete, and
// returns its interpreter.
func (e SparkEnv) Ensure(ctx context.Context, progress func(string)) (string, error) {
	d, err := e.Dir()
	if err != nil {
		return "", err
	}
	return Ensure(ctx, Options{Dir: d, Requirements: e.Requirements, Progress: progress})
}

// Dir is the managed folder of e: a new pin set gets a new folder, as
// for the default environment.
func (e SparkEnv) Dir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for udfx's Spark %s environment (%w); set UDFX_PYTHON to a Python with pyspark %s instead", e.Minor, err, e.Version)
	}
	return managedDirIn(cache, e.Requirements), nil
}

// Ready says whether e's managed environment is complete, and its
// interpreter.
func (e SparkEnv) Ready() (string, bool) {
	d, err := e.Dir()
	if err != nil {
		return "", false
	}
	return filepath.Join(d, "bin", "python"), ready(d, e.Requirements)
}

func managedDirIn(cache string, reqs []byte) string {
	sum := sha256.Sum256(reqs)
	return filepath.Join(cache, "udfx", "python-"+hex.EncodeToString(sum[:6]))
}

func pysparkPin(reqs []byte) string {
	for _, p := range pins(reqs) {
		if p[0] == "pyspark" {
			return p[1]
		}
	}
	return ""
}

// minorOf is "3.5" of "3.5.9".
func minorOf(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return ""
	}
	return parts[0] + "." + parts[1]
}
