// orphan first starts a grandchild that leaves its session with setsid()
// and sleeps holding stdout and stderr, reporting "orphan <pid>" on stderr.
// Then it serves the reference, exiting 0 at the end of stdin; run as
// `orphan exit` it exits 0 on its first run request, without answering;
// `orphan exit scrub` does so too, and its grandchild's environment is
// empty (it escapes conform's sweep).
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
)

type exiter struct{ adapter.Harness }

func (exiter) Run(string, []byte) ([]byte, error) {
	os.Exit(0)
	return nil, nil
}

func main() {
	if os.Getenv("ORPHAN_CHILD") == "1" {
		time.Sleep(time.Hour)
		return
	}
	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), "ORPHAN_CHILD=1")
	if len(os.Args) > 2 && os.Args[2] == "scrub" {
		child.Env = []string{"ORPHAN_CHILD=1"}
	}
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "orphan:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "orphan %d\n", child.Process.Pid)
	h := adapter.Reference()
	if len(os.Args) > 1 && os.Args[1] == "exit" {
		h = exiter{h}
	}
	impl := adapter.Implementation{Name: "orphan", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, h, impl)
}
