package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/fixture"
)

type generateCmd struct {
	Dir   string `default:"." type:"existingdir" help:"Module root that holds fixtures/ and golden/."`
	Check bool   `help:"Write nothing; list every drifted, missing or extra file and exit 1 if there is any."`
}

// Run regenerates fixtures/ and golden/ from the generators and the
// reference. With --check it is the CI gate for contract changes.
func (g *generateCmd) Run() error {
	cases, err := generators.All()
	if err != nil {
		return err
	}
	tree, err := fixture.Tree(cases)
	if err != nil {
		return err
	}
	drifts, err := fixture.Compare(os.DirFS(g.Dir), tree)
	if err != nil {
		return err
	}
	if g.Check {
		for _, d := range drifts {
			fmt.Println(d)
		}
		if len(drifts) > 0 {
			fmt.Fprintf(os.Stderr, "conform: %d fixture files are stale; run `make fixtures` and commit the result\n", len(drifts))
			return status{exitNonconform}
		}
		fmt.Printf("fixtures and goldens are up to date (%d cases)\n", len(cases))
		return nil
	}
	for _, d := range drifts {
		p := filepath.Join(g.Dir, filepath.FromSlash(d.Path))
		if d.Kind == "extra" {
			if err := os.Remove(p); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, tree[d.Path], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%d cases; %d files written or removed\n", len(cases), len(drifts))
	return nil
}
