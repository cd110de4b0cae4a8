//go:build unix

package adapter

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// Both ways a start fails at the descriptor limit blame conform's limit:
// EMFILE in conform's pipe(), and EBADF in the child's dup3 past the limit
// (which of the two a -j run meets first depends on timing).
func TestFDLimitHintNamesBothFailures(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.EBADF} {
		err := &os.SyscallError{Syscall: "fork/exec", Err: errno}
		if hint := fdLimitHint(err); !strings.HasPrefix(hint, "conform ran out of file descriptors (") {
			t.Errorf("fdLimitHint(%v) = %q", errno, hint)
		}
	}
	if hint := fdLimitHint(&os.SyscallError{Syscall: "fork/exec", Err: syscall.ENOENT}); hint != "" {
		t.Errorf("fdLimitHint(ENOENT) = %q, want none", hint)
	}
}
