//go:build unix

package inputs

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/udf"
	"github.com/udfx/udfx/internal/regular"
)

// TestSamplesRefuseDevicesAndPipes: /dev/zero (which never ends) and a
// named pipe (which blocks in open) are refused with the reason, at once.
func TestSamplesRefuseDevicesAndPipes(t *testing.T) {
	params := []Param{{Name: "x", Type: udf.Prim(udf.Double)}}
	fifo := filepath.Join(t.TempDir(), "rows.jsonl")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	for path, want := range map[string]string{
		"/dev/zero":       "/dev/zero: a character device, not a regular file",
		"/dev/zero.jsonl": "no such file",
		fifo:              fifo + ": a named pipe, not a regular file",
	} {
		done := make(chan error, 1)
		go func() { _, err := LoadSamples(path, params, nil); done <- err }()
		select {
		case err := <-done:
			var se *SampleError
			require.ErrorAs(t, err, &se, path)
			assert.Contains(t, err.Error(), want)
		case <-time.After(10 * time.Second):
			t.Fatalf("LoadSamples(%s) did not return", path)
		}
	}
}

// endless is a reader that never ends and has no newline: what
// /dev/zero would give a line reader.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// TestSampleLinesAreBounded: a line without an end is an error naming
// the line, not a buffer that grows until memory runs out.
func TestSampleLinesAreBounded(t *testing.T) {
	params := []Param{{Name: "x", Type: udf.Prim(udf.Double)}}
	for first, parse := range map[string]func(string, *strings.Reader) error{
		"{\"x\": 1}\n": func(p string, pre *strings.Reader) error {
			_, err := parseJSONL(p, regular.LimitLines(ioMulti(pre), MaxSampleLineBytes), params)
			return err
		},
		"x\n": func(p string, pre *strings.Reader) error {
			_, err := parseCSV(p, regular.LimitLines(ioMulti(pre), MaxSampleLineBytes), params)
			return err
		},
	} {
		err := parse("rows", strings.NewReader(first))
		require.Error(t, err)
		assert.True(t, errors.Is(err, regular.ErrLineTooLong), "%v", err)
		assert.Contains(t, err.Error(), "rows:2: ")
		assert.Contains(t, err.Error(), "more than 16 MiB without a newline")
	}
}

func ioMulti(pre *strings.Reader) io.Reader { return io.MultiReader(pre, endless{}) }
