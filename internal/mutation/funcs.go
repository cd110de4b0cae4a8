package mutation

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// span is one function declaration's extent in a file.
type span struct {
	name                                 string
	startLine, startCol, endLine, endCol int
}

// fileFuncs is a parsed source file: its functions in order and its lines.
type fileFuncs struct {
	funcs []span
	lines []string
}

// FuncName names a declaration as its symbol does after the package path:
// F, T.M for a value receiver, (*T).M for a pointer receiver.
func FuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch g := t.(type) {
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	id, _ := t.(*ast.Ident)
	recv := "?"
	if id != nil {
		recv = id.Name
	}
	if star {
		return "(*" + recv + ")." + d.Name.Name
	}
	return recv + "." + d.Name.Name
}

// readFuncs parses one source file.
func readFuncs(path string) (fileFuncs, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return fileFuncs{}, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return fileFuncs{}, err
	}
	ff := fileFuncs{lines: strings.Split(string(src), "\n")}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		s, e := fset.Position(fd.Pos()), fset.Position(fd.End())
		ff.funcs = append(ff.funcs, span{FuncName(fd), s.Line, s.Column, e.Line, e.Column})
	}
	return ff, nil
}

// before reports whether line:col a is at or before b.
func before(al, ac, bl, bc int) bool { return al < bl || al == bl && ac <= bc }

// Annotate fills each block's Func, Source and Linked from the sources
// under root and the adapter's symbols; module is the import path of root.
func Annotate(blocks []Block, root, module string, syms map[string]bool) error {
	files := map[string]fileFuncs{}
	for i := range blocks {
		b := &blocks[i]
		ff, ok := files[b.File]
		if !ok {
			var err error
			if ff, err = readFuncs(filepath.Join(root, b.File)); err != nil {
				return fmt.Errorf("profile block %s: %v", b.Pos(), err)
			}
			files[b.File] = ff
		}
		if b.StartLine < 1 || b.StartLine > len(ff.lines) {
			return fmt.Errorf("profile block %s: the file has %d lines", b.Pos(), len(ff.lines))
		}
		b.Source = strings.TrimSpace(ff.lines[b.StartLine-1])
		for _, f := range ff.funcs {
			if before(f.startLine, f.startCol, b.StartLine, b.StartCol) && before(b.EndLine, b.EndCol, f.endLine, f.endCol) {
				b.Func = f.name
				break
			}
		}
		pkg := module + "/" + filepath.ToSlash(filepath.Dir(b.File))
		b.Linked = b.Func != "" && Linked(syms, pkg, b.Func)
	}
	sort.SliceStable(blocks, func(i, j int) bool {
		if blocks[i].File != blocks[j].File {
			return blocks[i].File < blocks[j].File
		}
		return blocks[i].StartLine < blocks[j].StartLine
	})
	return nil
}
