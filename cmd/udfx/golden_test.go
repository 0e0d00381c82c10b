package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Golden end-to-end cases: each folder under testdata/golden holds
//
//	cmd             the arguments, one line, split on white space
//	stdout.golden   what udfx prints on stdout
//	stderr.golden   what it prints on stderr (absent: nothing)
//	exit-code       its exit code (absent: 0)
//
// and, where the case needs its own inputs, an input/ folder. udfx runs
// in-process with the repository root as its working directory.
//
// Regenerate after an intended change with
//
//	go test ./cmd/udfx -run TestGolden -update
//
// (or UDFX_UPDATE_GOLDEN=1), then review the diff.
var update = flag.Bool("update", false, "rewrite the golden files from the current output")

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return root
}

func TestGolden(t *testing.T) {
	regen := *update || os.Getenv("UDFX_UPDATE_GOLDEN") == "1"
	cases, err := filepath.Glob(filepath.Join("testdata", "golden", "*", "cmd"))
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for _, cmdFile := range cases {
		dir := filepath.Dir(cmdFile)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			line, err := os.ReadFile(cmdFile)
			require.NoError(t, err)
			args := strings.Fields(string(line))
			stdout, stderr, code := runCLI(t, repoRoot(t), args...)

			check := func(name, got string) {
				p := filepath.Join(dir, name)
				if regen {
					if got == "" && name != "stdout.golden" {
						_ = os.Remove(p)
						return
					}
					require.NoError(t, os.WriteFile(p, []byte(got), 0o644))
					return
				}
				want, err := os.ReadFile(p)
				if os.IsNotExist(err) && name != "stdout.golden" {
					want, err = nil, nil
				}
				require.NoError(t, err)
				assert.Equal(t, string(want), got, "%s differs (regenerate with -update and review the diff)", p)
			}
			check("stdout.golden", stdout)
			check("stderr.golden", stderr)
			codeText := ""
			if code != 0 {
				codeText = strconv.Itoa(code) + "\n"
			}
			check("exit-code", codeText)
		})
	}
}

// runCLI runs udfx in-process in dir and returns its output and exit code.
func runCLI(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, WorkDir: dir, Spark: sparkPool, CacheDir: testCacheDir})
	return stdout.String(), stderr.String(), code
}
