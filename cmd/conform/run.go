package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/dsh-conform/conform/internal/selfcheck"
	"github.com/dsh-conform/conform/spec"
)

type runCmd struct {
	Verbose bool `short:"v" help:"List every case, not only the failing ones."`
}

// Run checks the embedded reference. Until the adapter runner lands this is
// conform's main job: it proves the reference still matches the digest.
func (r *runCmd) Run() error {
	reqs, err := spec.Catalogue()
	if err != nil {
		return err
	}
	results, err := selfcheck.Run()
	if err != nil {
		return err
	}
	failed := 0
	perOp := map[string][2]int{}
	for _, res := range results {
		c := perOp[res.Sample.Op]
		c[0]++
		if len(res.Problems) > 0 {
			failed++
			c[1]++
			fmt.Printf("FAIL %s (%s) [%s]\n", res.Sample.Name, res.Sample.Op, strings.Join(res.Sample.Requirements, ", "))
			for _, p := range res.Problems {
				fmt.Printf("     %s\n", p)
			}
		} else if r.Verbose {
			fmt.Printf("pass %s (%s)\n", res.Sample.Name, res.Sample.Op)
		}
		perOp[res.Sample.Op] = c
	}
	fmt.Printf("reference self-check: %d requirements in the catalogue, %d cases\n", len(reqs), len(results))
	for _, op := range sortedKeys(perOp) {
		fmt.Printf("  %-16s %3d cases, %d failed\n", op, perOp[op][0], perOp[op][1])
	}
	fmt.Printf("%d passed, %d failed\n", len(results)-failed, failed)
	if failed > 0 {
		fmt.Fprintln(os.Stderr, "conform: the reference disagrees with the digest")
		return status{exitNonconform}
	}
	return nil
}
