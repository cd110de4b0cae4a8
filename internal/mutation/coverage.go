package mutation

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/cover"
)

// Block is one basic block of a coverage profile (`go tool covdata
// textfmt`): file:startLine.startCol,endLine.endCol statements count.
type Block struct {
	File                                 string // module-relative, e.g. reference/jsonjs/parse.go
	StartLine, StartCol, EndLine, EndCol int
	Stmts, Count                         int
	Func                                 string // the enclosing function, as FuncName writes it ("" at package level)
	Linked                               bool   // Func has a symbol in the adapter built without -cover
	Source                               string // the block's first source line, trimmed
}

// Pos is the block's file:line.
func (b Block) Pos() string { return fmt.Sprintf("%s:%d", b.File, b.StartLine) }

// ParseProfile reads a text coverage profile with golang.org/x/tools/cover
// (which merges a block listed more than once, one line per counter set).
// Import paths are made module-relative by cutting module+"/"; blocks of
// other modules are dropped.
func ParseProfile(r io.Reader, module string) ([]Block, error) {
	profiles, err := cover.ParseProfilesFromReader(r)
	if err != nil {
		return nil, err
	}
	if len(profiles) == 0 {
		return nil, errors.New("no blocks")
	}
	var out []Block
	for _, p := range profiles {
		rel, ok := strings.CutPrefix(p.FileName, module+"/")
		if !ok {
			continue
		}
		for _, b := range p.Blocks {
			out = append(out, Block{File: rel, StartLine: b.StartLine, StartCol: b.StartCol,
				EndLine: b.EndLine, EndCol: b.EndCol, Stmts: b.NumStmt, Count: b.Count})
		}
	}
	return out, nil
}

// ParseSymbols reads `go tool nm` output and returns the names of its text
// (function) symbols, with the type arguments of generic instances cut
// (pkg.(*Items[go.shape.int]).Add is pkg.(*Items).Add).
func ParseSymbols(r io.Reader) (map[string]bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	syms := map[string]bool{}
	for sc.Scan() {
		// "address type name"; the name of a generic instance may hold
		// spaces.
		fields := strings.Fields(sc.Text())
		if len(fields) >= 3 && (fields[1] == "T" || fields[1] == "t") {
			syms[cutTypeArgs(strings.Join(fields[2:], " "))] = true
		}
	}
	return syms, sc.Err()
}

// cutTypeArgs removes every bracketed segment of a symbol name.
func cutTypeArgs(s string) string {
	if !strings.Contains(s, "[") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Linked reports whether the function fn (FuncName's form) of the package
// at import path pkg has a symbol: itself or a closure inside it
// (pkg.fn.func1).
func Linked(syms map[string]bool, pkg, fn string) bool {
	name := pkg + "." + fn
	if syms[name] {
		return true
	}
	for s := range syms {
		if strings.HasPrefix(s, name+".") {
			return true
		}
	}
	return false
}
