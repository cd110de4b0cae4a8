package main

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/mutation"
)

// coverage is the golden-coverage gate (make coverage-golden): exit 1 when
// an uncovered linked block of reference/ is not explained in
// spec/uncovered.yaml or an entry there is stale.
func coverage(ctx context.Context, conform string) int {
	entries, err := mutation.LoadUncovered(mutation.UncoveredFile)
	if err != nil {
		return fail(err)
	}
	conform, cleanup, err := conformBinary(ctx, conform)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	blocks, err := mutation.GoldenCoverage(ctx, mutation.CoverageConfig{Root: ".", Module: module, Conform: conform})
	if err != nil {
		return fail(err)
	}
	r := mutation.CheckCoverage(blocks, entries)
	if err := mutation.WriteCoverage(os.Stdout, r); err != nil {
		return fail(err)
	}
	if !r.OK() {
		return 1
	}
	return 0
}

// module is the import path of the tree the command runs in.
const module = "github.com/dsh-conform/conform"

// notReached is the mutants of ms in blocks the golden run cannot reach, as
// spec/uncovered.yaml explains them (mutation.UncoveredMutants): the golden
// kill rule leaves them out rather than count each as a survivor.
func notReached(ctx context.Context, conform string, ms []mutation.Mutant) (map[string]string, error) {
	entries, err := mutation.LoadUncovered(mutation.UncoveredFile)
	if err != nil {
		return nil, err
	}
	blocks, err := mutation.GoldenCoverage(ctx, mutation.CoverageConfig{Root: ".", Module: module, Conform: conform})
	if err != nil {
		return nil, err
	}
	out := mutation.UncoveredMutants(blocks, entries, ms)
	fmt.Fprintf(os.Stderr, "mutation: %d of the %d mutants are in blocks no golden case reaches (%s); they are not judged\n", len(out), len(ms), mutation.UncoveredFile)
	return out, nil
}
