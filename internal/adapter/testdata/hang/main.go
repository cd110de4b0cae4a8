// hang answers the handshake but never answers a run; run as `hang OP` it
// hangs on runs of OP only and serves the reference for the others. It
// first starts a child (itself, with HANG_CHILD=1) that sleeps holding the
// same stdout and stderr and reports "child <pid>" on stderr, so tests can
// check that a timeout kills the adapter's whole process group.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct {
	adapter.Harness
	op string // "" hangs on every op
}

func (h harness) Run(op string, input []byte) ([]byte, error) {
	if h.op == "" || h.op == op {
		time.Sleep(time.Hour)
	}
	return h.Harness.Run(op, input)
}

func main() {
	if os.Getenv("HANG_CHILD") == "1" {
		time.Sleep(time.Hour)
		return
	}
	child := exec.Command(os.Args[0])
	child.Env = append(os.Environ(), "HANG_CHILD=1")
	child.Stdout, child.Stderr = os.Stdout, os.Stderr
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "hang:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "child %d\n", child.Process.Pid)
	h := harness{Harness: adapter.Reference()}
	if len(os.Args) > 1 {
		h.op = os.Args[1]
	}
	impl := adapter.Implementation{Name: "hang", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, h, impl)
}
