// Package regular opens and reads only regular files, within a size
// bound: udfx reads whatever paths it is given, and a named pipe blocks
// in open, a device such as /dev/zero never ends.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is a path that is not a regular file (after following
// symlinks).
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Describe(e.Mode))
}

// Reason is the error without the path, for a list of skipped files.
func (e *NotRegularError) Reason() string {
	return fmt.Sprintf("%s, not a regular file", Describe(e.Mode))
}

// TooLargeError is a file over the bound.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	if e.Path == "" {
		return "the file is " + e.Reason()
	}
	return fmt.Sprintf("%s is %s", e.Path, e.Reason())
}

// Reason is the error without the path.
func (e *TooLargeError) Reason() string {
	return "larger than " + Size(e.Max)
}

// Size writes n bytes as MiB or KiB.
func Size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Describe names a file type: "a named pipe", "a device", ...
func Describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "a regular file"
}

// Open opens path for reading if it is a regular file: checked before
// open, so that a named pipe is never opened, and again on the open file
// (opened without blocking), so that a path swapped for a pipe between
// the two is refused too.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return f, nil
}

// ReadFile reads path if it is a regular file of at most max bytes.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(Limit(path, f, max))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Limit reads r, failing with a *TooLargeError past max bytes (a file that
// grows while it is read); path may be "" where the caller names the file.
func Limit(path string, r io.Reader, max int64) io.Reader {
	return &limited{path: path, r: r, left: max, max: max}
}

type limited struct {
	path      string
	r         io.Reader
	left, max int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, &TooLargeError{Path: l.path, Max: l.max}
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n + int(l.left), &TooLargeError{Path: l.path, Max: l.max}
	}
	return n, err
}

// ErrLineTooLong is a line over the bound LimitLines sets.
var ErrLineTooLong = errors.New("line too long")

// LimitLines reads r, failing with an error wrapping ErrLineTooLong when
// a line exceeds max bytes.
func LimitLines(r io.Reader, max int) io.Reader {
	return &lines{r: r, max: max}
}

type lines struct {
	r   io.Reader
	max int
	cur int // bytes since the last newline
}

func (l *lines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			l.cur = 0
			continue
		}
		l.cur++
		if l.cur > l.max {
			return i, fmt.Errorf("%w: more than %s without a newline", ErrLineTooLong, Size(int64(l.max)))
		}
	}
	return n, err
}
