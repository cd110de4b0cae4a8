//go:build unix

package adapter

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the adapter in a process group of its own, so that
// killing the group also kills whatever the adapter started (a shell's
// children, a build tool's runtime).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the adapter's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
