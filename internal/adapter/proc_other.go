//go:build !unix

package adapter

import (
	"os"
	"os/exec"
)

// setProcAttrs is a no-op where there are no process groups; timeouts
// then kill the adapter process only. Per-case timeouts rely on pipe
// deadlines, which need Unix pipes.
func setProcAttrs(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func fdLimitHint(error) string { return "" }

// endedItself cannot tell an exit from conform's kill here: a kill is
// an exit status too.
func endedItself(*os.ProcessState) bool { return false }
