package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/fixture"
)

type generateCmd struct {
	Dir   string `default:"." help:"The root of a conform checkout (its go.mod names the conform module); fixtures/ and golden/ are written there."`
	Check bool   `help:"Write nothing; list every drifted, missing or extra file and exit 1 if there is any."`
}

// Run regenerates fixtures/ and golden/ from the generators and the
// reference. With --check it is the CI gate for contract changes.
func (g *generateCmd) Run() error {
	if err := checkout(g.Dir); err != nil {
		return runFail("generate", exitUsage, "%v; generate writes fixtures/ and golden/ only into a conform checkout", err)
	}
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

// modulePath is the conform module, as a checkout's go.mod names it.
const modulePath = "github.com/dsh-conform/conform"

// checkout checks that dir is the root of a conform checkout: its go.mod
// declares the conform module.
func checkout(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return fmt.Errorf("%s is not a conform checkout (no go.mod: %v)", dir, unwrapPath(err))
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			if f[1] == modulePath {
				return nil
			}
			return fmt.Errorf("%s is not a conform checkout (its go.mod is module %s, not %s)", dir, f[1], modulePath)
		}
	}
	return fmt.Errorf("%s is not a conform checkout (its go.mod names no module)", dir)
}
