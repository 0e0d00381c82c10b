package runner

import "sync"

// Tail keeps the last Max bytes written to it: the end of a runtime's
// stderr, for the reason a process died.
type Tail struct {
	Max int
	mu  sync.Mutex
	b   []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2*t.Max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.Max:]...)
	}
	return len(p), nil
}

func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.b) > t.Max {
		return string(t.b[len(t.b)-t.Max:])
	}
	return string(t.b)
}
