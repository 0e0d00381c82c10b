package setup

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/internal/sandbox"
)

var update = flag.Bool("update", false, "rewrite testdata/prereqs.golden")

// fakeMachine is a machine with the given programs on PATH; outputs maps
// "prog arg…" to what the program prints, and fails lists the commands
// that exit non-zero.
type fakeMachine struct {
	path    map[string]string
	outputs map[string]string
	fails   map[string]bool
	env     map[string]string
}

func (m fakeMachine) system() System {
	return System{
		LookPath: func(name string) (string, error) {
			if p, ok := m.path[name]; ok {
				return p, nil
			}
			return "", errors.New("executable file not found in $PATH")
		},
		Output: func(_ context.Context, name string, args ...string) ([]byte, error) {
			key := strings.Join(append([]string{name}, args...), " ")
			if m.fails[key] {
				return []byte(m.outputs[key]), errors.New("exit status 1")
			}
			return []byte(m.outputs[key]), nil
		},
		Getenv: func(k string) string { return m.env[k] },
	}
}

// bwrapProbe is the probe's command line as the fake machine keys it.
var bwrapProbe = strings.Join(sandbox.ProbeArgs("/usr/bin/bwrap"), " ")

func complete() fakeMachine {
	return fakeMachine{
		path: map[string]string{"java": "/usr/bin/java", "javac": "/usr/bin/javac", "python3": "/usr/bin/python3", "mvn": "/usr/bin/mvn", "bwrap": "/usr/bin/bwrap"},
		outputs: map[string]string{
			"/usr/bin/java -version":                     "openjdk version \"17.0.15\" 2025-04-15\nOpenJDK Runtime Environment",
			"/usr/bin/python3 --version":                 "Python 3.11.7\n",
			"/usr/bin/python3 -c import venv, ensurepip": "",
			bwrapProbe: "bubblewrap 0.8.0\n",
		},
		fails: map[string]bool{},
		env:   map[string]string{},
	}
}

// TestPrerequisiteMessages pins the message a newcomer sees for each
// missing prerequisite: what is missing, what udfx needs it for and the
// command that installs it. Regenerate with go test ./harness/setup -update.
func TestPrerequisiteMessages(t *testing.T) {
	cases := []struct {
		name   string
		change func(m *fakeMachine)
	}{
		{"everything there", func(m *fakeMachine) {}},
		{"no java", func(m *fakeMachine) { delete(m.path, "java") }},
		{"java 11", func(m *fakeMachine) { m.outputs["/usr/bin/java -version"] = "openjdk version \"11.0.2\" 2019-01-15" }},
		{"java 8", func(m *fakeMachine) { m.outputs["/usr/bin/java -version"] = "java version \"1.8.0_392\"" }},
		{"JAVA_HOME without a java", func(m *fakeMachine) {
			m.env["JAVA_HOME"] = "/opt/nojdk"
			m.fails["/opt/nojdk/bin/java -version"] = true
		}},
		{"a JRE without javac", func(m *fakeMachine) { delete(m.path, "javac") }},
		{"no python3", func(m *fakeMachine) { delete(m.path, "python3") }},
		{"python 3.10", func(m *fakeMachine) { m.outputs["/usr/bin/python3 --version"] = "Python 3.10.12" }},
		{"python without venv", func(m *fakeMachine) {
			m.fails["/usr/bin/python3 -c import venv, ensurepip"] = true
			m.outputs["/usr/bin/python3 -c import venv, ensurepip"] = "ModuleNotFoundError: No module named 'ensurepip'"
		}},
		{"UDFX_PYTHON set", func(m *fakeMachine) { delete(m.path, "python3"); m.env["UDFX_PYTHON"] = "/opt/py/bin/python" }},
		{"no mvn", func(m *fakeMachine) { delete(m.path, "mvn") }},
		{"no bwrap", func(m *fakeMachine) { delete(m.path, "bwrap") }},
		{"bwrap without namespaces", func(m *fakeMachine) {
			m.fails[bwrapProbe] = true
			m.outputs[bwrapProbe] = "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces."
		}},
		{"UDFX_BWRAP set", func(m *fakeMachine) {
			m.env["UDFX_BWRAP"] = "/opt/bwrap/bin/bwrap"
			m.path["/opt/bwrap/bin/bwrap"] = "/opt/bwrap/bin/bwrap"
			m.outputs[strings.Join(sandbox.ProbeArgs("/opt/bwrap/bin/bwrap"), " ")] = "bubblewrap 0.11.0\n"
		}},
	}
	var b strings.Builder
	for _, tc := range cases {
		m := complete()
		tc.change(&m)
		checks := Checks(context.Background(), m.system())
		fmt.Fprintf(&b, "== %s (missing: %d)\n", tc.name, len(Missing(checks)))
		for _, c := range checks {
			switch {
			case c.OK:
				fmt.Fprintf(&b, "ok      %s: %s\n", c.Name, c.Found)
			case c.Optional:
				fmt.Fprintf(&b, "warning %s: %s\n", c.Name, c.Problem)
			default:
				fmt.Fprintf(&b, "MISSING %s: %s\n", c.Name, c.Problem)
			}
		}
	}
	golden := filepath.Join("testdata", "prereqs.golden")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test ./harness/setup -update to create it")
	assert.Equal(t, string(want), b.String())
}
