package python

import (
	"bufio"
	"context"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/udfx/udfx/harness/runner"
	"github.com/udfx/udfx/harness/value"
)

const celsiusPath = "../../../examples/python-celsius/celsius.py"

// specialDoubles are the bit patterns every double input must reach the
// UDF with, and come back from it with.
var specialDoubles = []uint64{
	0x0000000000000000, 0x8000000000000000, // ±0.0
	0x7ff0000000000000, 0xfff0000000000000, // ±Inf
	0x7ff8000000000000, 0xfff8000000000000, // NaN, NaN with the sign bit
	0x7ff8000000000001, 0x7ff4000000000000, // NaN payloads (quiet; signalling)
	0x7fefffffffffffff, 0xffefffffffffffff, // ±MAX
	0x0000000000000001, 0x8000000000000001, // ±smallest subnormal
	0x0010000000000000,                     // MIN_NORMAL
	0x3ff0000000000000, 0xbff0000000000000, // ±1
	0x4059000000000000, 0xc071100000000000, // 100, -273.0
	0x3fb999999999999a, // 0.1
}

func TestCelsiusSpecialDoubles(t *testing.T) {
	r := newRunner(t, parseUDF(t, celsiusPath, "to_fahrenheit"), runner.DefaultLimits)
	var rows [][]value.Value
	var want []value.Value
	for _, b := range specialDoubles {
		rows = append(rows, []value.Value{value.DoubleBits(b)})
		c := math.Float64frombits(b)
		want = append(want, value.DoubleOf(c*9.0/5.0+32.0))
	}
	rows = append(rows, []value.Value{value.NullValue()})
	want = append(want, value.NullValue())
	got, err := r.Run(context.Background(), rows)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, value.Token(want[i]), value.Token(got[i]), "row %d (input %s)", i, rows[i][0])
	}
	assert.Contains(t, r.Describe(), "SQL_BATCHED_UDF")
	t.Log(r.Describe())
}

func TestTimeout(t *testing.T) {
	u := parseUDF(t, "testdata/loops.py", "spin")
	r := newRunner(t, u, runner.Limits{Timeout: 2 * time.Second, MemoryMB: 512})
	rows := [][]value.Value{{value.IntOf(0)}, {value.IntOf(1)}, {value.IntOf(7)}, {value.IntOf(2)}}
	start := time.Now()
	got, err := r.Run(context.Background(), rows)
	var te *runner.TimeoutError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, 2, te.Row)
	assert.Less(t, time.Since(start), 10*time.Second)
	assert.Equal(t, []string{"i0", "i1"}, tokens(got))
	// The next Run starts a fresh interpreter.
	got, err = r.Run(context.Background(), [][]value.Value{{value.IntOf(3)}})
	require.NoError(t, err)
	assert.Equal(t, []string{"i3"}, tokens(got))
}

func tokens(vs []value.Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = value.Token(v)
	}
	return out
}

// TestReadResultsLongerThanTheBuffer: a result line longer than the
// reader's buffer (a long string) reads back whole; the first part of
// the line used to be overwritten by the read of the rest.
func TestReadResultsLongerThanTheBuffer(t *testing.T) {
	long := strings.Repeat("abcdefghij😀", 500)
	in := value.Token(value.StringOf(long)) + "\n" + value.Token(value.StringOf("short")) + "\n=\n"
	var out []value.Value
	require.NoError(t, readResults(bufio.NewReaderSize(strings.NewReader(in), 16), 2, &out))
	require.Len(t, out, 2)
	assert.Equal(t, value.Token(value.StringOf(long)), value.Token(out[0]), "the long string came back changed")
	assert.Equal(t, value.Token(value.StringOf("short")), value.Token(out[1]))
}

// closedPipe reads its text, then fails as a pipe that exec.Cmd.Wait
// closed under the reader does.
type closedPipe struct{ r io.Reader }

func (c closedPipe) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		return n, &os.PathError{Op: "read", Path: "|0", Err: os.ErrClosed}
	}
	return n, err
}

// TestReadResultsAfterTheInterpreterExited: the output ending, at its end
// or because Wait closed the pipe once the interpreter exited, reads as
// the interpreter having exited (CI once saw "read |0: file already
// closed" for an original that called os._exit).
func TestReadResultsAfterTheInterpreterExited(t *testing.T) {
	line := value.Token(value.DoubleOf(1)) + "\n"
	for _, r := range []io.Reader{strings.NewReader(line), closedPipe{strings.NewReader(line)}} {
		var out []value.Value
		err := readResults(bufio.NewReader(r), 2, &out)
		require.EqualError(t, err, "the interpreter exited")
		assert.Len(t, out, 1)
	}
}

// TestUDFsCannotTouchTheProtocol: what a UDF prints, on sys.stdout or on
// fd 1, goes to stderr, and its stdin is empty: the rows and the results
// stay udfx's.
func TestUDFsCannotTouchTheProtocol(t *testing.T) {
	rows := [][]value.Value{{value.IntOf(1)}, {value.IntOf(2)}}
	for _, name := range []string{"prints", "reads"} {
		t.Run(name, func(t *testing.T) {
			r := newRunner(t, parseUDF(t, "testdata/stdio.py", name), runner.Limits{Timeout: 15 * time.Second, MemoryMB: 512})
			got, err := r.Run(context.Background(), rows)
			require.NoError(t, err)
			require.Equal(t, []string{"i1", "i2"}, tokens(got))
		})
	}
}
