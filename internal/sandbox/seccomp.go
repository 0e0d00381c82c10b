package sandbox

import (
	"encoding/binary"
	"runtime"

	"golang.org/x/sys/unix"
)

// The network namespace cuts the original off from IP and from abstract
// Unix sockets, but a Unix socket in the file system stays reachable
// through a read-only mount (connecting is not writing): the Docker
// daemon's, the system bus. The seccomp filter bwrap installs refuses to
// create a Unix socket at all, and io_uring, which could create one
// without the socket system call. socketpair, which connects a process
// only to itself, stays allowed.

// syscalls are the system call numbers the filter needs, per GOARCH.
type syscalls struct {
	arch   uint32 // AUDIT_ARCH_*
	socket uint32
	// x32 marks x86-64's x32 ABI, whose numbers carry this bit.
	x32 uint32
}

var arches = map[string]syscalls{
	"amd64": {arch: unix.AUDIT_ARCH_X86_64, socket: 41, x32: 0x40000000},
	"arm64": {arch: unix.AUDIT_ARCH_AARCH64, socket: 198},
}

// io_uring_setup, io_uring_enter and io_uring_register have these
// numbers on every architecture.
const ioUringFirst, ioUringLast = 425, 427

// filter is the seccomp program for goarch, as bwrap --seccomp reads it
// (struct sock_filter, native byte order); nil where udfx has none.
func filter(goarch string) []byte {
	a, ok := arches[goarch]
	if !ok {
		return nil
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jgt   = unix.BPF_JMP | unix.BPF_JGT | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		allow = unix.SECCOMP_RET_ALLOW
		// deny fails the call with EPERM: the original sees an error
		// it can report, not a killed process.
		deny = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	)
	// Offsets in struct seccomp_data: nr, arch, then the arguments;
	// the low half of the first argument on a little-endian machine.
	const offNr, offArch, offArg0 = 0, 4, 16
	x32 := a.x32
	if x32 == 0 {
		x32 = 0xffffffff // no ABI carries it: the check never matches
	}
	prog := []unix.SockFilter{
		/* 0 */ {Code: ld, K: offArch},
		/* 1 */ {Code: jeq, K: a.arch, Jt: 1},
		/* 2 */ {Code: ret, K: deny}, // another ABI (int 0x80, a 32-bit binary): nothing
		/* 3 */ {Code: ld, K: offNr},
		/* 4 */ {Code: jge, K: x32, Jf: 1},
		/* 5 */ {Code: ret, K: deny},
		/* 6 */ {Code: jeq, K: a.socket, Jt: 4},
		/* 7 */ {Code: jge, K: ioUringFirst, Jf: 2},
		/* 8 */ {Code: jgt, K: ioUringLast, Jt: 1},
		/* 9 */ {Code: ret, K: deny},
		/* 10 */ {Code: ret, K: allow},
		/* 11 */ {Code: ld, K: offArg0}, // socket(domain, ...)
		/* 12 */ {Code: jeq, K: unix.AF_UNIX, Jf: 1},
		/* 13 */ {Code: ret, K: deny},
		/* 14 */ {Code: ret, K: allow},
	}
	b := make([]byte, 0, 8*len(prog))
	for _, f := range prog {
		b = binary.NativeEndian.AppendUint16(b, f.Code)
		b = append(b, f.Jt, f.Jf)
		b = binary.NativeEndian.AppendUint32(b, f.K)
	}
	return b
}

// nativeFilter is the filter for the machine udfx runs on.
var nativeFilter = filter(runtime.GOARCH)
