// stderr-noise writes 16 KiB of numbered noise and then a last line to
// stderr on its first run, and exits with status 2 without answering: the
// fault must carry the last 4 KiB, ending with the last line.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct{ adapter.Harness }

func (harness) Run(string, []byte) ([]byte, error) {
	for i := range 1024 {
		fmt.Fprintf(os.Stderr, "noise line %04d\n", i) // 16 bytes a line
	}
	fmt.Fprint(os.Stderr, "stderr-noise: fatal: the last words\n")
	os.Exit(2)
	return nil, nil
}

func main() {
	impl := adapter.Implementation{Name: "stderr-noise", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, harness{adapter.Reference()}, impl)
}
