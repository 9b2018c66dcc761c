package testkit

import (
	"os/exec"
	"syscall"
)

func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	} else {
		// A copy: the caller's attributes may be shared between commands
		// (clitest.TTT.Sys).
		attr := *cmd.SysProcAttr
		cmd.SysProcAttr = &attr
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
