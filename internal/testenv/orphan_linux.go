package testenv

import "syscall"

// dieWithTest has the kernel kill the server when the test binary dies:
// a test that runs past go test's -timeout is killed before its cleanup
// stops the servers it started, and a Prometheus left running slows
// every later test and benchmark on the machine.
func dieWithTest(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
