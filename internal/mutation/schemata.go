package mutation

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Mutant schemata (docs/mutation.md "Schemata"): the judge's mutants are
// woven into one copy of their files (weave.go), written by -overlay, so
// each test package is built once; a mutant is switched on by
// CONFORM_MUTANT. The weave is type-checked by the compiler: a mutant whose
// woven form does not compile is left to the per-mutant overlay build.

// schema is the woven tree: the overlay, each mutant's switch, and the
// mutants left to the overlay path.
type schema struct {
	overlay string            // -overlay JSON file
	files   map[string]string // absolute path -> woven copy (and the switch package, the ginkgo hooks)
	ks      map[string]int    // mutant ID -> switch number
	n       int               // switches + 1
	unwoven map[string]bool
}

// pkgFiles is one mutated package as go list sees it.
type pkgFiles struct {
	dir   string // module-relative
	path  string // import path
	files []string
}

// weaveMutants weaves every mutant of ms it can into the files of their
// packages, compiles them with the compiler's every error (-gcflags=-e),
// drops the mutants the errors name, and weaves again until they build.
func weaveMutants(ctx context.Context, root, module, tmp string, ms []Mutant) (*schema, error) {
	s := &schema{files: map[string]string{}, ks: map[string]int{}, unwoven: map[string]bool{}, overlay: filepath.Join(tmp, "schemata.json")}
	byDir := map[string][]wovenMutant{}
	var dirs []string
	for i, m := range ms {
		s.ks[m.ID()] = i + 1
		d := path.Dir(m.File)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], wovenMutant{m, i + 1})
	}
	s.n = len(ms) + 1
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	pkgs, exports, err := listPackages(ctx, root, dirs)
	if err != nil {
		return nil, err
	}
	dropped := map[int]bool{}
	for round := 0; ; round++ {
		woven := map[string][]wspan{} // absolute path -> spans
		content := map[string][]byte{}
		for _, p := range pkgs {
			var keep []wovenMutant
			for _, m := range byDir[p.dir] {
				if !dropped[m.K] {
					keep = append(keep, m)
				}
			}
			fell, err := weavePackage(root, p, exports, module+"/"+SwitchPkg, keep, func(file string, src []byte, spans []wspan) {
				woven[file], content[file] = spans, src
			})
			if err != nil {
				return nil, err
			}
			for _, k := range fell {
				dropped[k] = true
			}
		}
		s.files = map[string]string{}
		for file, src := range content {
			cp := filepath.Join(tmp, "woven", strings.ReplaceAll(strings.TrimPrefix(file, root), "/", "_"))
			if err := os.MkdirAll(filepath.Dir(cp), 0o755); err != nil {
				return nil, err
			}
			if err := os.WriteFile(cp, src, 0o644); err != nil {
				return nil, err
			}
			s.files[file] = cp
		}
		sw := filepath.Join(tmp, "conformmutant.go")
		if err := os.WriteFile(sw, []byte(switchSource(s.n)), 0o644); err != nil {
			return nil, err
		}
		s.files[filepath.Join(root, SwitchPkg, "switch.go")] = sw
		if err := s.writeOverlay(); err != nil {
			return nil, err
		}
		args := []string{"build", "-gcflags=-e", "-overlay", s.overlay}
		for _, p := range pkgs {
			args = append(args, "./"+p.dir)
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err == nil {
			break
		}
		if round == 20 {
			return nil, fmt.Errorf("the schemata does not build after %d rounds: %s", round, firstLine(out))
		}
		named := compileErrors(root, out, woven, content, s.files)
		if len(named) == 0 {
			return nil, fmt.Errorf("the schemata does not build, and no error names a woven file: %v\n%s", err, out)
		}
		for k := range named {
			dropped[k] = true
		}
	}
	for _, m := range ms {
		if dropped[s.ks[m.ID()]] {
			s.unwoven[m.ID()] = true
		}
	}
	return s, nil
}

func (s *schema) writeOverlay() error {
	return os.WriteFile(s.overlay, overlayJSON(s.files), 0o644)
}

// listPackages lists the mutated packages' compiled files, and the export
// data of every package they import (go list -export builds it).
func listPackages(ctx context.Context, root string, dirs []string) ([]pkgFiles, map[string]string, error) {
	args := []string{"list", "-f", "{{.Dir}}\t{{.ImportPath}}\t{{join .GoFiles \"\\t\"}}"}
	for _, d := range dirs {
		args = append(args, "./"+d)
	}
	out, err := goCmd(ctx, root, args...)
	if err != nil {
		return nil, nil, err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	var pkgs []pkgFiles
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(l, "\t")
		rel, err := filepath.Rel(absRoot, f[0])
		if err != nil {
			return nil, nil, err
		}
		pkgs = append(pkgs, pkgFiles{dir: filepath.ToSlash(rel), path: f[1], files: f[2:]})
	}
	args = []string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}
	for _, d := range dirs {
		args = append(args, "./"+d)
	}
	if out, err = goCmd(ctx, root, args...); err != nil {
		return nil, nil, err
	}
	exports := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, e, ok := strings.Cut(l, "\t"); ok && e != "" {
			exports[p] = e
		}
	}
	return pkgs, exports, nil
}

// weavePackage type-checks one package and weaves each of its files that
// holds mutants; put receives each woven file. It returns the switches it
// could not weave.
func weavePackage(root string, p pkgFiles, exports map[string]string, imp string, ms []wovenMutant, put func(file string, src []byte, spans []wspan)) ([]int, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	srcs := map[*ast.File][]byte{}
	names := map[*ast.File]string{}
	for _, name := range p.files {
		file := filepath.Join(absRoot, p.dir, name)
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		srcs[f], names[f] = src, file
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Implicits: map[ast.Node]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		e, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(e)
	})}
	pkg, err := conf.Check(p.path, fset, files, info)
	if err != nil {
		return nil, fmt.Errorf("type-checking %s: %v", p.dir, err)
	}
	var fell []int
	for _, f := range files {
		rel := path.Join(p.dir, filepath.Base(names[f]))
		var mine []wovenMutant
		for _, m := range ms {
			if m.File == rel {
				mine = append(mine, m)
			}
		}
		if len(mine) == 0 {
			continue
		}
		src, spans, fl := weaveFile(fset, f, srcs[f], info, pkg, imp, mine)
		fell = append(fell, fl...)
		if src != nil {
			put(names[f], src, spans)
		}
	}
	return fell, nil
}

var compileError = regexp.MustCompile(`(?m)^(?:\./)?([^\s:]+\.go):(\d+):(\d+): `)

// compileErrors names the switches of the innermost span holding each
// error of a build's output; an error in a woven file outside every span
// names all of that file's switches.
func compileErrors(root string, out []byte, woven map[string][]wspan, content map[string][]byte, copies map[string]string) map[int]bool {
	absRoot, _ := filepath.Abs(root)
	orig := map[string]string{} // the compiler names a woven file by its copy
	for o, c := range copies {
		orig[c] = o
	}
	named := map[int]bool{}
	for _, m := range compileError.FindAllSubmatch(out, -1) {
		file := string(m[1])
		if !filepath.IsAbs(file) {
			file = filepath.Join(absRoot, file)
		}
		if o, ok := orig[file]; ok {
			file = o
		}
		spans, ok := woven[file]
		if !ok {
			continue
		}
		line, _ := strconv.Atoi(string(m[2]))
		col, _ := strconv.Atoi(string(m[3]))
		at := offsetOf(content[file], line, col)
		best := -1
		for i, s := range spans {
			if s.start <= at && at < s.end && (best < 0 || s.end-s.start < spans[best].end-spans[best].start) {
				best = i
			}
		}
		if best >= 0 {
			for _, k := range spans[best].ks {
				named[k] = true
			}
			continue
		}
		// Outside every span (an operand of a site, mismatched): the sites
		// of the error's line, else every site of the file.
		lo, hi := offsetOf(content[file], line, 1), offsetOf(content[file], line+1, 1)
		n := len(named)
		for _, s := range spans {
			if s.start < hi && s.end > lo {
				for _, k := range s.ks {
					named[k] = true
				}
			}
		}
		if len(named) > n {
			continue
		}
		for _, s := range spans {
			for _, k := range s.ks {
				named[k] = true
			}
		}
	}
	return named
}

// offsetOf is the byte offset of 1-based line and byte column in src.
func offsetOf(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off + col - 1
}

// ginkgoHook is a test file added by -overlay to a ginkgo suite: it starts
// a trace segment per spec, named by the spec's location (what
// -ginkgo.focus-file selects), and notes the spec's run time.
func ginkgoHook(pkgName, module string) string {
	return fmt.Sprintf(`package %s

import (
	"fmt"

	conformginkgo "github.com/onsi/ginkgo/v2"
	conformmutant %q
)

var _ = conformginkgo.ReportBeforeEach(func(r conformginkgo.SpecReport) {
	conformmutant.Mark(fmt.Sprintf("> %%s:%%d", r.LeafNodeLocation.FileName, r.LeafNodeLocation.LineNumber))
})

var _ = conformginkgo.ReportAfterEach(func(r conformginkgo.SpecReport) {
	conformmutant.Note(fmt.Sprintf("< %%d", r.RunTime))
})
`, pkgName, module+"/"+SwitchPkg)
}

// testPackageName is the package clause of a test file of dir that imports
// ginkgo ("" when none does).
func testPackageName(dir string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return "", err
	}
	sort.Strings(matches)
	for _, m := range matches {
		f, err := parser.ParseFile(token.NewFileSet(), m, nil, parser.ImportsOnly)
		if err != nil {
			return "", err
		}
		for _, is := range f.Imports {
			if strings.HasPrefix(is.Path.Value, `"github.com/onsi/ginkgo`) {
				return f.Name.Name, nil
			}
		}
	}
	return "", nil
}

// unit is what one trace segment ran: a top-level test, or one spec
// location of the ginkgo suite a test runs.
type unit struct {
	Test string `json:"test"`
	Spec string `json:"spec,omitempty"` // file:line; "" the whole test
	Nano int64  `json:"nano"`           // its run time
}

// readTrace reads one test's trace: the switches read before the first
// spec belong to the whole test, the others to their spec. It adds the
// test's units to units and each switch's units to reach.
func readTrace(r io.Reader, test string, wall int64, units *[]unit, reach map[int][]int) error {
	cur := len(*units)
	*units = append(*units, unit{Test: test, Nano: wall})
	bySpec := map[string]int{}
	var specs int64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "> "):
			loc := l[2:]
			i, ok := bySpec[loc]
			if !ok {
				i = len(*units)
				bySpec[loc] = i
				*units = append(*units, unit{Test: test, Spec: loc})
			}
			cur = i
		case strings.HasPrefix(l, "< "):
			d, err := strconv.ParseInt(l[2:], 10, 64)
			if err != nil {
				return fmt.Errorf("trace of %s: %q", test, l)
			}
			(*units)[cur].Nano += d
			specs += d
		default:
			k, err := strconv.Atoi(l)
			if err != nil {
				return fmt.Errorf("trace of %s: %q", test, l)
			}
			if us := reach[k]; len(us) == 0 || us[len(us)-1] != cur {
				reach[k] = append(us, cur)
			}
		}
	}
	// The whole test's own time is what its specs leave: setup, teardown.
	first := len(*units) - len(bySpec) - 1
	(*units)[first].Nano = max(wall-specs, 0)
	return sc.Err()
}
