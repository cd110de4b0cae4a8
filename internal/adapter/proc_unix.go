//go:build unix

package adapter

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// setProcAttrs starts the adapter in a process group of its own, so that
// killing the group also kills whatever the adapter started (a shell's
// children, a build tool's runtime), and, where the system has one, with a
// parent-death signal, so that conform's death takes the adapter with it.
func setProcAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// killGroup sends SIGKILL to the adapter's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// fdLimitHint explains running out of file descriptors: each job holds
// three pipes to its adapter, and the limit is conform's. (Go raises the
// soft RLIMIT_NOFILE to the hard limit at start, so the limit is the hard
// one.) Near the limit the failure is EMFILE where conform opens a pipe,
// or EBADF where the new child moves a pipe to a number past the limit
// (dup3); conform hands exec only pipes it just opened, so EBADF there
// has no other cause.
func fdLimitHint(err error) string {
	if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) && !errors.Is(err, syscall.EBADF) {
		return ""
	}
	var lim syscall.Rlimit
	limit := "its limit"
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim) == nil {
		limit = fmt.Sprintf("its limit of %d (RLIMIT_NOFILE)", lim.Cur)
	}
	return fmt.Sprintf("conform ran out of file descriptors (%v; %s): this is conform's limit, not the adapter's fault; lower --jobs (each job holds about 4) or raise the hard limit (ulimit -Hn)", err, limit)
}

// endedItself reports whether st is the status of a process that ended by
// itself (an exit, or a signal other than the SIGKILL conform sends).
func endedItself(st *os.ProcessState) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && (!ws.Signaled() || ws.Signal() != syscall.SIGKILL)
}
