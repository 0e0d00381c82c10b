//go:build unix

package regular

import "syscall"

// nonBlock keeps open from waiting for a writer when the path turned
// into a named pipe after it was checked.
const nonBlock = syscall.O_NONBLOCK
