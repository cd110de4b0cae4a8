package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
)

// fuzzCmd is `conform fuzz`: differential fuzzing of an adapter against the
// embedded reference, with shrinking (internal/fuzz, docs/fuzzing.md).
//
//	conform fuzz                                        # the reference against itself (smoke)
//	conform fuzz --adapter 'node adapter.js' --cases 100000 --save-dir regress
//	conform fuzz --seed 42 --shard 2/4 --duration 10m -- ./my-adapter --flag
//
// Exit status: 0 no mismatch; 1 a mismatch, crash, timeout or protocol
// error; 2 usage error; 3 the adapter could not be started, a finding could
// not be saved, the report could not be written, or conform itself failed.
type fuzzCmd struct {
	Adapter commandFlag `placeholder:"CMD" help:"The adapter command, split into words as a shell would (no shell runs). Or give the command after --. Without one, the embedded reference is fuzzed against itself; an empty one is a usage error."`
	Command []string    `arg:"" optional:"" name:"command" help:"The adapter command and its arguments, after --."`
	Exec    bool        `help:"Start one adapter process per case (protocol v1 exec mode)."`

	Op       string        `placeholder:"OP[,OP…]" help:"Fuzz only these ops, comma-separated (default: every op with a generator). Case k's op is the k-th of the list, cyclically."`
	Seed     uint64        `placeholder:"N" help:"Campaign seed; the same seed gives the same cases on any machine. 0 (default) picks one and prints it."`
	Case     int           `placeholder:"K" help:"First case index (default 0); --case K --cases 1 re-runs case K alone."`
	Cases    int           `placeholder:"N" help:"Number of cases, counted from --case across all shards (default 1000, or unbounded with --duration)."`
	Duration time.Duration `placeholder:"D" help:"The whole campaign, shrinking included, takes at most D (e.g. 10m): once a case fails, the cases stop in time to leave the shrinking its share (at most D/4); with --cases, whichever comes first."`
	Jobs     int           `short:"j" placeholder:"N" help:"Parallel adapter sessions (default: the number of CPUs)."`
	Shard    string        `placeholder:"I/N" help:"Run only the cases k with k mod N = I (0 <= I < N): N CI jobs with the same --seed split one campaign without overlap."`
	SaveDir  string        `name:"save-dir" placeholder:"DIR" help:"Save each finding's minimal input as a regression case: DIR/fixtures/<op>/fuzz-<hash>.json and DIR/golden/<op>/… (replay with conform run --fixtures DIR)."`
	Timeout  time.Duration `default:"10s" placeholder:"D" help:"Per-case timeout (default ${default})."`
	Shrink   time.Duration `name:"shrink-time" default:"30s" placeholder:"D" help:"Time all the findings share for grouping by cause and shrinking through the adapter (default ${default}); 0 disables shrinking. With --duration, within it."`

	// ProgressEvery is the interval of the progress line when stderr is
	// not a terminal; hidden, for tests.
	ProgressEvery time.Duration `name:"progress-every" hidden:"" default:"10s"`

	Format string   `enum:"text,json,junit,markdown" default:"text" help:"Report format: text, json (spec/schemas/report-fuzz.json), junit or markdown."`
	Out    []string `sep:"none" placeholder:"[FORMAT=]FILE" help:"Write the report to FILE instead of stdout (-). FORMAT=FILE (text, json, junit or markdown) writes that format to FILE, and may be repeated: one campaign, every artifact; the text report then goes to stdout unless an --out takes it. An --out naming a file of the adapter command is a usage error."`

	argv           []string
	shard, nShards int
	ops            []string
	outs           []report.OutSpec
}

// inputs are the files the campaign reads that an --out must not replace:
// the words of the adapter command naming a file (its program, a script).
func (c *fuzzCmd) inputs() [][2]string {
	var in [][2]string
	for _, a := range c.argv {
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() {
			in = append(in, [2]string{"adapter command's", a})
		}
	}
	return in
}

// Validate runs at parse time, so its errors are usage errors (exit 2).
func (c *fuzzCmd) Validate() error {
	switch {
	case c.Adapter == emptyAdapter:
		return errEmptyAdapter
	case c.Adapter != "" && len(c.Command) > 0:
		return errors.New("give the adapter either with --adapter or after --, not both")
	case c.Adapter != "":
		argv, err := adapter.SplitCommand(string(c.Adapter))
		if err != nil {
			return fmt.Errorf("--adapter: %v", err)
		}
		if len(argv) == 0 {
			return errors.New("--adapter: empty command")
		}
		c.argv = argv
	case len(c.Command) > 0:
		c.argv = c.Command
	}
	if c.Exec && len(c.argv) == 0 {
		return errors.New("--exec needs an adapter (--adapter CMD or -- CMD…)")
	}
	// Issue 23: every number is range-checked here, so that no int64 a
	// user can type reaches the campaign as an overflow.
	for _, n := range []struct {
		flag string
		v    int
	}{{"--case", c.Case}, {"--cases", c.Cases}, {"--jobs", c.Jobs}} {
		if n.v < 0 {
			return fmt.Errorf("%s must not be negative, got %d", n.flag, n.v)
		}
	}
	cases := c.Cases
	if cases == 0 && c.Duration == 0 {
		cases = fuzz.DefaultCases
	}
	switch {
	case cases > math.MaxInt-c.Case:
		return fmt.Errorf("--case %d with %d cases: the last case index would be over %d", c.Case, cases, math.MaxInt-1)
	case c.Jobs > fuzz.MaxJobs:
		return fmt.Errorf("--jobs %d: at most %d", c.Jobs, fuzz.MaxJobs)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--duration", c.Duration}, {"--timeout", c.Timeout}, {"--shrink-time", c.Shrink}, {"--progress-every", c.ProgressEvery}} {
		if d.v < 0 {
			return fmt.Errorf("%s must not be negative, got %v", d.flag, d.v)
		}
	}
	if c.Shard != "" {
		sh, err := runner.ParseShard("--shard", c.Shard)
		if err != nil {
			return err
		}
		c.shard, c.nShards = sh.K, sh.N
	}
	outs, err := report.ParseOuts(c.Format, c.Out)
	if err != nil {
		return err
	}
	if err := report.InputOut(outs, c.inputs()...); err != nil {
		return err
	}
	c.outs = outs
	c.ops = nil
	known := generators.DrawnOps()
	for _, op := range strings.Split(c.Op, ",") {
		if op = strings.TrimSpace(op); op == "" {
			continue
		}
		if !fzContains(known, op) {
			return fmt.Errorf("--op %s: no generator for this op (one of %s)", op, strings.Join(known, ", "))
		}
		if !fzContains(c.ops, op) {
			c.ops = append(c.ops, op)
		}
	}
	return nil
}

func fzContains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// repro returns the command that re-runs case k of op alone.
func (c *fuzzCmd) repro(op string, seed uint64, k int) string {
	var b strings.Builder
	b.WriteString("conform fuzz")
	if c.Adapter != "" {
		b.WriteString(" --adapter " + fuzz.ShellQuote(string(c.Adapter)))
	}
	if c.Exec {
		b.WriteString(" --exec")
	}
	if c.Timeout != adapter.DefaultTimeout {
		b.WriteString(" --timeout " + c.Timeout.String())
	}
	fmt.Fprintf(&b, " --op %s --seed %d --case %d --cases 1", op, seed, k)
	if c.Adapter == "" && len(c.argv) > 0 {
		b.WriteString(" -- " + fuzz.ShellJoin(c.argv))
	}
	return b.String()
}

func (c *fuzzCmd) Run() error {
	// Issue 11: an unwritable report or save directory is found before
	// the campaign, not after it.
	outs := make([]*report.Out, len(c.outs))
	for i, o := range c.outs {
		out, err := report.OpenOut(o.Path)
		if err != nil {
			return runFail("fuzz", exitInfraFailed, "--out %s: %v (checked before any case runs)", bounded(o.Path), err)
		}
		defer out.Discard() // a report not written in full leaves the previous one (issue 21)
		outs[i] = out
	}
	if err := checkSaveDir(c.SaveDir); err != nil {
		return runFail("fuzz", exitInfraFailed, "--save-dir %s: %v (checked before any case runs)", c.SaveDir, err)
	}
	seed := c.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano()%999_999_999) + 1
		fmt.Fprintf(os.Stderr, "conform fuzz: seed %d\n", seed)
	}
	jobs := c.Jobs
	if jobs == 0 {
		jobs = runtime.NumCPU()
	}
	shrink := c.Shrink
	if shrink == 0 {
		shrink = -1 // disabled
	}
	newSession := func(context.Context) (adapter.Session, error) {
		return adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation()), nil
	}
	if len(c.argv) > 0 {
		// No circuit breaker: its instant faults would pass for
		// reproductions while shrinking.
		cfg := adapter.Config{Argv: c.argv, Exec: c.Exec, Timeout: c.Timeout, MaxFaults: -1}
		newSession = func(ctx context.Context) (adapter.Session, error) { return adapter.Start(ctx, cfg) }
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := newFzProgress(report.IsTerminal(os.Stderr), c.ProgressEvery)
	rep, err := fuzz.Run(ctx, fuzz.Options{
		Ops:        c.ops,
		Seed:       seed,
		First:      c.Case,
		Cases:      c.Cases,
		Duration:   c.Duration,
		Jobs:       jobs,
		Shard:      c.shard,
		Shards:     c.nShards,
		Timeout:    c.Timeout,
		NewSession: newSession,
		Adapter:    c.argv,
		ShrinkTime: shrink,
		SaveDir:    c.SaveDir,
		Repro:      c.repro,
		Progress:   progress.update,
	})
	progress.clear()
	var startErr *runner.StartError
	switch {
	case errors.As(err, &startErr):
		fmt.Fprintf(os.Stderr, "conform: fuzz: %v\n", err)
		return status{exitInfraFailed}
	case rep == nil:
		fmt.Fprintf(os.Stderr, "conform: fuzz: %v\n", err)
		return status{exitInfraFailed}
	}

	textOnStdout := false
	for i, o := range c.outs {
		var buf bytes.Buffer
		werr := report.Write(&buf, o.Format, &report.Model{Fuzz: rep})
		if werr == nil {
			werr = outs[i].Write(buf.Bytes())
		}
		if werr != nil {
			fmt.Fprintf(os.Stderr, "conform: fuzz: writing the %s report: %v\n", o.Format, werr)
			return status{exitInfraFailed}
		}
		textOnStdout = textOnStdout || (o.Format == "text" && !o.ToFile())
	}
	if !textOnStdout && !rep.Conformant() {
		fmt.Fprintf(os.Stderr, "conform: fuzz: %s in %d failing cases of %d (first: case %d, %s)\n",
			fuzz.Plural(len(rep.Findings), "finding", "findings"), rep.FailingCases(), rep.Cases, rep.FirstFailing.Case, report.Bounded(rep.FirstFailing.Key))
	}
	var saveErr *fuzz.SaveError
	var genErr *fuzz.GeneratorError
	switch {
	case errors.As(err, &saveErr), errors.As(err, &genErr):
		fmt.Fprintf(os.Stderr, "conform: fuzz: %v\n", err)
		return status{exitInfraFailed}
	case !rep.Conformant():
		return status{exitNonconform}
	case err != nil: // interrupted before any finding
		fmt.Fprintf(os.Stderr, "conform: fuzz: %v\n", err)
		return status{exitInfraFailed}
	}
	return nil
}

// fzProgress is the fuzz campaign's progress on report.Progress, the
// display conform run uses too: a bar when stderr is a terminal, else a
// line every interval (issue 23: a CI log is never silent).
type fzProgress struct{ p *report.Progress }

func newFzProgress(tty bool, every time.Duration) fzProgress {
	if tty {
		return fzProgress{report.NewProgress(os.Stderr, "conform fuzz", "cases", 0)}
	}
	return fzProgress{report.NewLineProgress(os.Stderr, "conform fuzz", "cases", 0, every)}
}

func (f fzProgress) update(pr fuzz.Progress) {
	found := fuzz.Plural(pr.Findings, "finding", "findings")
	if pr.Phase == fuzz.PhaseCases { // not grouped by cause yet
		found = fuzz.Plural(pr.Findings, "kind of failure", "kinds of failure")
	}
	note := fmt.Sprintf("%d failing, %s, phase %s", pr.Failing, found, pr.Phase)
	if pr.Shrinking != "" {
		note += " " + pr.Shrinking
	}
	f.p.Note(note)
	if pr.Phase == fuzz.PhaseCases {
		f.p.Update(pr.Done, pr.Total)
	}
}

func (f fzProgress) clear() { f.p.Finish() }

// checkSaveDir creates the save directory and proves it writable with a
// probe file, removed at once.
func checkSaveDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return unwrapPath(err)
	}
	f, err := os.CreateTemp(dir, ".conform-probe-*")
	if err != nil {
		return unwrapPath(err)
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}
