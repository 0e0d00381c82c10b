//go:build linux

package runner

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

var subreaper sync.Once

// adoptOrphans makes udfx the child subreaper of its descendants: a
// process that a UDF's grandchild leaves behind is re-parented to udfx,
// not to init, so it stays visible and killMarked can reap it.
func adoptOrphans() {
	subreaper.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

// killTree kills root's process group and, until none is left, every
// process that descends from root, is in root's group, or carries mark in
// its environment; it reaps those that were re-parented to udfx (the
// subreaper), also the children of root that only reach udfx once root
// is dead. A process that forks while it is being killed is found on the
// next pass.
//
// Root's pid and group count only while they are still the run's: root
// alive with the mark, or dead and not yet reaped, or a marked process
// left in its group. Once root is reaped its pid may belong to another
// process; then only the marked processes are killed.
func killTree(root int, mark string) {
	self := os.Getpid()
	needle := []byte(markerVar + "=" + mark + "\x00")
	marked := func(p procInfo) bool { return mark != "" && p.state != 'Z' && environHas(p.pid, needle) }
	procs := listProcs()
	ours := mark == ""
	for _, p := range procs {
		if (p.pid == root && (p.state == 'Z' || marked(p))) || (p.pgid == root && marked(p)) {
			ours = true
			break
		}
	}
	if ours {
		// Stop the group first so that nothing in it forks or exits while
		// its descendants are looked up: a child whose parent died would be
		// re-parented away from the tree.
		_ = syscall.Kill(-root, syscall.SIGSTOP)
	}
	known := map[int]bool{} // every process found so far, root aside
	deadline := time.Now().Add(5 * time.Second)
	for pass := 0; time.Now().Before(deadline); pass++ {
		procs = listProcs()
		children := map[int][]int{}
		for _, p := range procs {
			children[p.ppid] = append(children[p.ppid], p.pid)
		}
		hit := map[int]bool{}
		var walk func(int)
		walk = func(pid int) {
			for _, c := range children[pid] {
				if !hit[c] {
					hit[c] = true
					walk(c)
				}
			}
		}
		if ours {
			walk(root)
		}
		for _, p := range procs {
			if p.pid == self || p.pid == root {
				continue
			}
			if known[p.pid] || (ours && p.pgid == root) || marked(p) {
				hit[p.pid] = true
				walk(p.pid)
			}
		}
		delete(hit, root)
		left := 0
		for _, p := range procs {
			if !hit[p.pid] {
				continue
			}
			known[p.pid] = true
			switch {
			case p.state != 'Z':
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
				left++
			case p.ppid == self:
				// Adopted by the subreaper: nobody else waits for it. A
				// process whose first thread is dead shows as a zombie
				// while its other threads still exit, and cannot be
				// reaped until they have: come back for it. (Contained,
				// the original's process is bwrap's child: killing bwrap
				// hands it to udfx in just that state.)
				var ws syscall.WaitStatus
				if got, err := syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil); err == nil && got == 0 {
					left++
				}
			default:
				left++ // dead; its parent is dying too, then udfx reaps it
			}
		}
		if pass == 0 && ours {
			// The tree is known: end root, whose children then come to
			// udfx.
			_ = syscall.Kill(-root, syscall.SIGKILL)
			_ = syscall.Kill(root, syscall.SIGKILL)
		}
		if left == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type procInfo struct {
	pid, ppid, pgid int
	state           byte
}

// listProcs reads every process's parent, group and state from /proc.
func listProcs() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 3 || len(f[0]) == 0 {
			continue
		}
		ppid, err1 := strconv.Atoi(string(f[1]))
		pgid, err2 := strconv.Atoi(string(f[2]))
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, procInfo{pid: pid, ppid: ppid, pgid: pgid, state: f[0][0]})
	}
	return out
}

func environHas(pid int, needle []byte) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	return bytes.Contains(append([]byte{0}, b...), append([]byte{0}, needle...))
}
