package mutation

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Status is what became of one mutant.
type Status string

const (
	Killed    Status = "killed"     // conform run failed against the mutated adapter
	Survived  Status = "survived"   // every case passed
	Identical Status = "equivalent" // the adapter binary is byte-identical to the unmutated one
	Listed    Status = "listed"     // survived and is in spec/equivalent-mutants.yaml
	NoCompile Status = "not-compiled"
	// NotReached: the mutated statement is in a block the golden run never
	// executes, for the reason spec/uncovered.yaml gives (make
	// coverage-golden checks both): no case can kill it, so it is not
	// built and stays out of the denominator (UncoveredMutants).
	NotReached Status = "uncovered"
)

// Result is one mutant's outcome.
type Result struct {
	Mutant Mutant
	Status Status
	Detail string // the build error's first line, the run's last line, or the listed reason
	Stale  bool   // listed in spec/equivalent-mutants.yaml, yet killed or identical
}

// Config drives a run.
type Config struct {
	Root    string        // module root
	Conform string        // `conform` built from the unmutated tree (goldens embedded)
	Workers int           // mutants built and run at once
	Timeout time.Duration // limit of one mutant's conform run
	Listed  Equivalents   // the committed equivalent mutants
	Judge   Judge         // nil: the golden run, then the framing script; else this judge alone (fuzzjudge.go)
	// Uncovered maps the id of each mutant UncoveredMutants found to its
	// reason (the golden run only; nil judges every mutant).
	Uncovered map[string]string
	// Progress, if set, is called after each mutant.
	Progress func(done, total int, r Result)
}

// AdapterPkg is the lean adapter built per mutant.
const AdapterPkg = "./internal/mutation/leanadapter"

// Run builds the unmutated adapter, then each mutant's, and runs conform
// against every binary that differs.
func Run(ctx context.Context, cfg Config, mutants []Mutant) ([]Result, error) {
	tmp, err := os.MkdirTemp("", "conform-mutation-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	base := filepath.Join(tmp, "base")
	if out, err := build(ctx, cfg.Root, "", base); err != nil {
		return nil, fmt.Errorf("building the unmutated adapter: %v\n%s", err, out)
	}
	baseHash, err := hashFile(base)
	if err != nil {
		return nil, err
	}
	if cfg.Judge != nil {
		if st, detail := cfg.Judge(ctx, base); st != Survived {
			return nil, fmt.Errorf("the judge kills the unmutated adapter: %s", detail)
		}
	} else if st, detail := runConform(ctx, cfg, base); st != Survived {
		return nil, fmt.Errorf("conform run fails against the unmutated adapter: %s", detail)
	}
	script, err := os.ReadFile(filepath.Join(cfg.Root, FramingScript))
	if err != nil {
		return nil, err
	}
	baseFramed, err := runFramings(ctx, cfg, base, script)
	if err != nil {
		return nil, fmt.Errorf("the framing script fails against the unmutated adapter: %v", err)
	}
	probe := framingProbe{script: script, want: baseFramed}
	return pool(ctx, cfg.Workers, tmp, mutants, cfg.Progress, func(dir string, m Mutant) Result {
		return one(ctx, cfg, dir, baseHash, probe, m)
	})
}

func one(ctx context.Context, cfg Config, dir string, baseHash [32]byte, probe framingProbe, m Mutant) Result {
	r := Result{Mutant: m}
	if why, ok := cfg.Uncovered[m.ID()]; ok {
		// A listing of it is redundant: the coverage gate already holds its reason.
		r.Status, r.Detail = NotReached, why
		return cfg.Listed.Settle(r)
	}
	overlay, err := WriteOverlay(cfg.Root, dir, m)
	if err != nil {
		return unwritten(r, err)
	}
	bin := filepath.Join(dir, "adapter")
	if out, err := build(ctx, cfg.Root, overlay, bin); err != nil {
		r.Status, r.Detail = NoCompile, firstLine(out)
		return r
	}
	h, err := hashFile(bin)
	if err != nil {
		r.Status, r.Detail = NoCompile, err.Error()
		return r
	}
	if h == baseHash {
		r.Status = Identical
		return cfg.Listed.Settle(r)
	}
	if cfg.Judge != nil {
		r.Status, r.Detail = cfg.Judge(ctx, bin)
	} else if r.Status, r.Detail = runConform(ctx, cfg, bin); r.Status == Survived {
		r.Status, r.Detail = probe.judge(ctx, cfg, bin, r.Detail)
	}
	return cfg.Listed.Settle(r)
}

// build compiles the lean adapter. -trimpath, -buildvcs=false and an empty
// build ID make the binary depend on the compiled code only, so a mutant the
// compiler or linker removes (dead code, a constant folded away) builds the
// same bytes as the unmutated tree: equivalent by construction.
func build(ctx context.Context, root, overlay, out string) ([]byte, error) {
	args := []string{"build", "-trimpath", "-buildvcs=false", "-ldflags=-buildid=", "-o", out}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, AdapterPkg)...)
	cmd.Dir = root
	return cmd.CombinedOutput()
}

// runConform runs every case through bin. Any failure of the run kills the
// mutant: a failing case (exit 1), an adapter that cannot start or
// handshake (exit 3), or a run over the time limit.
func runConform(ctx context.Context, cfg Config, bin string) (Status, string) {
	tctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, cfg.Conform, "run", "--jobs", "1", "--timeout", "5s", "--max-failures", "1", "--", bin)
	cmd.Dir = cfg.Root
	// Interrupt rather than kill, so that conform tears down its adapter
	// (a hanging mutant sits in its own process group); kill after a grace.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if tctx.Err() != nil && ctx.Err() == nil {
		return Killed, fmt.Sprintf("conform run over %v", cfg.Timeout)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return Survived, lastLine(out.Bytes())
	case errors.As(err, &exit):
		return Killed, fmt.Sprintf("exit %d: %s", exit.ExitCode(), lastLine(out.Bytes()))
	default:
		return Killed, err.Error()
	}
}

// FramingScript is a protocol session of request lines conform never
// writes but the protocol allows (whitespace between tokens, escaped member
// names, a repeated member, id first); internal/adapter's Serve test pins
// the answers. Every mutant that survives the golden run is also fed it:
// answers that differ from the unmutated adapter's kill the mutant, which
// is how the framing code of Serve's request reading (jsonjs's raw members,
// the parser's whitespace) is judged.
const FramingScript = "internal/adapter/testdata/framings.jsonl"

type framingProbe struct {
	script, want []byte
}

// judge runs the script through bin: Survived with the golden run's detail
// when its answers are the unmutated adapter's, Killed otherwise.
func (p framingProbe) judge(ctx context.Context, cfg Config, bin, detail string) (Status, string) {
	got, err := runFramings(ctx, cfg, bin, p.script)
	switch {
	case err != nil:
		return Killed, "framing script: " + err.Error()
	case !bytes.Equal(got, p.want):
		return Killed, "framing script: " + firstDiff(got, p.want)
	}
	return Survived, detail
}

// runFramings runs bin with the script on stdin and returns its stdout.
func runFramings(ctx context.Context, cfg Config, bin string, script []byte) ([]byte, error) {
	tctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, bin)
	cmd.Stdin = bytes.NewReader(script)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return out.Bytes(), err
	}
	return out.Bytes(), nil
}

// firstDiff names the first answer line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var a, b []byte
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if !bytes.Equal(a, b) {
			return fmt.Sprintf("answer %d is %q, want %q", i+1, clip(a), clip(b))
		}
	}
	return "answers differ"
}

func clip(b []byte) []byte {
	if len(b) > 120 {
		return b[:120]
	}
	return b
}

// WriteOverlay writes m's mutated file into dir and the -overlay file
// naming it (its path is returned): go build and go test take it as is.
func WriteOverlay(root, dir string, m Mutant) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src, err := os.ReadFile(filepath.Join(root, m.File))
	if err != nil {
		return "", err
	}
	if m.Start < 0 || m.End > len(src) || m.Start > m.End || string(src[m.Start:m.End]) != m.Old {
		return "", fmt.Errorf("%w: %s no longer holds %q at %d:%d (run on a frozen worktree)", ErrTreeChanged, m.File, m.Old, m.Line, m.Col)
	}
	abs, err := filepath.Abs(filepath.Join(root, m.File))
	if err != nil {
		return "", err
	}
	mutated := filepath.Join(dir, filepath.Base(m.File))
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(mutated, m.Apply(src), 0o644); err != nil {
		return "", err
	}
	return overlay, os.WriteFile(overlay, overlayJSON(map[string]string{abs: mutated}), 0o644)
}

// ErrTreeChanged is WriteOverlay's error for a file edited since its
// mutants were listed: the mutant's bytes are no longer at its offsets.
var ErrTreeChanged = errors.New("the tree changed under the run")

// unwritten is the result of a mutant whose overlay could not be written.
// One whose file changed under the run counts as survived, never as not
// compiled: a run on a moving tree must not score better than it judged.
func unwritten(r Result, err error) Result {
	r.Status, r.Detail = NoCompile, err.Error()
	if errors.Is(err, ErrTreeChanged) {
		r.Status = Survived
	}
	return r
}

// overlayJSON is a go build -overlay file replacing each path by its
// file, written by jsonjs (paths in order, so the bytes are stable).
func overlayJSON(replace map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"Replace":{`)
	for i, path := range slices.Sorted(maps.Keys(replace)) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(quote(path))
		b.WriteByte(':')
		b.Write(quote(replace[path]))
	}
	b.WriteString("}}")
	return b.Bytes()
}

func hashFile(p string) ([32]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(b), nil
}

func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// BuildConform builds `conform` from the unmutated tree, so the goldens it
// embeds are the committed ones.
func BuildConform(ctx context.Context, root, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "./cmd/conform")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building conform: %v\n%s", err, b)
	}
	return nil
}

// pool judges mutants on workers goroutines, each with a scratch directory
// of its own under tmp, in the mutants' order; it stops handing out
// mutants once ctx is done, and the results of those not judged (or judged
// while it was done) stay zero.
func pool(ctx context.Context, workers int, tmp string, mutants []Mutant, progress func(done, total int, r Result), judge func(dir string, m Mutant) Result) ([]Result, error) {
	results := make([]Result, len(mutants))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			dir := filepath.Join(tmp, fmt.Sprint("w", w))
			for i := range jobs {
				r := judge(dir, mutants[i])
				if ctx.Err() != nil {
					// Interrupted while judged: a test cut off by the
					// cancellation fails like a kill. Unjudged, not killed.
					continue
				}
				mu.Lock()
				results[i] = r
				done++
				if progress != nil {
					progress(done, len(mutants), r)
				}
				mu.Unlock()
			}
		}(w)
	}
	for i := range mutants {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results, ctx.Err()
}
