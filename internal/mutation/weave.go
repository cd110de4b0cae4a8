package mutation

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strconv"
)

// The weave of a mutant schemata (docs/mutation.md "Schemata"): every
// mutant of a file is written into one copy of it, each behind a switch read
// at run time, so one build serves every mutant. Each woven form evaluates
// each operand once and keeps short-circuit evaluation; with every switch
// off it computes what the original computes.

// SwitchPkg is the package the woven code calls, written by -overlay under
// the module root like the woven files.
const SwitchPkg = "internal/conformmutant"

// switchName is the name a woven file imports SwitchPkg as.
const switchName = "conformmutant"

// switchSource is SwitchPkg's source for n switches (numbered 1..n-1).
// CONFORM_MUTANT names the mutant switched on; CONFORM_MUTANT_TRACE, a file
// each switch appends its number to when first read in a segment (Mark
// starts one, Note writes a line without starting one).
func switchSource(n int) string {
	return fmt.Sprintf(`// Package conformmutant switches the mutants of a schemata (written by
// internal/mutation for one run, never committed).
package conformmutant

import (
	"os"
	"strconv"
	"sync/atomic"
)

var (
	active, _ = strconv.Atoi(os.Getenv("CONFORM_MUTANT"))
	trace     *os.File
	seen      [%d]atomic.Bool
)

func init() {
	if p := os.Getenv("CONFORM_MUTANT_TRACE"); p != "" {
		trace, _ = os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	}
}

// On reports whether mutant k is the one switched on.
func On(k int) bool {
	if trace != nil && !seen[k].Swap(true) {
		// One write a line: goroutines append to the same file.
		trace.Write(append(strconv.AppendInt(nil, int64(k), 10), '\n'))
	}
	return k == active
}

// Mark starts a trace segment named line.
func Mark(line string) {
	if trace == nil {
		return
	}
	for i := range seen {
		seen[i].Store(false)
	}
	trace.WriteString(line + "\n")
}

// Note writes line into the trace.
func Note(line string) {
	if trace != nil {
		trace.WriteString(line + "\n")
	}
}

type number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64 | ~complex64 | ~complex128
}

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

func Add[T number](k int, a, b T) T {
	if On(k) {
		return a - b
	}
	return a + b
}

func Sub[T number](k int, a, b T) T {
	if On(k) {
		return a + b
	}
	return a - b
}

func Mul[T number](k int, a, b T) T {
	if On(k) {
		return a / b
	}
	return a * b
}

func Quo[T number](k int, a, b T) T {
	if On(k) {
		return a * b
	}
	return a / b
}

func Rem[T integer](k int, a, b T) T {
	if On(k) {
		return a * b
	}
	return a %% b
}

func And[T integer](k int, a, b T) T {
	if On(k) {
		return a | b
	}
	return a & b
}

func Or[T integer](k int, a, b T) T {
	if On(k) {
		return a & b
	}
	return a | b
}

func Shl[T, U integer](k int, a T, b U) T {
	if On(k) {
		return a >> b
	}
	return a << b
}

func Shr[T, U integer](k int, a T, b U) T {
	if On(k) {
		return a << b
	}
	return a >> b
}

// Flip turns x += d into x -= d (and ++ into --): x - d is x + (-d).
func Flip[T number](k int, d T) T {
	if On(k) {
		return -d
	}
	return d
}
`, n)
}

// helpers names SwitchPkg's function for each arithmetic operator.
var helpers = map[token.Token]string{
	token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul", token.QUO: "Quo", token.REM: "Rem",
	token.AND: "And", token.OR: "Or", token.SHL: "Shl", token.SHR: "Shr",
}

// wovenMutant is a mutant given to the weave with its switch number.
type wovenMutant struct {
	Mutant
	K int
}

// site is one node of the file carrying mutants, and the sites inside it.
type site struct {
	node       ast.Node
	start, end int // byte offsets
	muts       []wovenMutant
	kids       []*site
	constRoot  bool // a constant expression of non-bool type: each mutant is a whole alternative
}

// wspan is a range of the woven file and the mutants written in it: a
// compiler error inside names the mutants to drop.
type wspan struct {
	start, end int
	ks         []int
}

// weaver writes one file's weave.
type weaver struct {
	src    []byte
	fset   *token.FileSet
	file   *ast.File
	info   *types.Info
	pkg    *types.Package
	qual   types.Qualifier
	qualOK bool
	imp    string // SwitchPkg's import path
	buf    bytes.Buffer
	spans  []wspan
	fall   map[int]bool // switch numbers left to the overlay path before building
}

// weaveFile writes the weave of one parsed, type-checked file with mutants
// ms (the file's own). It returns the woven source (nil when no mutant
// could be woven), the spans, and the switches it could not weave.
func weaveFile(fset *token.FileSet, file *ast.File, src []byte, info *types.Info, pkg *types.Package, imp string, ms []wovenMutant) ([]byte, []wspan, []int) {
	w := &weaver{src: src, fset: fset, file: file, info: info, pkg: pkg, imp: imp, fall: map[int]bool{}}
	w.qual = w.qualifier()
	roots := w.sites(ms)
	var fell []int
	if len(roots) == 0 {
		for _, m := range ms {
			fell = append(fell, m.K)
		}
		return nil, nil, fell
	}
	w.fill(0, len(src), roots, nil)
	w.importSwitch()
	for k := range w.fall {
		fell = append(fell, k)
	}
	sort.Ints(fell)
	if len(fell) == len(ms) {
		return nil, nil, fell
	}
	return w.buf.Bytes(), w.spans, fell
}

func (w *weaver) off(p token.Pos) int { return w.fset.Position(p).Offset }

// qualifier names a package as the file imports it; a package it does not
// import cannot be named (qualOK false).
func (w *weaver) qualifier() types.Qualifier {
	names := map[string]string{}
	for _, is := range w.file.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		if is.Name != nil {
			names[path] = is.Name.Name
		} else if pn, ok := w.info.Implicits[is].(*types.PkgName); ok {
			names[path] = pn.Imported().Name()
		}
	}
	return func(p *types.Package) string {
		if p == w.pkg {
			return ""
		}
		n, ok := names[p.Path()]
		switch {
		case !ok || n == "_":
			w.qualOK = false
			return p.Name()
		case n == ".":
			return ""
		}
		return n
	}
}

// typeName writes t as the file can name it; ok false when it cannot. An
// untyped constant's type is its default type.
func (w *weaver) typeName(t types.Type) (string, bool) {
	if t == nil {
		return "", false
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	w.qualOK = true
	s := types.TypeString(t, w.qual)
	return s, w.qualOK
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// sites finds the node of each mutant and nests them by range.
func (w *weaver) sites(ms []wovenMutant) []*site {
	type key struct{ start, end int }
	byRange := map[key][]wovenMutant{}
	for _, m := range ms {
		if m.Operator == "negation" {
			byRange[key{m.Start, m.End}] = append(byRange[key{m.Start, m.End}], m)
		}
	}
	ops := map[int][]wovenMutant{}
	for _, m := range ms {
		if m.Operator != "negation" {
			ops[m.Start] = append(ops[m.Start], m)
		}
	}
	nodes := map[ast.Node]*site{}
	var order []*site
	get := func(n ast.Node) *site {
		s := nodes[n]
		if s == nil {
			s = &site{node: n, start: w.off(n.Pos()), end: w.off(n.End())}
			nodes[n] = s
			order = append(order, s)
		}
		return s
	}
	var stack []ast.Node
	ast.Inspect(w.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		var at int
		switch n := n.(type) {
		case *ast.BinaryExpr:
			at = w.off(n.OpPos)
		case *ast.AssignStmt:
			at = w.off(n.TokPos)
		case *ast.IncDecStmt:
			at = w.off(n.TokPos)
		case *ast.Ident, *ast.BasicLit:
			at = w.off(n.Pos())
		default:
			at = -1
		}
		if e, ok := n.(ast.Expr); ok {
			if neg := byRange[key{w.off(n.Pos()), w.off(n.End())}]; len(neg) > 0 {
				// The outermost node of the range is the condition.
				get(e).muts = append(get(e).muts, neg...)
				delete(byRange, key{w.off(n.Pos()), w.off(n.End())})
			}
		}
		if ms := ops[at]; at >= 0 && len(ms) > 0 {
			delete(ops, at)
			if b, ok := n.(*ast.BinaryExpr); ok {
				ms = w.sameTree(stack, b, ms)
			}
			if root := w.constRoot(stack); root != nil {
				s := get(root)
				s.constRoot = true
				s.muts = append(s.muts, ms...)
			} else {
				get(n).muts = append(get(n).muts, ms...)
			}
		}
		return true
	})
	for _, left := range ops {
		for _, m := range left {
			w.fall[m.K] = true
		}
	}
	for _, left := range byRange {
		for _, m := range left {
			w.fall[m.K] = true
		}
	}
	// Nest: outer sites first (by start, then longest).
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].start != order[j].start {
			return order[i].start < order[j].start
		}
		return order[i].end > order[j].end
	})
	var roots []*site
	var open []*site
	for _, s := range order {
		for len(open) > 0 && open[len(open)-1].end <= s.start {
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			p := open[len(open)-1]
			if p.constRoot { // a constant's alternatives are written whole
				for _, m := range s.muts {
					w.fall[m.K] = true
				}
				continue
			}
			p.kids = append(p.kids, s)
		} else {
			roots = append(roots, s)
		}
		open = append(open, s)
	}
	return roots
}

// sameTree keeps the mutants of b whose token, swapped in the source,
// leaves b's operands as they are: a swap to an operator of another
// precedence (& and |, && and ||) can take an operand of the expression
// around b (c - a & b: c - a | b is (c - a) | b), which the woven form,
// written on b's own operands, does not compute. Those go to the overlay
// path.
func (w *weaver) sameTree(stack []ast.Node, b *ast.BinaryExpr, ms []wovenMutant) []wovenMutant {
	top := len(stack) - 1
	for top > 0 {
		if _, ok := stack[top-1].(*ast.BinaryExpr); !ok {
			break
		}
		top--
	}
	lo, hi := w.off(stack[top].Pos()), w.off(stack[top].End())
	var keep []wovenMutant
	for _, m := range ms {
		if precedence(m.New) == b.Op.Precedence() {
			keep = append(keep, m)
			continue
		}
		var src bytes.Buffer
		src.Write(w.src[lo:m.Start])
		src.WriteString(m.New)
		src.Write(w.src[m.End:hi])
		e, err := parser.ParseExpr(src.String())
		same := false
		if err == nil {
			// The swapped operator's node must span b's operands.
			at := token.Pos(m.Start - lo + 1)
			ast.Inspect(e, func(n ast.Node) bool {
				if nb, ok := n.(*ast.BinaryExpr); ok && nb.OpPos == at {
					same = int(nb.X.Pos())-1+lo == w.off(b.X.Pos()) && int(nb.Y.End())-1+lo+len(m.Old)-len(m.New) == w.off(b.Y.End())
				}
				return true
			})
		}
		if same {
			keep = append(keep, m)
		} else {
			w.fall[m.K] = true
		}
	}
	return keep
}

// precedence is a binary operator's precedence (0: not one).
func precedence(op string) int {
	for t := token.ADD; t <= token.TILDE; t++ {
		if t.String() == op {
			return t.Precedence()
		}
	}
	return 0
}

// constRoot is the outermost constant expression of non-bool type holding
// the node on top of stack, or nil when that node is not constant.
func (w *weaver) constRoot(stack []ast.Node) ast.Expr {
	var root ast.Expr
	for i := len(stack) - 1; i >= 0; i-- {
		e, ok := stack[i].(ast.Expr)
		if !ok {
			break
		}
		tv, ok := w.info.Types[e]
		if !ok || tv.Value == nil || tv.Type == nil || isBool(tv.Type) {
			break
		}
		root = e
	}
	return root
}

// raw writes src[lo:hi], with swap's bytes replaced when it lies inside.
func (w *weaver) raw(lo, hi int, swap *wovenMutant) {
	if swap != nil && lo <= swap.Start && swap.End <= hi {
		w.buf.Write(w.src[lo:swap.Start])
		w.buf.WriteString(swap.New)
		w.buf.Write(w.src[swap.End:hi])
		return
	}
	w.buf.Write(w.src[lo:hi])
}

// fill writes src[lo:hi] with each site of kids inside it woven, and swap
// applied.
func (w *weaver) fill(lo, hi int, kids []*site, swap *wovenMutant) {
	pos := lo
	for _, k := range kids {
		if k.start < lo || k.end > hi {
			continue
		}
		w.raw(pos, k.start, swap)
		w.emit(k)
		pos = k.end
	}
	w.raw(pos, hi, swap)
}

// importSwitch inserts the import of SwitchPkg after the package clause,
// on its line, so no line moves.
func (w *weaver) importSwitch() {
	at := w.off(w.file.Name.End())
	out := w.buf.Bytes()
	// The package clause precedes every site: its offset is unchanged.
	ins := fmt.Sprintf("; import %s %q", switchName, w.imp)
	woven := append(append(append([]byte{}, out[:at]...), ins...), out[at:]...)
	for i := range w.spans {
		w.spans[i].start += len(ins)
		w.spans[i].end += len(ins)
	}
	w.buf.Reset()
	w.buf.Write(woven)
}

func (w *weaver) on(k int) string { return fmt.Sprintf("%s.On(%d)", switchName, k) }

func (w *weaver) ks(ms []wovenMutant) []int {
	out := make([]int, len(ms))
	for i, m := range ms {
		out[i] = m.K
	}
	return out
}

// emit writes one site's woven form.
func (w *weaver) emit(s *site) {
	start := w.buf.Len()
	var neg, ops []wovenMutant
	for _, m := range s.muts {
		if m.Operator == "negation" {
			neg = append(neg, m)
		} else {
			ops = append(ops, m)
		}
	}
	if len(neg) > 0 {
		fmt.Fprintf(&w.buf, "(%s != (", w.on(neg[0].K))
		for _, m := range neg[1:] {
			w.fall[m.K] = true
		}
	}
	if !w.emitOps(s, ops) {
		for _, m := range ops {
			w.fall[m.K] = true
		}
		w.fill(s.start, s.end, s.kids, nil)
	}
	if len(neg) > 0 {
		w.buf.WriteString("))")
	}
	w.spans = append(w.spans, wspan{start, w.buf.Len(), w.ks(s.muts)})
}

// emitOps writes the token mutants of a site; false (nothing written) when
// the site has none or its form cannot be written.
func (w *weaver) emitOps(s *site, ops []wovenMutant) bool {
	if len(ops) == 0 {
		return false
	}
	if s.constRoot {
		return w.emitConst(s, ops)
	}
	switch n := s.node.(type) {
	case *ast.BinaryExpr:
		switch ops[0].Operator {
		case "relational":
			w.buf.WriteString("(")
			for _, m := range ops {
				at := w.buf.Len()
				fmt.Fprintf(&w.buf, "%s && (", w.on(m.K))
				w.fill(s.start, s.end, s.kids, &m)
				w.buf.WriteString(") || ")
				w.spans = append(w.spans, wspan{at, w.buf.Len(), []int{m.K}})
			}
			for _, m := range ops {
				fmt.Fprintf(&w.buf, "!%s && ", w.on(m.K))
			}
			w.buf.WriteString("(")
			w.fill(s.start, s.end, s.kids, nil)
			w.buf.WriteString("))")
			return true
		case "logical":
			// A && B -> A || B: (A && (on || B) || on && B); A || B -> A && B:
			// (A && (!on || B) || !on && B). A once, B at most once.
			not := ""
			if n.Op == token.LOR {
				not = "!"
			}
			on := not + w.on(ops[0].K)
			xs, xe, ys, ye := w.off(n.X.Pos()), w.off(n.X.End()), w.off(n.Y.Pos()), w.off(n.Y.End())
			w.buf.WriteString("((")
			w.fill(xs, xe, s.kids, nil)
			fmt.Fprintf(&w.buf, ") && (%s || (", on)
			w.fill(ys, ye, s.kids, nil)
			fmt.Fprintf(&w.buf, ")) || %s && (", on)
			w.fill(ys, ye, s.kids, nil)
			w.buf.WriteString("))")
			return true
		case "arithmetic":
			if tv := w.info.Types[n]; !tv.IsValue() { // a type union
				return false
			}
			t, ok := w.typeName(w.info.TypeOf(n))
			if !ok || isString(w.info.TypeOf(n)) {
				return false
			}
			if n.Op == token.SHL || n.Op == token.SHR {
				u, ok := w.typeName(w.info.TypeOf(n.Y))
				if !ok {
					return false
				}
				t += ", " + u
			}
			fmt.Fprintf(&w.buf, "%s.%s[%s](%d, ", switchName, helpers[n.Op], t, ops[0].K)
			w.fill(w.off(n.X.Pos()), w.off(n.X.End()), s.kids, nil)
			w.buf.WriteString(", ")
			w.fill(w.off(n.Y.Pos()), w.off(n.Y.End()), s.kids, nil)
			w.buf.WriteString(")")
			return true
		}
	case *ast.Ident: // true, false
		if ops[0].New == "false" {
			fmt.Fprintf(&w.buf, "(!%s)", w.on(ops[0].K))
		} else {
			fmt.Fprintf(&w.buf, "(%s)", w.on(ops[0].K))
		}
		return true
	case *ast.AssignStmt: // x += d -> x += Flip(d)
		if len(n.Lhs) != 1 || len(n.Rhs) != 1 {
			return false
		}
		t, ok := w.typeName(w.info.TypeOf(n.Lhs[0]))
		if !ok || isString(w.info.TypeOf(n.Lhs[0])) {
			return false
		}
		rs := w.off(n.Rhs[0].Pos())
		w.fill(s.start, rs, s.kids, nil)
		fmt.Fprintf(&w.buf, "%s.Flip[%s](%d, ", switchName, t, ops[0].K)
		w.fill(rs, s.end, s.kids, nil)
		w.buf.WriteString(")")
		return true
	case *ast.IncDecStmt: // x++ -> x += Flip(1)
		t, ok := w.typeName(w.info.TypeOf(n.X))
		if !ok {
			return false
		}
		w.fill(w.off(n.X.Pos()), w.off(n.X.End()), s.kids, nil)
		op := "+="
		if n.Tok == token.DEC {
			op = "-="
		}
		fmt.Fprintf(&w.buf, " %s %s.Flip[%s](%d, 1)", op, switchName, t, ops[0].K)
		return true
	}
	return false
}

// emitConst writes a constant expression and its alternatives, each a
// whole constant expression converted to the original's type as the
// original is: (func() T { switch { case on(k): return ALT }; return ORIG }()).
func (w *weaver) emitConst(s *site, ops []wovenMutant) bool {
	e := s.node.(ast.Expr)
	t, ok := w.typeName(w.info.TypeOf(e))
	if !ok {
		return false
	}
	fmt.Fprintf(&w.buf, "(func() %s { switch { ", t)
	for _, m := range ops {
		at := w.buf.Len()
		fmt.Fprintf(&w.buf, "case %s: return ", w.on(m.K))
		w.raw(s.start, s.end, &m)
		w.buf.WriteString("; ")
		w.spans = append(w.spans, wspan{at, w.buf.Len(), []int{m.K}})
	}
	w.buf.WriteString("}; return ")
	w.raw(s.start, s.end, nil)
	w.buf.WriteString(" }())")
	return true
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
