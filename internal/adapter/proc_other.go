//go:build !unix

package adapter

import "os/exec"

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
