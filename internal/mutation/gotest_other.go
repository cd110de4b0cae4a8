//go:build !unix

package mutation

import "os/exec"

// ownGroup: without process groups, cmd's context kills cmd alone.
func ownGroup(*exec.Cmd) {}
