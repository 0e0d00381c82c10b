package sparkversion

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// udfx.yaml states the Spark of a repository whose files pin none: as the
// root folder's declaration, which a nearer project's own pin overrides
// and a pin beside it must agree with.
func TestUdfxYAMLDeclaresTheSparkOfItsFolder(t *testing.T) {
	ds := ParseUdfxYAML("udfx.yaml", []byte("version: 1\n# the jobs run on Databricks\nspark:\n  databricks_runtime: 15.4 LTS\nrelaxations: []\n"))
	assert.Equal(t, []Declared{{Version: "3.5", File: "udfx.yaml", Line: 4, Text: "spark: databricks_runtime: 15.4 LTS"}}, ds)
	assert.Empty(t, ParseUdfxYAML("udfx.yaml", []byte("spark:\n  databricks_runtime: \"9.1\"\n")), "a runtime udfx does not know declares nothing")
	assert.Empty(t, ParseUdfxYAML("udfx.yaml", []byte("relaxations: []\n")))
	assert.Empty(t, ParseUdfxYAML("udfx.yaml", []byte("spark: [\n")))

	root := t.TempDir()
	write := fileWriter(t, root)
	write("udfx.yaml", "spark:\n  version: \"3.5\"\n")
	write("jobs/daily.py", "")
	write("legacy/requirements.txt", "pyspark==3.4.1\n")
	write("legacy/old.py", "")
	d, ok, err := nearestResolved(root, "jobs/daily.py")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "3.5", d.Version)
	assert.Equal(t, "udfx.yaml", d.File)
	d, ok, err = nearestResolved(root, "legacy/old.py")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "3.4", d.Version, "the nearer project's pin")

	write("requirements.txt", "pyspark==4.1.1\n")
	_, _, err = nearestResolved(root, "jobs/daily.py")
	assert.True(t, IsConflict(err), "udfx.yaml and a pin beside it disagree: %v", err)
}

// The entry may state the jobs' ANSI mode beside the version, as a YAML
// boolean; anything else, or a mode with no version, declares nothing.
func TestUdfxYAMLStatesTheANSIMode(t *testing.T) {
	off := false
	ds := ParseUdfxYAML("udfx.yaml", []byte("spark:\n  version: \"4.1\"\n  ansi: false\n"))
	assert.Equal(t, []Declared{{Version: "4.1", File: "udfx.yaml", Line: 2, Text: "spark: version: 4.1",
		ANSI: &off, ANSILine: 3, ANSIText: "spark: ansi: false"}}, ds)
	on, from := DeclaredANSI(ds)
	require.NotNil(t, on)
	assert.False(t, *on)
	assert.Equal(t, "udfx.yaml:3: spark: ansi: false", from)
	on, from = DeclaredANSI(ParseUdfxYAML("udfx.yaml", []byte("spark:\n  databricks_runtime: \"15.4\"\n")))
	assert.Nil(t, on)
	assert.Empty(t, from)
	on, _ = DeclaredANSI(ParseUdfxYAML("jobs/udfx.yaml", []byte("spark:\n  version: \"4.1\"\n  ansi: false\n")))
	assert.Nil(t, on, "only the root's udfx.yaml states a mode")
	for _, bad := range []string{
		"spark:\n  ansi: false\n",                                  // no version
		"spark:\n  version: \"3.5\"\n  ansi: \"off\"\n",            // a string, not a boolean
		"spark:\n  version: \"3.5\"\n  ansi: 0\n",                  // nor a number
		"spark:\n  ansi: true\n  version: \"3.5\"\n  ansi: true\n", // twice
	} {
		assert.Empty(t, ParseUdfxYAML("udfx.yaml", []byte(bad)), bad)
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(bad), &doc))
		_, serr := ParseSparkSpec(doc.Content[0].Content[1])
		require.NotNil(t, serr, bad)
		assert.Contains(t, serr.Error(), "ansi", bad)
	}
}

func nearestResolved(root, rel string) (Declared, bool, error) {
	ds, err := Nearest(root, filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return Declared{}, false, err
	}
	return Resolve(ds)
}

func TestDatabricksSpark(t *testing.T) {
	for runtime, want := range map[string]string{
		"12.2": "3.3", "13.3 LTS": "3.4", "14.3.x-scala2.12": "3.5", "15.4": "3.5", " 16.4 LTS ": "3.5", "17.3.x-scala2.13": "4.0",
	} {
		got, ok := DatabricksSpark(runtime)
		assert.True(t, ok, runtime)
		assert.Equal(t, want, got, runtime)
	}
	for _, runtime := range []string{"", "16", "16.3", "11.3", "x.4", "15.4x"} {
		_, ok := DatabricksSpark(runtime)
		assert.False(t, ok, runtime)
	}
}

func FuzzUdfxYAML(f *testing.F) {
	for _, s := range []string{
		"spark:\n  version: \"3.5\"\n", "spark:\n  databricks_runtime: 15.4 LTS\n", "spark: 3.5\n",
		"spark:\n  version: 3.5\n  version: 4.1\n", "spark: {version: [1]}\n", "- spark\n", "spark:\n  version: 99999999999.1\n",
		"spark:\n  version: \"3.5\"\n  ansi: true\n", "spark: {ansi: no, version: \"4.0\"}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecls(t, s, ParseUdfxYAML("udfx.yaml", []byte(s)))
	})
}
