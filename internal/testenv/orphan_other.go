//go:build !linux

package testenv

import "syscall"

// dieWithTest does nothing where the kernel cannot kill a process with
// its parent: a server outlives a test binary killed at its timeout.
func dieWithTest(*syscall.SysProcAttr) {}
