// garbage prints a line that is not JSON on stdout before each answer, as a
// harness that logs to stdout by mistake does.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct{ adapter.Harness }

func (h harness) Run(op string, input []byte) ([]byte, error) {
	fmt.Fprintln(os.Stdout, "running", op, "...") // written before Serve writes the answer
	return h.Harness.Run(op, input)
}

func main() {
	impl := adapter.Implementation{Name: "garbage", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, harness{adapter.Reference()}, impl)
}
