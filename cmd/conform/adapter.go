package main

import (
	"context"
	"os"

	"github.com/dsh-conform/conform/internal/adapter"
)

// adapterCmd serves the embedded reference over adapter protocol v1
// (docs/protocol.md). It is the smallest complete adapter and the one to
// copy: a harness's adapter is this command with the harness's own ops
// behind it.
//
//	conform adapter                                  # talk to it by hand
//	conform run --adapter 'conform adapter'          # the reference against itself
//	conform run --exec --adapter 'conform adapter'   # the same, one process per case
type adapterCmd struct{}

func (adapterCmd) Run() error {
	// Serve does the whole protocol: it answers the hello handshake with the
	// implementation and the op list, answers each run request with the op's
	// output, its thrown error or a skip, and returns on bye or at the end of
	// stdin (which is how an exec-mode process ends after its one case).
	//
	// stdout carries answers only, one JSON line each. Anything else a
	// harness wants to say goes to stderr, whose last 4 KiB conform attaches
	// to a failing case.
	return adapter.Serve(context.Background(), os.Stdin, os.Stdout,
		adapter.Reference(), adapter.ReferenceImplementation())
}
