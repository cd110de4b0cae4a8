package mutation

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// The judge's run (issue 22, docs/mutation.md "The judge"): mutants of the
// code that decides whether a harness passes, killed by conform's own
// `go test`, not by the golden run.

// JudgeEquivalentsFile lists the judge's surviving mutants no test can
// observe, with the same format and discipline as EquivalentsFile.
const JudgeEquivalentsFile = "spec/equivalent-judge-mutants.yaml"

// JudgeTarget is one package whose mutants the judge's run makes, and the
// packages whose tests judge them: the package itself first, then its
// consumers, cheapest first (cmd/conform's tests take the longest).
type JudgeTarget struct {
	Dir   string   // module-relative package directory
	Files []string // only these files (base names); all non-test files when empty
	// Unlinked keeps only the mutants inside functions the lean adapter does
	// not link: a mutant of linked code is the golden run's to judge.
	Unlinked bool
	// Owned are files (base names) whose every mutant is the judge's, linked
	// or not, and leaves the reference's run (ReferenceMutants).
	Owned []string
	Tests []string // module-relative package directories, in run order
}

// JudgeTargets is the mapping of mutated package to test packages.
var JudgeTargets = []JudgeTarget{
	{Dir: "internal/verdict", Tests: []string{"internal/verdict", "internal/runner", "conformtest", "internal/report", "internal/matrix", "cmd/conform"}},
	{Dir: "internal/baseline", Tests: []string{"internal/baseline", "internal/runner", "internal/logcheck", "internal/report", "cmd/conform"}},
	{Dir: "internal/runner", Tests: []string{"internal/runner", "conformtest", "internal/report", "internal/matrix", "cmd/conform"}},
	{Dir: "internal/logcheck", Tests: []string{"internal/logcheck", "generators/sessionlog", "internal/report", "cmd/conform"}},
	// The report code that decides verdicts and exit statuses: reading a
	// report back (baselines, diff), the run diff, the summary line and the
	// partial/complete banner, check-log's problems.
	{Dir: "internal/report", Files: []string{"readreport.go", "rundiff.go", "run.go", "checklog.go"}, Tests: []string{"internal/report", "cmd/conform"}},
	// The comparator (Equal, Differences, FirstDifference) and the log
	// reader (Lazy) only the CLI links. And the tape of deep values, whole:
	// it is a cost structure whose every failure to scan hands the text to
	// the tree parser, which gives the same answer, so a golden case cannot
	// see a mutant that refuses a text; jsonjs's tape-against-tree and
	// depth-cost specs can.
	{Dir: "reference/jsonjs", Unlinked: true, Owned: []string{"deep.go", "lazyscan.go", "lazy.go", "stack.go"}, Tests: []string{"reference/jsonjs", "internal/runner", "internal/logcheck", "conformtest", "generators/sessionlog", "internal/report", "cmd/conform"}},
}

// JudgeMutants enumerates the mutants of JudgeTargets; module is root's
// import path. The Unlinked filter builds the lean adapter without inlining
// and reads its symbols (the way `make coverage-golden` lists the unlinked
// functions).
func JudgeMutants(ctx context.Context, root, module string) ([]Mutant, error) {
	var syms map[string]bool
	var out []Mutant
	for _, t := range JudgeTargets {
		ms, err := Enumerate(root, t.Dir)
		if err != nil {
			return nil, err
		}
		if t.Unlinked && syms == nil {
			if syms, err = adapterSymbols(ctx, root); err != nil {
				return nil, err
			}
		}
		funcs := map[string]fileFuncs{}
		for _, m := range ms {
			if path.Dir(m.File) != t.Dir || len(t.Files) > 0 && !contains(t.Files, path.Base(m.File)) {
				continue
			}
			if t.Unlinked && !contains(t.Owned, path.Base(m.File)) {
				ff, ok := funcs[m.File]
				if !ok {
					if ff, err = readFuncs(filepath.Join(root, m.File)); err != nil {
						return nil, err
					}
					funcs[m.File] = ff
				}
				fn := ff.enclosing(m.Line, m.Col)
				if fn == "" || Linked(syms, module+"/"+t.Dir, fn) {
					continue
				}
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// ReferenceMutants enumerates the mutants of reference/ that the golden run
// judges: all but those in the files a JudgeTarget owns.
func ReferenceMutants(root string) ([]Mutant, error) {
	all, err := Enumerate(root, "reference")
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, m := range all {
		if !judgeOwned(m.File) {
			out = append(out, m)
		}
	}
	return out, nil
}

// judgeOwned reports whether a JudgeTarget owns the file whole.
func judgeOwned(file string) bool {
	for _, t := range JudgeTargets {
		if path.Dir(file) == t.Dir && contains(t.Owned, path.Base(file)) {
			return true
		}
	}
	return false
}

// enclosing names the function declaration holding line:col ("" at package
// level).
func (ff fileFuncs) enclosing(line, col int) string {
	for _, f := range ff.funcs {
		if before(f.startLine, f.startCol, line, col) && before(line, col, f.endLine, f.endCol) {
			return f.name
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// adapterSymbols builds the lean adapter without inlining and returns its
// function symbols.
func adapterSymbols(ctx context.Context, root string) (map[string]bool, error) {
	tmp, err := os.MkdirTemp("", "conform-judge-nm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "adapter")
	if _, err := goCmd(ctx, root, "build", "-gcflags=all=-l", "-o", bin, AdapterPkg); err != nil {
		return nil, err
	}
	nm, err := goCmd(ctx, root, "tool", "nm", bin)
	if err != nil {
		return nil, err
	}
	return ParseSymbols(bytes.NewReader(nm))
}

// targetOf is the JudgeTarget of a mutant's package.
func targetOf(m Mutant) (JudgeTarget, bool) {
	for _, t := range JudgeTargets {
		if path.Dir(m.File) == t.Dir {
			return t, true
		}
	}
	return JudgeTarget{}, false
}

// JudgeConfig drives the judge's run.
type JudgeConfig struct {
	Root    string // module root
	Module  string // its import path
	Workers int
	// Timeout bounds one test binary's run for one mutant, at least; a
	// package whose unmutated tests take longer gets 4 times their time. A
	// mutant over it hangs the tests: killed.
	Timeout time.Duration
	Listed  Equivalents // JudgeEquivalentsFile
	// Tests, when set, replaces each target's Tests (the rule's own test).
	Tests []string
	// OwnTests keeps only the first of each target's Tests, the mutated
	// package's own (--own-tests).
	OwnTests bool
	Progress func(done, total int, r Result)
	// Schemata judges the mutants on a schemata (schemrun.go) instead of a
	// build per mutant.
	Schemata bool
	// CacheDir keeps the schemata's traces by the tree's content ("": none).
	CacheDir string
	// Tree is Root's TreeKey, the run's reports left out (the traces' key
	// holds it). Judged holds the ids of mutants a resumed report judged
	// already: they are woven (the traces' key is the whole run's) but not
	// judged again.
	Tree   string
	Judged map[string]bool
	Log    func(string) // setup messages
}

// testPkg is one test package's unmutated state: its test binary's hash,
// the blocks its tests reach, and how it is run.
type testPkg struct {
	dir     string
	hash    [32]byte
	base    string             // the unmutated test binary
	cover   map[string][]Block // module-relative file -> blocks of the mutated packages
	ginkgo  bool
	timeout time.Duration
}

// reached reports whether this package's tests run the statement holding
// line:col of file; a position in no block (a declaration outside
// statements) counts as reached, since coverage cannot tell.
func (p *testPkg) reached(file string, line, col int) bool {
	in := false
	for _, b := range p.cover[file] {
		if before(b.StartLine, b.StartCol, line, col) && before(line, col, b.EndLine, b.EndCol) {
			if b.Count > 0 {
				return true
			}
			in = true
		}
	}
	return !in
}

// RunJudge judges each mutant by the tests of its target's test packages:
// for each package whose tests reach the mutated statement (by the
// unmutated tree's coverage), in table order, its test binary is built with
// the mutated file given by -overlay and run with fail-fast; the first
// failure (or a run over the time limit) kills the mutant. A mutant whose
// every built test binary is byte-identical to the unmutated one is
// Identical; a mutant no test reaches is Survived with detail "not
// covered". The results are those of the mutants not in cfg.Judged.
func RunJudge(ctx context.Context, cfg JudgeConfig, mutants []Mutant) ([]Result, error) {
	tmp, err := os.MkdirTemp("", "conform-judge-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	todo := slices.DeleteFunc(slices.Clone(mutants), func(m Mutant) bool { return cfg.Judged[m.ID()] })
	if cfg.Schemata {
		return runSchemata(ctx, cfg, tmp, mutants, todo)
	}
	pkgs, err := judgeSetup(ctx, cfg, tmp, todo)
	if err != nil {
		return nil, err
	}
	return pool(ctx, cfg.Workers, tmp, todo, cfg.Progress, func(dir string, m Mutant) Result {
		return judgeOne(ctx, cfg, dir, pkgs, m)
	})
}

// testsOf is the run order of a mutant's test packages.
func (cfg JudgeConfig) testsOf(m Mutant) []string {
	if cfg.Tests != nil {
		return cfg.Tests
	}
	t, _ := targetOf(m)
	if cfg.OwnTests && len(t.Tests) > 0 {
		return t.Tests[:1]
	}
	return t.Tests
}

// judgeSetup builds each needed test package's unmutated test binary, and
// runs its tests once with coverage of the mutated packages it judges: the
// tests must pass on the unmutated tree, and the profile tells which
// mutants they reach.
func judgeSetup(ctx context.Context, cfg JudgeConfig, tmp string, mutants []Mutant) (map[string]*testPkg, error) {
	covered := map[string]map[string]bool{} // test package -> mutated package dirs
	var order []string
	for _, m := range mutants {
		for _, t := range cfg.testsOf(m) {
			if covered[t] == nil {
				covered[t] = map[string]bool{}
				order = append(order, t)
			}
			covered[t][path.Dir(m.File)] = true
		}
	}
	// The packages are set up Workers at a time: their tests are most of
	// a short run's time.
	pkgs := map[string]*testPkg{}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, max(cfg.Workers, 1))
	var wg sync.WaitGroup
	// cmd/conform's tests take the longest: started first.
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(b2i(b == "cmd/conform"), b2i(a == "cmd/conform")) })
	for _, t := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			p, err := setupPkg(ctx, cfg, tmp, t, covered[t])
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			pkgs[t] = p
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return pkgs, nil
}

// setupPkg builds, hashes and runs with coverage the unmutated tests of
// the package at dir t; judged are the mutated package dirs it judges.
func setupPkg(ctx context.Context, cfg JudgeConfig, tmp, t string, judged map[string]bool) (*testPkg, error) {
	p := &testPkg{dir: t, cover: map[string][]Block{}}
	bin := filepath.Join(tmp, "base-"+strings.ReplaceAll(t, "/", "-")+".test")
	if out, err := buildTest(ctx, cfg.Root, t, "", bin); err != nil {
		return nil, fmt.Errorf("building the unmutated tests of %s: %v\n%s", t, err, out)
	}
	h, err := hashFile(bin)
	if err != nil {
		return nil, err
	}
	p.hash, p.base = h, bin
	imports, err := goCmd(ctx, cfg.Root, "list", "-f", "{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./"+t)
	if err != nil {
		return nil, err
	}
	p.ginkgo = bytes.Contains(imports, []byte("github.com/onsi/ginkgo"))
	var coverpkg []string
	for d := range judged {
		coverpkg = append(coverpkg, cfg.Module+"/"+d)
	}
	profile := filepath.Join(tmp, "cover-"+strings.ReplaceAll(t, "/", "-")+".txt")
	sort.Strings(coverpkg)
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-timeout=30m", "-coverpkg="+strings.Join(coverpkg, ","), "-coverprofile="+profile, "./"+t)
	cmd.Dir = cfg.Root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("the unmutated tests of %s fail: %v: %s", t, err, failLine(out))
	}
	p.timeout = max(cfg.Timeout, 4*testTime(out))
	f, err := os.Open(profile)
	if err != nil {
		return nil, err
	}
	blocks, err := ParseProfile(f, cfg.Module)
	f.Close()
	if err != nil && err.Error() != "no blocks" { // no blocks: the tests link none of them
		return nil, fmt.Errorf("coverage of %s: %v", t, err)
	}
	for _, b := range blocks {
		p.cover[b.File] = append(p.cover[b.File], b)
	}
	return p, nil
}

// buildRefusal is the first line of go build's refusal of m's package
// with overlay, or "" when it builds (or the run was interrupted, which is
// no refusal).
func buildRefusal(ctx context.Context, root, overlay string, m Mutant) string {
	cmd := exec.CommandContext(ctx, "go", "build", "-overlay", overlay, "./"+path.Dir(m.File))
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil && ctx.Err() == nil {
		return firstLine(out)
	}
	return ""
}

func judgeOne(ctx context.Context, cfg JudgeConfig, dir string, pkgs map[string]*testPkg, m Mutant) Result {
	r := Result{Mutant: m}
	settle := func() Result { return cfg.Listed.Settle(r) }
	var reached []*testPkg
	for _, t := range cfg.testsOf(m) {
		if p := pkgs[t]; p.reached(m.File, m.Line, m.Col) {
			reached = append(reached, p)
		}
	}
	overlay, err := WriteOverlay(cfg.Root, dir, m)
	if err != nil {
		return unwritten(r, err)
	}
	if len(reached) == 0 {
		// Out of the denominator only if it does not compile.
		if detail := buildRefusal(ctx, cfg.Root, overlay, m); detail != "" {
			r.Status, r.Detail = NoCompile, detail
			return r
		}
		r.Status, r.Detail = Survived, "not covered: no test of "+strings.Join(cfg.testsOf(m), ", ")+" reaches it"
		return settle()
	}
	var ran []string
	for _, p := range reached {
		bin, same, detail := p.buildMutant(ctx, cfg.Root, dir, overlay)
		if detail != "" {
			r.Status, r.Detail = NoCompile, detail
			return r
		}
		if same {
			continue
		}
		ran = append(ran, p.dir)
		st, detail := runTest(ctx, cfg, p, bin, overlay)
		if st == Killed && strings.HasPrefix(detail, "hang") {
			st, detail = confirmHang(detail,
				func() Status { st, _ := runTest(ctx, cfg, p, p.base, ""); return st },
				func() (Status, string) { return runTest(ctx, cfg, p, bin, overlay) })
			if st != Killed {
				r.Status, r.Detail = st, p.dir+": "+detail
				return settle()
			}
		}
		if st == Killed {
			r.Status, r.Detail = Killed, p.dir+": "+detail
			return settle()
		}
	}
	if len(ran) == 0 {
		r.Status = Identical
		return settle()
	}
	r.Status, r.Detail = Survived, "the tests of "+strings.Join(ran, ", ")+" pass"
	return settle()
}

// confirmHang decides a mutant whose tests went over their limit (hang is
// that run's detail): on a loaded machine one slow run is no kill. It is a
// hang only if the unmutated tests then pass within the same limit and
// the mutant's go over it again; a failure on the second run kills as
// any failure does. Otherwise it survives, undecided, never killed: a
// listed equivalent read as hanging once beside other jobs (stop 32).
func confirmHang(hang string, base func() Status, again func() (Status, string)) (Status, string) {
	if base() != Survived {
		return Survived, "undecided: the unmutated tests too are over the limit now"
	}
	st, detail := again()
	if st != Killed {
		return Survived, "undecided: over the limit once (" + hang + "), then within it"
	}
	return Killed, detail
}

// buildTest compiles the test binary of the package at dir, with build as
// build's flags so that equal code gives equal bytes; extra flags go first.
// buildMutant builds p's test binary with a mutant's overlay into dir and
// reports whether it is byte-identical to the unmutated one; detail, when
// not empty, says why it did not build.
func (p *testPkg) buildMutant(ctx context.Context, root, dir, overlay string) (bin string, same bool, detail string) {
	bin = filepath.Join(dir, strings.ReplaceAll(p.dir, "/", "-")+".test")
	if out, err := buildTest(ctx, root, p.dir, overlay, bin); err != nil {
		return bin, false, firstLine(out)
	}
	h, err := hashFile(bin)
	if err != nil {
		return bin, false, err.Error()
	}
	return bin, h == p.hash, ""
}

func buildTest(ctx context.Context, root, dir, overlay, out string, extra ...string) ([]byte, error) {
	args := append([]string{"test", "-c"}, extra...)
	args = append(args, "-trimpath", "-buildvcs=false", "-ldflags=-buildid=", "-o", out)
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, "./"+dir)...)
	cmd.Dir = root
	return cmd.CombinedOutput()
}

// runTest runs a test binary of p with fail-fast under p's time limit.
func runTest(ctx context.Context, cfg JudgeConfig, p *testPkg, bin, overlay string) (Status, string) {
	args := []string{"-test.count=1", "-test.failfast"}
	if p.ginkgo {
		args = append(args, "-ginkgo.fail-fast")
	}
	return runBinary(ctx, cfg.Root, p.dir, bin, args, overlayEnv(overlay), p.timeout)
}

// failLine names the failure: ginkgo's summary line of the first failed
// spec, else a panic, else the first failed test, else the last line.
func failLine(b []byte) string {
	lines := strings.Split(ansiColor.ReplaceAllString(string(b), ""), "\n")
	for _, prefix := range []string{"[FAIL] ", "panic:", "--- FAIL"} {
		for _, l := range lines {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, prefix) {
				return l
			}
		}
	}
	return lastLine(b)
}

// ansiColor is a terminal colour sequence, which ginkgo writes even to a pipe.
var ansiColor = regexp.MustCompile("\x1b\\[[0-9;]*m")

// testTime is the test binary's own time from go test's "ok pkg 1.23s"
// line (the build not included); 0 when there is none.
func testTime(out []byte) time.Duration {
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && f[0] == "ok" {
			if d, err := time.ParseDuration(f[2]); err == nil {
				return d
			}
		}
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
