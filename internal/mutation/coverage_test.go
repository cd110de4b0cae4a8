package mutation

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const testModule = "example.com/m"

// A made-up package: F is linked and partly covered, (*T).M is linked and
// uncovered, G is linked through a closure of a generic instance, T.V has
// only a data symbol: not linked.
const testSource = `package p

func F(x int) int {
	if x > 0 {
		return 1
	}
	return 0
}

type T struct{}

func (t *T) M() int {
	return 2
}

func (t T) V() int {
	return 3
}

func G[X any](x X) func() X {
	return func() X { return x }
}
`

const testProfile = `mode: set
example.com/m/p/p.go:3.19,4.11 1 1
example.com/m/p/p.go:4.11,6.3 1 0
example.com/m/p/p.go:7.2,7.10 1 1
example.com/m/p/p.go:12.19,14.2 1 0
example.com/m/p/p.go:16.19,18.2 1 0
example.com/m/p/p.go:20.29,22.2 1 0
example.com/m/p/p.go:4.11,6.3 1 0
other.org/x/y.go:1.1,2.2 1 0
`

const testNM = `  4a1000 T example.com/m/p.F
  4a1100 T example.com/m/p.(*T).M
  4a1200 t example.com/m/p.G[go.shape.int].func1
  4a1300 D example.com/m/p.T.V
  4a1350 T example.com/m/p.T.Value
  4a1400 T runtime.main
`

func testBlocks(t *testing.T) []Block {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "p", "p.go"), []byte(testSource), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks, err := ParseProfile(strings.NewReader(testProfile), testModule)
	if err != nil {
		t.Fatal(err)
	}
	syms, err := ParseSymbols(strings.NewReader(testNM))
	if err != nil {
		t.Fatal(err)
	}
	if err := Annotate(blocks, root, testModule, syms); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// The profile's blocks of the module, merged, each in its function; linked
// means a text symbol of the function or of a closure in it.
func TestParseAndAnnotate(t *testing.T) {
	var got []string
	for _, b := range testBlocks(t) {
		got = append(got, strings.Join([]string{b.Pos(), b.Func, map[bool]string{true: "linked", false: "unlinked"}[b.Linked], b.Source}, " | "))
	}
	want := []string{
		"p/p.go:3 | F | linked | func F(x int) int {",
		"p/p.go:4 | F | linked | if x > 0 {",
		"p/p.go:7 | F | linked | return 0",
		"p/p.go:12 | (*T).M | linked | func (t *T) M() int {",
		"p/p.go:16 | T.V | unlinked | func (t T) V() int {",
		"p/p.go:20 | G | linked | func G[X any](x X) func() X {",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An uncovered linked block needs an entry; unlinked ones are explained by
// the symbols; an entry matching nothing is stale; the function may be
// named in symbol form or bare, as `go tool cover -func` prints it.
func TestCheckCoverage(t *testing.T) {
	blocks := testBlocks(t)
	entries, err := ParseUncovered("u.yaml", []byte(`
- file: p/p.go
  func: M
  contains: "func (t *T) M"
  reason: "r1"
- file: p/p.go
  func: F
  contains: "return 7"
  reason: "stale"
`))
	if err != nil {
		t.Fatal(err)
	}
	r := CheckCoverage(blocks, entries)
	if r.OK() {
		t.Fatal("OK with an unexplained block and a stale entry")
	}
	if len(r.Explained) != 1 || r.Explained[0].Block.Func != "(*T).M" || r.Explained[0].Entry.Reason != "r1" {
		t.Errorf("explained %+v", r.Explained)
	}
	var unexplained []string
	for _, b := range r.Unexplained {
		unexplained = append(unexplained, b.Pos())
	}
	if !reflect.DeepEqual(unexplained, []string{"p/p.go:4", "p/p.go:20"}) {
		t.Errorf("unexplained %v", unexplained)
	}
	if len(r.Stale) != 1 || r.Stale[0].Reason != "stale" || r.Stale[0].Line != 6 {
		t.Errorf("stale %+v", r.Stale)
	}
	if len(r.Unlinked) != 1 || r.Unlinked[0] != (UnlinkedFunc{File: "p/p.go", Func: "T.V", Blocks: 1}) {
		t.Errorf("unlinked %+v", r.Unlinked)
	}
	if len(r.Packages) != 1 || r.Packages[0] != (PkgCoverage{Pkg: "p", Stmts: 6, Covered: 2, LinkedStmts: 5, LinkedCovered: 2}) {
		t.Errorf("packages %+v", r.Packages)
	}
	all := []Uncovered{entries[0],
		{File: "p/p.go", Func: "F", Contains: "if x > 0", Reason: "r2"},
		{File: "p/p.go", Func: "G", Contains: "func G", Reason: "r3"}}
	if r := CheckCoverage(blocks, all); !r.OK() {
		t.Errorf("not OK with every block explained: %+v", r)
	}
}

// A mutant is left out of the golden run only inside a never-run block an
// entry explains: not in a run block, not in an unexplained one.
func TestUncoveredMutants(t *testing.T) {
	blocks := testBlocks(t)
	entries := []Uncovered{
		{File: "p/p.go", Func: "(*T).M", Contains: "func (t *T) M", Reason: "r1"},
		{File: "p/p.go", Func: "F", Contains: "if x > 0", Reason: "r2"},
		{File: "p/p.go", Func: "F", Contains: "return 0", Reason: "ran: a stale entry, for make coverage-golden to name"},
	}
	at := func(line, col int, old, repl string) Mutant {
		return Mutant{File: "p/p.go", Line: line, Col: col, Old: old, New: repl}
	}
	ms := []Mutant{
		at(4, 7, ">", ">="), // F's condition: its block ran
		at(5, 10, "1", "0"), // F's if body: never ran, r2
		at(7, 9, "0", "1"),  // F's last return: ran
		at(13, 9, "2", "3"), // (*T).M: never ran, r1
		at(21, 5, "x", "y"), // G: never ran, no entry
		{File: "q/q.go", Line: 5, Col: 10, Old: "1", New: "0"},
	}
	got := UncoveredMutants(blocks, entries, ms)
	want := map[string]string{ms[1].ID(): "r2", ms[3].ID(): "r1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// Bad profiles and entries are refused with the line that is wrong.
func TestCoverageBadInput(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "no blocks"},
		{"p.go:1.1,2.2 1 0\n", "bad mode line"},
		{"mode: set\nexample.com/m/p.go:1.1,2.2 1\n", `line "example.com/m/p.go:1.1,2.2 1"`},
		{"mode: set\nexample.com/m/p.go:1.1 1 0\n", `line "example.com/m/p.go:1.1 1 0"`},
		{"mode: set\nexample.com/m/p.go:1.x,2.2 1 0\n", `line "example.com/m/p.go:1.x,2.2 1 0"`},
		{"mode: set\nexample.com/m/p.go:1.1,2.2 1 -1\n", `line "example.com/m/p.go:1.1,2.2 1 -1"`},
	} {
		if _, err := ParseProfile(strings.NewReader(c.text), testModule); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("profile %q: error %v, want %q", c.text, err, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"a: 1", "u.yaml:1: want a list"},
		{"- file: f\n  func: g\n  reason: r\n", "u.yaml:1: an entry needs"},
		{"- {file: f, func: g, contains: c, reason: r}\n- {file: f, func: g, contains: c, reason: r}\n", "u.yaml:2: the same entry as line 1"},
	} {
		if _, err := ParseUncovered("u.yaml", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	blocks, _ := ParseProfile(strings.NewReader("mode: set\nexample.com/m/p/p.go:90.1,91.2 1 0\n"), testModule)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "p"), 0o755)
	os.WriteFile(filepath.Join(root, "p", "p.go"), []byte(testSource), 0o644)
	if err := Annotate(blocks, root, testModule, nil); err == nil || !strings.Contains(err.Error(), "p/p.go:90") {
		t.Errorf("a block past the file's end: %v", err)
	}
}
