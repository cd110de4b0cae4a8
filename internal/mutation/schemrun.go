package mutation

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// The judge's run on a schemata (docs/mutation.md "Schemata"): each test
// package is built once with every mutant woven in, its tests are run once
// per top-level test (and ginkgo spec) with the switches traced, and each
// mutant is then judged by running only the tests that read its switch.

// schemPkg is one test package's schemata binary and what its tests reach.
type schemPkg struct {
	*testPkg        // the unmutated binary, for the overlay path and identical builds
	bin      string // the schemata test binary
	overlay  string // the schemata's -overlay file, for the builds its tests make
	trace    pkgTrace
	mu       sync.Mutex
	base     map[string]bool // selection -> the unmutated run of it passes
}

// pkgTrace is the cached part of a schemPkg: the units its tests ran and the
// units each switch was read in.
type pkgTrace struct {
	Units []unit        `json:"units"`
	Reach map[int][]int `json:"reach"`
}

// runSchemata is RunJudge on a schemata of mutants, judging those of todo.
func runSchemata(ctx context.Context, cfg JudgeConfig, tmp string, mutants, todo []Mutant) ([]Result, error) {
	root, err := filepath.Abs(cfg.Root)
	if err != nil {
		return nil, err
	}
	cfg.Root = root
	s, err := weaveMutants(ctx, root, cfg.Module, tmp, mutants)
	if err != nil {
		return nil, err
	}
	var order []string
	seen := map[string]bool{}
	for _, m := range mutants {
		for _, t := range cfg.testsOf(m) {
			if !seen[t] {
				seen[t] = true
				order = append(order, t)
			}
		}
	}
	if err := s.addHooks(root, cfg.Module, order); err != nil {
		return nil, err
	}
	if cfg.Tree == "" { // a caller that writes no report
		if cfg.Tree, err = TreeKey(root); err != nil {
			return nil, err
		}
	}
	key := schemataKey(root, cfg.Tree, mutants)
	traces := map[string]pkgTrace{}
	cache := ""
	if cfg.CacheDir != "" {
		cache = filepath.Join(cfg.CacheDir, key+".json")
		if b, err := os.ReadFile(cache); err != nil || json.Unmarshal(b, &traces) != nil {
			traces = map[string]pkgTrace{}
			pruneCache(cfg.CacheDir, keptTraces-1) // room for this tree's
		} else if cfg.Log != nil {
			cfg.Log(fmt.Sprintf("schemata: the traces of %d test packages come from %s", len(traces), cache))
		}
	}
	pkgs := map[string]*schemPkg{}
	var mu sync.Mutex
	var firstErr error
	sem := make(chan struct{}, max(cfg.Workers, 1))
	var wg sync.WaitGroup
	slices.SortStableFunc(order, func(a, b string) int { return b2i(b == "cmd/conform") - b2i(a == "cmd/conform") })
	for _, t := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			mu.Lock()
			tr, cached := traces[t]
			mu.Unlock()
			p, err := setupSchemPkg(ctx, cfg, s, tmp, t, tr, cached)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			if p != nil {
				pkgs[t], traces[t] = p, p.trace
				if cache != "" && !cached { // each package as it is done: a failed setup keeps the others
					if b, err := json.Marshal(traces); err == nil && os.MkdirAll(cfg.CacheDir, 0o755) == nil {
						_ = os.WriteFile(cache, b, 0o644) // a cache that cannot be written is only slower next time
					}
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if cfg.Log != nil {
		cfg.Log(fmt.Sprintf("schemata: %d of %d mutants woven; the rest are built one by one", len(mutants)-len(s.unwoven), len(mutants)))
	}
	plain := map[string]*testPkg{}
	for t, p := range pkgs {
		plain[t] = p.testPkg
	}
	return pool(ctx, cfg.Workers, tmp, todo, cfg.Progress, func(dir string, m Mutant) Result {
		if s.unwoven[m.ID()] {
			// Most do not compile (string -): the package alone says so
			// sooner than its test binaries.
			if overlay, err := WriteOverlay(cfg.Root, dir, m); err == nil {
				if detail := buildRefusal(ctx, cfg.Root, overlay, m); detail != "" {
					return Result{Mutant: m, Status: NoCompile, Detail: detail}
				}
			}
			return judgeOne(ctx, cfg, dir, plain, m)
		}
		return schemataOne(ctx, cfg, dir, pkgs, s.ks[m.ID()], m)
	})
}

// addHooks adds the ginkgo trace hook to each ginkgo suite among the test
// packages, and rewrites the overlay.
func (s *schema) addHooks(root, module string, dirs []string) error {
	for _, d := range dirs {
		name, err := testPackageName(filepath.Join(root, d))
		if err != nil {
			return err
		}
		if name == "" {
			continue
		}
		cp := filepath.Join(filepath.Dir(s.overlay), "hook-"+strings.ReplaceAll(d, "/", "-")+"_test.go")
		if err := os.WriteFile(cp, []byte(ginkgoHook(name, module)), 0o644); err != nil {
			return err
		}
		s.files[filepath.Join(root, d, "zz_conformmutant_test.go")] = cp
	}
	return s.writeOverlay()
}

// schemataKey names a tree's content (its TreeKey), its place (a trace
// names spec files by path) and the mutants woven: the traces of one key
// hold for every run of it, a resumed one too.
func schemataKey(root, tree string, mutants []Mutant) string {
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version(), switchSource(0), root, tree)
	for _, m := range mutants {
		fmt.Fprintln(h, m.ID())
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// keptTraces is how many trees' traces the cache keeps: each tree (every
// edit makes a new one) adds a file of a few MB.
const keptTraces = 8

// pruneCache removes all but the keep most recently written trace files
// of dir; what it cannot remove only costs disk.
func pruneCache(dir string, keep int) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	type aged struct {
		path string
		mod  time.Time
	}
	var all []aged
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			all = append(all, aged{f, fi.ModTime()})
		}
	}
	slices.SortFunc(all, func(a, b aged) int { return b.mod.Compare(a.mod) })
	for _, a := range all[min(keep, len(all)):] {
		os.Remove(a.path)
	}
}

// setupSchemPkg builds the unmutated and the schemata test binaries of the
// package at dir t and, unless cached, runs each of its tests once with the
// switches traced: they must pass.
func setupSchemPkg(ctx context.Context, cfg JudgeConfig, s *schema, tmp, t string, tr pkgTrace, cached bool) (*schemPkg, error) {
	name := strings.ReplaceAll(t, "/", "-")
	p := &schemPkg{testPkg: &testPkg{dir: t}, bin: filepath.Join(tmp, "schemata-"+name+".test"), overlay: s.overlay, base: map[string]bool{}}
	p.testPkg.base = filepath.Join(tmp, "base-"+name+".test")
	if out, err := buildTest(ctx, cfg.Root, t, "", p.testPkg.base); err != nil {
		return nil, fmt.Errorf("building the unmutated tests of %s: %v\n%s", t, err, out)
	}
	h, err := hashFile(p.testPkg.base)
	if err != nil {
		return nil, err
	}
	p.hash = h
	// vet reads the package's files from its directory, which the switch
	// package, written by -overlay, lacks.
	if out, err := buildTest(ctx, cfg.Root, t, s.overlay, p.bin, "-vet=off"); err != nil {
		return nil, fmt.Errorf("building the schemata tests of %s: %v\n%s", t, err, out)
	}
	hook, err := testPackageName(filepath.Join(cfg.Root, t))
	if err != nil {
		return nil, err
	}
	p.ginkgo = hook != ""
	if !cached {
		start := time.Now()
		if tr, err = tracePkg(ctx, cfg, p); err != nil {
			return nil, err
		}
		if cfg.Log != nil {
			cfg.Log(fmt.Sprintf("schemata: %s traced: %d units, %d switches read, in %v", t, len(tr.Units), len(tr.Reach), time.Since(start).Round(time.Second)))
		}
	}
	p.trace = tr
	var total int64
	for _, u := range tr.Units {
		total += u.Nano
	}
	p.timeout = max(cfg.Timeout, 4*time.Duration(total))
	return p, nil
}

// tracePkg runs each top-level test of the schemata binary alone, on the
// unmutated switches, with the trace on.
func tracePkg(ctx context.Context, cfg JudgeConfig, p *schemPkg) (pkgTrace, error) {
	tr := pkgTrace{Reach: map[int][]int{}}
	cmd := exec.CommandContext(ctx, p.bin, "-test.list", ".")
	cmd.Dir = filepath.Join(cfg.Root, p.dir)
	out, err := cmd.Output()
	if err != nil {
		return tr, fmt.Errorf("listing the tests of %s: %v", p.dir, err)
	}
	dir, err := os.MkdirTemp("", "conform-trace-")
	if err != nil {
		return tr, err
	}
	defer os.RemoveAll(dir)
	for _, test := range strings.Fields(string(out)) {
		if !testName.MatchString(test) {
			continue
		}
		file := filepath.Join(dir, test)
		cmd := exec.CommandContext(ctx, p.bin, "-test.count=1", "-test.run=^"+regexp.QuoteMeta(test)+"$")
		cmd.Dir = filepath.Join(cfg.Root, p.dir)
		cmd.Env = append(switchEnv(0, p.overlay), "CONFORM_MUTANT_TRACE="+file)
		ownGroup(cmd)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		wall := time.Since(start)
		if err != nil {
			return tr, fmt.Errorf("the unmutated schemata tests of %s fail: %s: %v: %s", p.dir, test, err, failLine(out))
		}
		f, err := os.Open(file)
		if os.IsNotExist(err) { // no switch read
			tr.Units = append(tr.Units, unit{Test: test, Nano: int64(wall)})
			continue
		}
		if err != nil {
			return tr, err
		}
		err = readTrace(f, test, int64(wall), &tr.Units, tr.Reach)
		f.Close()
		if err != nil {
			return tr, err
		}
	}
	return tr, nil
}

var testName = regexp.MustCompile(`^(Test|Example|Fuzz)`)

// switchEnv is the environment of a schemata run with switch k on (0: none).
func switchEnv(k int, overlay string) []string {
	return append(overlayEnv(overlay), fmt.Sprintf("CONFORM_MUTANT=%d", k))
}

// overlayEnv is the environment of a test binary's run on a mutated tree:
// a go build its tests run (cmd/conform's specs build conform and run it)
// builds the same overlay, so the binary it makes holds the mutant too (on
// a schemata: reads the same switch). GOFLAGS carries the overlay.
// RAPID_NOFAILFILE: a property a mutant fails is a kill, not a case to
// replay, and rapid would write it under the tree's testdata, changing
// the TreeKey a later --resume checks.
func overlayEnv(overlay string) []string {
	env := []string{"RAPID_NOFAILFILE=true"}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "CONFORM_MUTANT") && !strings.HasPrefix(e, "RAPID_NOFAILFILE=") && (overlay == "" || !strings.HasPrefix(e, "GOFLAGS=")) {
			env = append(env, e)
		}
	}
	if overlay != "" {
		env = append(env, "GOFLAGS="+strings.TrimSpace(goflags()+" -overlay="+overlay))
	}
	return env
}

// goflags is the GOFLAGS a go command sees here (the environment's, else
// go env's), which an overlay is added to, not put in place of.
var goflags = sync.OnceValue(func() string {
	if v, ok := os.LookupEnv("GOFLAGS"); ok {
		return v
	}
	out, _ := exec.Command("go", "env", "GOFLAGS").Output()
	return strings.TrimSpace(string(out))
})

// selection is the tests of one package that read a switch.
type selection struct {
	args  []string // -test.run and -ginkgo.focus-file flags; none: the whole package
	limit time.Duration
}

func (sel selection) key() string { return strings.Join(sel.args, " ") }

// selectFor is the selection of switch k's units.
func (p *schemPkg) selectFor(cfg JudgeConfig, k int) selection {
	whole := map[string]bool{}
	specs := map[string]map[string][]string{} // test -> file -> lines
	var nano int64
	for _, i := range p.trace.Reach[k] {
		u := p.trace.Units[i]
		if u.Spec == "" {
			whole[u.Test] = true
		}
	}
	for _, i := range p.trace.Reach[k] {
		u := p.trace.Units[i]
		if u.Spec != "" && !whole[u.Test] {
			if specs[u.Test] == nil {
				specs[u.Test] = map[string][]string{}
			}
			file, line := splitLoc(u.Spec)
			specs[u.Test][file] = append(specs[u.Test][file], line)
			nano += u.Nano
		}
	}
	var tests []string
	for _, u := range p.trace.Units {
		if u.Spec == "" && (whole[u.Test] || specs[u.Test] != nil) {
			tests = append(tests, regexp.QuoteMeta(u.Test))
			nano += u.Nano // a test's own setup, or all of it
		} else if u.Spec != "" && whole[u.Test] {
			nano += u.Nano
		}
	}
	sort.Strings(tests)
	args := []string{"-test.run=^(" + strings.Join(tests, "|") + ")$"}
	var focus []string
	for _, byFile := range specs {
		for file, lines := range byFile {
			sort.Strings(lines)
			focus = append(focus, "-ginkgo.focus-file=^"+regexp.QuoteMeta(file)+"$:"+strings.Join(slices.Compact(lines), ","))
		}
	}
	sort.Strings(focus)
	return selection{args: append(args, focus...), limit: max(cfg.Timeout, 4*time.Duration(nano))}
}

func splitLoc(loc string) (string, string) {
	i := strings.LastIndexByte(loc, ':')
	return loc[:i], loc[i+1:]
}

// runSelected runs the selected tests of the schemata binary with switch k
// on, stopping at the first failure; as runTest, a run over the limit is a
// hang.
func (p *schemPkg) runSelected(ctx context.Context, cfg JudgeConfig, k int, sel selection) (Status, string) {
	args := []string{"-test.count=1", "-test.failfast"}
	if p.ginkgo {
		args = append(args, "-ginkgo.fail-fast")
	}
	limit := p.timeout
	if len(sel.args) > 0 {
		args, limit = append(args, sel.args...), sel.limit
	}
	return runBinary(ctx, cfg.Root, p.dir, p.bin, args, switchEnv(k, p.overlay), limit)
}

// basePasses reports whether the unmutated switches pass the selection
// (once per selection): a selection of specs that fails alone (a spec
// needing another's state) cannot kill.
func (p *schemPkg) basePasses(ctx context.Context, cfg JudgeConfig, sel selection) bool {
	p.mu.Lock()
	ok, done := p.base[sel.key()]
	p.mu.Unlock()
	if done {
		return ok
	}
	st, _ := p.runSelected(ctx, cfg, 0, sel)
	p.mu.Lock()
	p.base[sel.key()] = st == Survived
	p.mu.Unlock()
	return st == Survived
}

// schemataOne judges a woven mutant: for each test package whose tests read
// its switch, in table order, the tests that read it are run with the
// switch on; the first failure kills. A survivor is then built by -overlay
// as on the overlay path, to tell an identical binary from a survivor.
func schemataOne(ctx context.Context, cfg JudgeConfig, dir string, pkgs map[string]*schemPkg, k int, m Mutant) Result {
	r := Result{Mutant: m}
	settle := func() Result { return cfg.Listed.Settle(r) }
	var reached []*schemPkg
	var names []string
	for _, t := range cfg.testsOf(m) {
		if p := pkgs[t]; len(p.trace.Reach[k]) > 0 {
			reached = append(reached, p)
			names = append(names, t)
		}
	}
	if len(reached) == 0 {
		r.Status, r.Detail = Survived, "not covered: no test of "+strings.Join(cfg.testsOf(m), ", ")+" reaches it"
		return settle()
	}
	for _, p := range reached {
		sel := p.selectFor(cfg, k)
		st, detail := p.runSelected(ctx, cfg, k, sel)
		if st != Killed {
			continue
		}
		if strings.HasPrefix(detail, "hang") {
			// As on the overlay path (confirmHang), on the same selection.
			st, detail = confirmHang(detail,
				func() Status { st, _ := p.runSelected(ctx, cfg, 0, sel); return st },
				func() (Status, string) { return p.runSelected(ctx, cfg, k, sel) })
			if st != Killed {
				r.Status, r.Detail = st, p.dir+": "+detail
				return settle()
			}
		} else if !p.basePasses(ctx, cfg, sel) {
			// The selection fails alone: judge by the whole package.
			if st, detail = p.runSelected(ctx, cfg, k, selection{}); st != Killed {
				continue
			}
		}
		r.Status, r.Detail = Killed, p.dir+": "+detail
		return settle()
	}
	// A survivor whose every test binary builds identical is identical, as
	// on the overlay path.
	overlay, err := WriteOverlay(cfg.Root, dir, m)
	if err != nil {
		return unwritten(r, err)
	}
	for _, p := range reached {
		bin, same, detail := p.buildMutant(ctx, cfg.Root, dir, overlay)
		os.Remove(bin)
		if detail != "" {
			r.Status, r.Detail = NoCompile, detail
			return r
		}
		if !same {
			r.Status, r.Detail = Survived, "the tests of "+strings.Join(names, ", ")+" pass"
			return settle()
		}
	}
	r.Status = Identical
	return settle()
}

// runBinary runs a test binary in its package's directory (as go test
// does). Killed when a test fails or the run is over limit; the process
// group goes with it, so an adapter a test started does not outlive a hang.
func runBinary(ctx context.Context, root, dir, bin string, args, env []string, limit time.Duration) (Status, string) {
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(tctx, bin, args...)
	cmd.Dir = filepath.Join(root, dir)
	cmd.Env = env
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if tctx.Err() != nil && ctx.Err() == nil {
		return Killed, fmt.Sprintf("hang: over %v", limit.Round(time.Second))
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return Survived, ""
	case errors.As(err, &exit):
		return Killed, fmt.Sprintf("exit %d: %s", exit.ExitCode(), failLine(out.Bytes()))
	default:
		return Killed, err.Error()
	}
}
