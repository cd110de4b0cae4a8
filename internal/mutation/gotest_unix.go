//go:build unix

package mutation

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and kills the whole
// group when cmd's context ends.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
