//go:build linux

// Package proctest finds processes through /proc for the runners' tests
// that check no descendant of an original outlives its run.
package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Sleepers lists the live (not zombie) processes whose command line ends
// in `sleep n`; `setsid sleep n` counts until setsid has exec'd sleep.
func Sleepers(n int64) []string {
	want := fmt.Sprintf("sleep\x00%d\x00", n)
	var out []string
	for _, pid := range pids() {
		b, err := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
		if err != nil || !strings.HasSuffix(string(b), want) {
			continue
		}
		if state, _, ok := stat(pid); ok && state == 'Z' {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// WaitForSleepers polls Sleepers(n) for up to d: a UDF's Popen or
// ProcessBuilder returns before the child it started has exec'd.
func WaitForSleepers(n int64, d time.Duration) []string {
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if s := Sleepers(n); len(s) > 0 || time.Since(start) > d {
			return s
		}
	}
}

// ZombieChildren lists this process's children that died and were not
// reaped: descendants re-parented to it (the subreaper) and left behind.
func ZombieChildren() []string {
	self := fmt.Sprint(os.Getpid())
	var out []string
	for _, pid := range pids() {
		if state, ppid, ok := stat(pid); ok && state == 'Z' && ppid == self {
			out = append(out, pid)
		}
	}
	return out
}

func pids() []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if e.Name()[0] >= '0' && e.Name()[0] <= '9' {
			out = append(out, e.Name())
		}
	}
	return out
}

// stat reads a process's state and parent pid from /proc/PID/stat, whose
// second field (the command in parentheses) may itself hold spaces.
func stat(pid string) (state byte, ppid string, ok bool) {
	st, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
	if err != nil {
		return 0, "", false
	}
	i := strings.LastIndexByte(string(st), ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(string(st[i+1:]))
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, "", false
	}
	return f[0][0], f[1], true
}
