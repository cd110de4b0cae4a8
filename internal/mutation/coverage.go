package mutation

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
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

// ParseProfile reads a text coverage profile. Import paths are made
// module-relative by cutting module+"/"; blocks of other modules are
// dropped. A block listed more than once (one line per counter set) is
// merged, its counts added.
func ParseProfile(r io.Reader, module string) ([]Block, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var out []Block
	index := map[string]int{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			if !strings.HasPrefix(text, "mode: ") {
				return nil, fmt.Errorf("profile line 1: want \"mode: ...\", got %q", text)
			}
			continue
		}
		if text == "" {
			continue
		}
		b, key, err := parseBlock(text)
		if err != nil {
			return nil, fmt.Errorf("profile line %d: %v", line, err)
		}
		rel, ok := strings.CutPrefix(b.File, module+"/")
		if !ok {
			continue
		}
		b.File = rel
		if i, seen := index[key]; seen {
			out[i].Count += b.Count
			continue
		}
		index[key] = len(out)
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("profile line %d: %v", line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("profile: empty")
	}
	return out, nil
}

// parseBlock reads "path/file.go:1.2,3.4 5 6".
func parseBlock(text string) (Block, string, error) {
	fields := strings.Fields(text)
	if len(fields) != 3 {
		return Block{}, "", fmt.Errorf("want \"file:l.c,l.c stmts count\", got %q", text)
	}
	colon := strings.LastIndexByte(fields[0], ':')
	if colon < 0 {
		return Block{}, "", fmt.Errorf("no ':' before the position in %q", fields[0])
	}
	b := Block{File: fields[0][:colon]}
	start, end, ok := strings.Cut(fields[0][colon+1:], ",")
	var err error
	if !ok {
		return Block{}, "", fmt.Errorf("no ',' in the position of %q", fields[0])
	}
	if b.StartLine, b.StartCol, err = lineCol(start); err == nil {
		b.EndLine, b.EndCol, err = lineCol(end)
	}
	if err == nil {
		b.Stmts, err = strconv.Atoi(fields[1])
	}
	if err == nil {
		b.Count, err = strconv.Atoi(fields[2])
	}
	if err != nil {
		return Block{}, "", fmt.Errorf("%q: %v", text, err)
	}
	if b.Stmts < 0 || b.Count < 0 {
		return Block{}, "", fmt.Errorf("%q: negative statements or count", text)
	}
	return b, fields[0], nil
}

func lineCol(s string) (int, int, error) {
	l, c, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, fmt.Errorf("position %q is not line.col", s)
	}
	line, err := strconv.Atoi(l)
	if err != nil {
		return 0, 0, err
	}
	col, err := strconv.Atoi(c)
	return line, col, err
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
