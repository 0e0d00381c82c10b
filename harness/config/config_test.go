package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"relaxations:\n  - udf: f\n    tolerance: 1\n    reason: r\n", `udfx.yaml:3: unknown key "tolerance" in a relaxation (want udf, file, ulp, rel, abs, signed_zero, allow_error_to_null, ansi, reason)`},
		{"relaxations:\n  - udf: f\n    abs: 1e9\n", "udfx.yaml:2: the relaxation of f has no reason: say why the project accepts it"},
		{"relaxations:\n  - udf: f\n    abs: 1e9\n    reason: \"  \"\n", "udfx.yaml:2: the relaxation of f has no reason"},
		{"relaxations:\n  - udf: f\n    abs: -1\n    reason: r\n", `udfx.yaml:3: abs "-1": want a finite number >= 0`},
		{"relaxations:\n  - udf: f\n    rel: .nan\n    reason: r\n", `udfx.yaml:3: rel ".nan": want a finite number >= 0`},
		{"relaxations:\n  - udf: f\n    ulp: 1.5\n    reason: r\n", `udfx.yaml:3: ulp "1.5": want a whole number >= 0`},
		{"relaxations:\n  - udf: f\n    signed_zero: loose\n    reason: r\n", `udfx.yaml:3: signed_zero "loose": want strict or lenient`},
		{"relaxations:\n  - udf: f\n    ansi: maybe\n    reason: r\n", `udfx.yaml:3: ansi "maybe": want true or false`},
		{"relaxations:\n  - udf: f\n    ansi: true\n    reason: r\n", "udfx.yaml:2: the relaxation of f relaxes nothing"},
		{"relaxations:\n  - abs: 1\n    reason: r\n", "udfx.yaml:2: a relaxation without udf"},
		{"relaxations:\n  - udf: f\n    abs: 1\n    reason: r\n  - udf: f\n    ulp: 2\n    reason: r\n", "udfx.yaml:5: a second entry for f (the first is at line 2)"},
		{"version: 2\n", `udfx.yaml:1: version "2": this udfx reads version 1`},
		{"relax: []\n", `udfx.yaml:1: unknown key "relax" (want version, relaxations, spark)`},
		{"relaxations: {udf: f}\n", "udfx.yaml:1: relaxations: want a list of entries"},
		{"spark: \"3.5\"\n", "udfx.yaml:1: spark: want a mapping with version or databricks_runtime"},
		{"spark:\n  version: \"3\"\n", `udfx.yaml:2: spark: version "3": want major.minor, such as "3.5"`},
		{"spark:\n  version: 3.5.x\n", `udfx.yaml:2: spark: version "3.5.x": want major.minor`},
		{"spark:\n  databricks_runtime: \"11.3\"\n", `udfx.yaml:2: spark: databricks_runtime "11.3": udfx knows the Spark of the LTS runtimes 12.2, 13.3, 14.3, 15.4, 16.4, 17.3; state another with version`},
		{"spark:\n  version: \"3.5\"\n  databricks_runtime: \"15.4\"\n", "udfx.yaml:3: spark: give one of version and databricks_runtime"},
		{"spark:\n  release: emr-7.5.0\n", `udfx.yaml:2: spark: unknown key "release" (want version or databricks_runtime, and optionally ansi)`},
		{"spark: {}\n", "udfx.yaml:1: spark: want version or databricks_runtime"},
		{"relaxations: [\n", "udfx.yaml: "},
		{"relaxations:\n  - udf: f\n    abs: 1\n    reason: the report rounds (reviewed in #123)\n", `udfx.yaml:4: reason: YAML reads "#123)" as a comment, so the reason would be cut to "the report rounds (reviewed in": quote it`},
	} {
		_, err := Parse("udfx.yaml", []byte(c.yaml))
		var ce *Error
		require.True(t, errors.As(err, &ce), "%q: %v", c.yaml, err)
		assert.Contains(t, err.Error(), c.want, c.yaml)
	}
	cfg, err := Parse("udfx.yaml", []byte("# nothing yet\n"))
	require.NoError(t, err)
	assert.Empty(t, cfg.Relaxations)
	assert.Nil(t, cfg.Spark)
	for text, want := range map[string]string{
		"spark:\n  version: \"3.5\"\n":                     "3.5",
		"spark:\n  version: 3.5.2\n":                       "3.5",
		"spark:\n  databricks_runtime: 15.4 LTS\n":         "3.5",
		"spark:\n  databricks_runtime: 16.4.x-scala2.12\n": "3.5",
		"spark:\n  databricks_runtime: \"13.3\"\n":         "3.4",
		"spark:\n  databricks_runtime: 17.3.x-scala2.13\n": "4.0",
	} {
		cfg, err := Parse("udfx.yaml", []byte(text))
		require.NoError(t, err, text)
		require.NotNil(t, cfg.Spark, text)
		assert.Equal(t, want, cfg.Spark.Version, text)
		assert.Equal(t, 2, cfg.Spark.Line, text)
	}
	for _, quoted := range []string{`"the report rounds (reviewed in #123)"`, `'the report rounds (reviewed in #123)'`, "|\n      the report rounds (reviewed in #123)"} {
		cfg, err := Parse("udfx.yaml", []byte("relaxations:\n  - udf: f\n    abs: 1\n    reason: "+quoted+"\n"))
		require.NoError(t, err, quoted)
		assert.Equal(t, "the report rounds (reviewed in #123)", strings.TrimSpace(cfg.Relaxations[0].Reason))
	}
	cfg, err = Parse("udfx.yaml", []byte("relaxations:\n  - udf: f\n    abs: 1\n    # reviewed in #123\n    reason: the report rounds\n"))
	require.NoError(t, err, "a comment on a line of its own cuts nothing")
	assert.Equal(t, "the report rounds", cfg.Relaxations[0].Reason)
}
