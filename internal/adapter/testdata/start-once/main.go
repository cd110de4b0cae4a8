// start-once MARKER starts once: the first process creates the file MARKER,
// answers the handshake and exits on its first run; every later process
// finds MARKER and exits at once, failing the handshake.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

type harness struct{ adapter.Harness }

func (harness) Run(string, []byte) ([]byte, error) {
	os.Exit(4)
	return nil, nil
}

func main() {
	marker := os.Args[1]
	if _, err := os.Stat(marker); err == nil {
		fmt.Fprintln(os.Stderr, "start-once: refusing to start again")
		os.Exit(1)
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "start-once:", err)
		os.Exit(1)
	}
	impl := adapter.Implementation{Name: "start-once", Language: "go"}
	_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, harness{adapter.Reference()}, impl)
}
