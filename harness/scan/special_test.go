//go:build unix

package scan

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanNeverOpensAPipe: a named pipe with a source extension, named
// on the command line or met in a folder, is refused or skipped with the
// reason (in the table too) and the scan does not block.
func TestScanNeverOpensAPipe(t *testing.T) {
	fx := newFixture(t, map[string]string{"src/Keep.scala": "UDF keep"})
	fifo := filepath.Join(fx.dir, "src", "fifo.scala")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, err := fx.run(t, "src/fifo.scala")
		var ie *InputError
		if assert.ErrorAs(t, err, &ie) {
			assert.Contains(t, err.Error(), "src/fifo.scala")
			assert.Contains(t, err.Error(), "a named pipe, not a regular file")
		}
		res, err := fx.run(t, ".")
		if assert.NoError(t, err) {
			assert.Equal(t, []string{"src/Keep.scala:keep"}, names(res))
			assert.Equal(t, []Skipped{{File: "src/fifo.scala", Reason: "a named pipe, not a regular file"}}, res.Skipped)
			var out bytes.Buffer
			require.NoError(t, WriteTable(&out, res))
			assert.Contains(t, out.String(), "skipped src/fifo.scala: a named pipe, not a regular file\n")
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		// Unblock a scan stuck in open so the test can end.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("the scan blocked on a named pipe")
	}
}

// TestReadRefusesAPipeSwappedIn: a file that turned into a pipe after the
// walk listed it is skipped, not opened for a blocking read.
func TestReadRefusesAPipeSwappedIn(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "S.scala")
	require.NoError(t, syscall.Mkfifo(p, 0o644))
	_, perr, skipped, bug := parseFile(nil, file{path: "S.scala", abs: p})
	assert.Nil(t, perr)
	assert.NoError(t, bug)
	assert.Equal(t, "a named pipe, not a regular file", skipped)
}
