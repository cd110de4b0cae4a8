// Package mutation is mutation testing of reference/ judged by the golden
// cases alone: a mutant is killed only when `conform run`, built once from
// the unmutated tree with the committed goldens, fails against an adapter
// built from the mutated tree (docs/mutation.md).
package mutation

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Mutant is one token-level change to one file: the bytes [Start, End) of
// File become New.
type Mutant struct {
	File     string // slash path relative to the module root
	Line     int
	Col      int
	Operator string // relational, arithmetic, logical, boolean, increment, constant, negation
	Old, New string
	Start    int // byte offsets into the file
	End      int
}

// ID names a mutant stably while the file does not change above it.
func (m Mutant) ID() string {
	return fmt.Sprintf("%s:%d:%d %s -> %s", m.File, m.Line, m.Col, m.Old, m.New)
}

// Apply returns src with the mutant's change.
func (m Mutant) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)+len(m.New))
	out = append(out, src[:m.Start]...)
	out = append(out, m.New...)
	return append(out, src[m.End:]...)
}

// Enumerate lists every mutant of the non-test Go files under dir (relative
// to root), in file then offset order.
func Enumerate(root, dir string) ([]Mutant, error) {
	var files []string
	err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []Mutant
	for _, p := range files {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil, err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		ms, err := FileMutants(filepath.ToSlash(rel), src)
		if err != nil {
			return nil, err
		}
		all = append(all, ms...)
	}
	return all, nil
}

// FileMutants lists the mutants of one Go source file.
func FileMutants(name string, src []byte) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("mutation: %v", err)
	}
	c := collector{fset: fset, src: src, name: name}
	ast.Inspect(f, c.visit)
	sort.SliceStable(c.out, func(i, j int) bool { return c.out[i].Start < c.out[j].Start })
	return c.out, nil
}
