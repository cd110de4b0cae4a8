// indent-uncapped is a deliberately wrong adapter for the fuzzer's tests: the
// reference with one bug (see package wrong), served over protocol v1.
package main

import (
	"context"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
)

func main() {
	const name = "indent-uncapped"
	if err := adapter.Serve(context.Background(), os.Stdin, os.Stdout, wrong.ByName(name), wrong.Implementation(name)); err != nil {
		os.Exit(1)
	}
}
