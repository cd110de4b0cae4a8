// exit-three serves the reference, and when it has answered a run request
// it exits with status 3 at the end of stdin (an exit after only the
// handshake is 0): in exec mode every case is a correct answer followed by
// a failing exit.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct {
	adapter.Harness
	ran bool
}

func (h *harness) Run(op string, input []byte) ([]byte, error) {
	h.ran = true
	return h.Harness.Run(op, input)
}

func main() {
	h := &harness{Harness: adapter.Reference()}
	impl := adapter.Implementation{Name: "exit-three", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, h, impl)
	if h.ran {
		fmt.Fprintln(os.Stderr, "exit-three: failing after the answer")
		os.Exit(3)
	}
}
