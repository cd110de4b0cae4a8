// crash-third serves the reference but exits with status 3, without
// answering, on its third run request.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct {
	adapter.Harness
	runs int
}

func (h *harness) Run(op string, input []byte) ([]byte, error) {
	h.runs++
	if h.runs == 3 {
		fmt.Fprintln(os.Stderr, "crash-third: giving up on run 3")
		os.Exit(3)
	}
	return h.Harness.Run(op, input)
}

func main() {
	impl := adapter.Implementation{Name: "crash-third", Language: "go"}
	if err := adapter.Serve(context.Background(), os.Stdin, os.Stdout, &harness{Harness: adapter.Reference()}, impl); err != nil {
		os.Exit(1)
	}
}
