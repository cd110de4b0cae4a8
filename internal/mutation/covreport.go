package mutation

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"sort"
)

// PkgCoverage is one package's statement coverage by the golden run, over
// all its statements and over those of linked functions.
type PkgCoverage struct {
	Pkg                        string
	Stmts, Covered             int
	LinkedStmts, LinkedCovered int
}

// UnlinkedFunc is a function with uncovered blocks that the adapter does
// not link at all: no op reaches it.
type UnlinkedFunc struct {
	File, Func string
	Blocks     int
}

// ExplainedBlock is an uncovered linked block and the entry explaining it.
type ExplainedBlock struct {
	Block Block
	Entry Uncovered
}

// CoverageReport is what the gate decides.
type CoverageReport struct {
	Packages    []PkgCoverage
	Unlinked    []UnlinkedFunc
	Explained   []ExplainedBlock
	Unexplained []Block     // uncovered, linked, matched by no entry
	Stale       []Uncovered // entries that match no uncovered linked block
}

// OK reports whether every uncovered block is explained and no entry is
// stale.
func (r CoverageReport) OK() bool { return len(r.Unexplained) == 0 && len(r.Stale) == 0 }

// CheckCoverage sorts the blocks (annotated by Annotate) into covered,
// not linked, explained by an entry and unexplained.
func CheckCoverage(blocks []Block, entries []Uncovered) CoverageReport {
	var r CoverageReport
	pkgs := map[string]*PkgCoverage{}
	unlinked := map[[2]string]int{}
	used := make([]bool, len(entries))
	for _, b := range blocks {
		p := path.Dir(b.File)
		pc := pkgs[p]
		if pc == nil {
			pc = &PkgCoverage{Pkg: p}
			pkgs[p] = pc
		}
		pc.Stmts += b.Stmts
		if b.Linked {
			pc.LinkedStmts += b.Stmts
		}
		if b.Count > 0 {
			pc.Covered += b.Stmts
			if b.Linked {
				pc.LinkedCovered += b.Stmts
			}
			continue
		}
		if !b.Linked {
			unlinked[[2]string{b.File, b.Func}]++
			continue
		}
		explained := false
		for i, e := range entries {
			if e.matches(b) {
				if !explained {
					r.Explained = append(r.Explained, ExplainedBlock{b, e})
				}
				explained, used[i] = true, true
			}
		}
		if !explained {
			r.Unexplained = append(r.Unexplained, b)
		}
	}
	for i, e := range entries {
		if !used[i] {
			r.Stale = append(r.Stale, e)
		}
	}
	for _, pc := range pkgs {
		r.Packages = append(r.Packages, *pc)
	}
	sort.Slice(r.Packages, func(i, j int) bool { return r.Packages[i].Pkg < r.Packages[j].Pkg })
	for k, n := range unlinked {
		r.Unlinked = append(r.Unlinked, UnlinkedFunc{File: k[0], Func: k[1], Blocks: n})
	}
	sort.Slice(r.Unlinked, func(i, j int) bool {
		a, b := r.Unlinked[i], r.Unlinked[j]
		return a.File < b.File || a.File == b.File && a.Func < b.Func
	})
	return r
}

func percent(n, of int) float64 {
	if of == 0 {
		return 100
	}
	return 100 * float64(n) / float64(of)
}

// WriteCoverage prints the report: per package, the functions not linked,
// the explained blocks with their reasons, the unexplained blocks and the
// stale entries.
func WriteCoverage(w io.Writer, r CoverageReport) error {
	ew := bufio.NewWriter(w)
	fmt.Fprintf(ew, "golden-run statement coverage of reference/:\n")
	for _, p := range r.Packages {
		fmt.Fprintf(ew, "  %-22s %5.1f%% of %d statements, %5.1f%% of the %d in linked functions\n",
			p.Pkg, percent(p.Covered, p.Stmts), p.Stmts, percent(p.LinkedCovered, p.LinkedStmts), p.LinkedStmts)
	}
	fmt.Fprintf(ew, "not linked into the adapter: no op reaches it (%d functions):\n", len(r.Unlinked))
	for _, u := range r.Unlinked {
		fn := u.Func
		if fn == "" {
			fn = "(package level)"
		}
		fmt.Fprintf(ew, "  %s %s: %d blocks\n", u.File, fn, u.Blocks)
	}
	fmt.Fprintf(ew, "explained by %s (%d blocks):\n", UncoveredFile, len(r.Explained))
	for _, e := range r.Explained {
		fmt.Fprintf(ew, "  %s %s: %s\n", e.Block.Pos(), e.Block.Func, e.Entry.Reason)
	}
	fmt.Fprintf(ew, "unexplained uncovered blocks (%d):\n", len(r.Unexplained))
	for _, b := range r.Unexplained {
		fmt.Fprintf(ew, "  %s %s: %s\n", b.Pos(), b.Func, b.Source)
	}
	fmt.Fprintf(ew, "stale entries, matching no uncovered linked block (%d):\n", len(r.Stale))
	for _, u := range r.Stale {
		fmt.Fprintf(ew, "  %s:%d: %s %s %q\n", UncoveredFile, u.Line, u.File, u.Func, u.Contains)
	}
	return ew.Flush()
}
