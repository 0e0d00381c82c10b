package sarif

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArtifact(t *testing.T) {
	assert.Equal(t, ArtifactLocation{URI: "dir%20with%20space/a.py", URIBaseID: "SRCROOT"}, Artifact("dir with space/a.py"))
	assert.Equal(t, ArtifactLocation{URI: "file:///abs/a%25b.py"}, Artifact("/abs/a%b.py"))
}

func TestWrite(t *testing.T) {
	var b bytes.Buffer
	rules := []Rule{{ID: "r", Name: "R", DefaultConfiguration: Configuration{Level: "note"}}}
	require.NoError(t, Write(&b, "1.2.3", rules, nil))
	var log Log
	require.NoError(t, json.Unmarshal(b.Bytes(), &log))
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	assert.Equal(t, "1.2.3", log.Runs[0].Tool.Driver.Version)
	assert.NotNil(t, log.Runs[0].Results, "an empty run still has a results array")
	assert.Contains(t, b.String(), `"results": []`)
}
