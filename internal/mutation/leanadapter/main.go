// Command leanadapter is `conform adapter` without the CLI: the reference
// served over protocol v1 by internal/adapter.Serve. Mutation testing builds
// it once per mutant because it links only reference/ and the protocol.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

func main() {
	err := adapter.Serve(context.Background(), os.Stdin, os.Stdout,
		adapter.Reference(), adapter.ReferenceImplementation())
	if err != nil {
		fmt.Fprintln(os.Stderr, "leanadapter:", err)
		os.Exit(1)
	}
}
