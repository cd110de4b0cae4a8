//go:build unix && !linux

package adapter

import "syscall"

// setDeathSignal is a no-op off Linux: the guardian and the sweep need /proc.
func setDeathSignal(*syscall.SysProcAttr) {}
