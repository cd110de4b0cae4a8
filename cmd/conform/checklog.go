package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/spec"
)

// checkLogCmd is `conform check-log [flags] PATH...`: validate upstream
// session logs offline (internal/logcheck) and report the findings.
//
// Exit status: 0 clean; 1 a non-baselined finding at or above --fail-on, or
// a stale baseline entry; 2 usage error (flags, paths, baseline file); 3 a
// log or the output could not be read or written (a FIFO, an unreadable
// file or directory: the rest is still checked); 130 (SIGINT) or 143
// (SIGTERM): interrupted, the report written is partial and says so.
type checkLogCmd struct {
	Paths []string `arg:"" name:"path" help:"Session logs: files, directories (walked for *.jsonl, in sorted order), or - for stdin."`

	ToolName           map[string]string `name:"tool-name" mapsep:"none" placeholder:"CANONICAL=LOGGED" help:"Map a canonical tool (grep, glob, run_code) to the name the harness logs it under, e.g. --tool-name grep=rg_search. Repeatable."`
	SearchMetaMaxBytes int               `name:"search-meta-max-bytes" default:"65536" placeholder:"N" help:"The deployment's searchMetaMaxBytes (LOG-CHECK-SEARCH-3; default ${default})."`
	MaxInlineBytes     int               `name:"max-inline-bytes" default:"0" placeholder:"N" help:"The spill policy's maxInlineBytes; 0 = unknown (LOG-CHECK-SEARCH-6 and LOG-CHECK-CODE-8 become unprovable)."`
	GrepMaxMatches     int               `name:"grep-max-matches" default:"0" placeholder:"N" help:"grep's inline match cap; 0 = unknown."`
	GlobMaxResults     int               `name:"glob-max-results" default:"0" placeholder:"N" help:"glob's inline result cap; 0 = unknown."`
	MaxLineBytes       int               `name:"max-line-bytes" default:"67108864" placeholder:"N" help:"Longest line kept in memory (default ${default} = 64 MiB, at most 1073741823 = 1 GiB - 1); longer lines are skipped and reported."`

	Format      string   `enum:"text,json,junit,markdown" default:"text" help:"Report format: text, json (spec/schemas/report-check-log.json), junit or markdown."`
	Out         []string `sep:"none" placeholder:"[FORMAT=]FILE" help:"Write the report to FILE instead of stdout (-). FORMAT=FILE (text, json, junit or markdown) writes that format to FILE, and may be repeated: one check, every artifact; the text report then goes to stdout unless an --out takes it. An --out naming a log or the baseline is a usage error."`
	FailOn      string   `name:"fail-on" enum:"violation,warning" default:"violation" help:"Lowest level that fails the run (violation or warning)."`
	MaxFindings int      `name:"max-findings" default:"1000" placeholder:"N" help:"List at most N findings (default ${default}; 0 = all); the rest are still counted, fail the run, and the report says how many were not listed."`
	Baseline    string   `placeholder:"FILE" help:"YAML baseline of accepted findings ({requirement, file?, reason, issue?}); entries matching no finding fail the run."`

	Follow     bool          `help:"Follow each FILE as a harness writes it (as tail -f): report each finding as its line arrives, until the session is over (a turn has ended, none is open, and the log has been quiet for --follow-idle) or SIGINT/SIGTERM, then write the report."`
	FollowIdle time.Duration `name:"follow-idle" default:"2s" placeholder:"DURATION" help:"With --follow: how long a log must stay quiet after its turn ends before its session is taken as over (default ${default}; 0 = at once)."`

	outs []report.OutSpec
}

// Validate runs at parse time, so its errors are usage errors (exit 2).
func (c *checkLogCmd) Validate() error {
	for _, n := range []struct {
		flag   string
		v, min int
	}{
		{"--search-meta-max-bytes", c.SearchMetaMaxBytes, 1}, {"--max-inline-bytes", c.MaxInlineBytes, 0},
		{"--grep-max-matches", c.GrepMaxMatches, 0}, {"--glob-max-results", c.GlobMaxResults, 0},
		{"--max-line-bytes", c.MaxLineBytes, 1}, {"--max-findings", c.MaxFindings, 0},
	} {
		if n.v < n.min {
			return fmt.Errorf("%s must be at least %d, got %d", n.flag, n.min, n.v)
		}
	}
	if c.MaxLineBytes > logcheck.LineLimit {
		return fmt.Errorf("--max-line-bytes must be at most %d (1 GiB - 1), got %d", logcheck.LineLimit, c.MaxLineBytes)
	}
	canonical, logged := []string{"glob", "grep", "run_code"}, map[string]string{}
	for canon, name := range c.ToolName {
		switch other, dup := logged[name]; {
		case !slices.Contains(canonical, canon):
			return fmt.Errorf("--tool-name %s=%s: unknown tool %q (one of %s)", canon, name, canon, strings.Join(canonical, ", "))
		case name == "":
			return fmt.Errorf("--tool-name %s=: empty logged name", canon)
		case dup:
			return fmt.Errorf("--tool-name: %s and %s both map to %q", other, canon, name)
		}
		logged[name] = canon
	}
	if c.FollowIdle < 0 {
		return fmt.Errorf("--follow-idle must not be negative, got %v", c.FollowIdle)
	}
	stdin := 0
	for _, p := range c.Paths {
		if c.Follow && p == "-" {
			return errors.New("--follow reads files, not stdin (-)")
		}
		if st, err := os.Stat(p); c.Follow && err == nil && st.IsDir() {
			return fmt.Errorf("--follow reads files, not directories: %s", p)
		}
		if p == "-" {
			if stdin++; stdin > 1 {
				return errors.New("- (stdin) given more than once")
			}
		} else if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("path %s: no such file or directory", p)
		} else if err != nil {
			return fmt.Errorf("path %s: %v", p, err)
		}
	}
	if c.Baseline != "" {
		if _, err := os.Stat(c.Baseline); err != nil {
			return fmt.Errorf("--baseline %s: %v", c.Baseline, unwrapPath(err))
		}
	}
	outs, err := report.ParseOuts(c.Format, c.Out)
	if err != nil {
		return err
	}
	inputs := [][2]string{{"--baseline", c.Baseline}}
	for _, p := range c.Paths {
		inputs = append(inputs, [2]string{"log", p})
	}
	if err := report.InputOut(outs, inputs...); err != nil {
		return err
	}
	for _, o := range outs { // a report a directory's walk would read as a log
		if o.ToFile() && strings.HasSuffix(o.Path, ".jsonl") && underAny(o.Path, c.Paths) {
			return fmt.Errorf("--out %s is in a directory checked for logs: the report would be read as one; write it elsewhere", report.Bounded(o.Path))
		}
	}
	c.outs = outs
	return nil
}

// underAny reports whether path lies in one of the directories of dirs.
func underAny(path string, dirs []string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			continue
		}
		if dabs, err := filepath.Abs(d); err == nil && strings.HasPrefix(abs, strings.TrimSuffix(dabs, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (c *checkLogCmd) options() logcheck.Options {
	opt := logcheck.Defaults()
	if len(c.ToolName) > 0 {
		opt.ToolNames = maps.Clone(c.ToolName)
	}
	opt.SearchMetaMaxBytes, opt.MaxInlineBytes, opt.MaxLineBytes = c.SearchMetaMaxBytes, c.MaxInlineBytes, c.MaxLineBytes
	opt.GrepMaxMatches, opt.GlobMaxResults = c.GrepMaxMatches, c.GlobMaxResults
	return opt
}

func (c *checkLogCmd) Run() error {
	if os.Getenv("GOGC") == "" {
		// The checker streams: its live heap is a few MB and the line being
		// read, so the default GC would run every few MB of garbage.
		debug.SetGCPercent(400)
	}
	usage := func(format string, args ...any) error {
		fmt.Fprintf(os.Stderr, "conform: check-log: "+format+"\n", args...)
		return status{exitUsage}
	}
	infra := func(format string, args ...any) error {
		fmt.Fprintf(os.Stderr, "conform: check-log: "+format+"\n", args...)
		return status{exitInfraFailed}
	}
	var bl *baseline.Baseline
	if c.Baseline != "" {
		var err error
		if bl, err = baseline.Load(c.Baseline); err == nil {
			err = bl.Validate(baseline.Known{Requirement: func(id string) bool { _, ok := spec.Lookup(id); return ok }})
		}
		if err != nil {
			return usage("baseline:\n  %s", strings.ReplaceAll(err.Error(), "\n", "\n  "))
		}
	}
	// The outputs are opened before any log is read, so that an unwritable
	// --out fails at once; text and JSON stream into theirs.
	bws := make([]*bufio.Writer, len(c.outs))
	ws := make([]io.Writer, len(c.outs))
	outs := make([]*report.Out, len(c.outs))
	formats := make([]string, len(c.outs))
	for i, o := range c.outs {
		out, err := report.OpenOut(o.Path)
		if err != nil {
			return infra("--out %s: %v", report.Bounded(o.Path), err)
		}
		defer out.Discard() // a report not written in full leaves the previous one (issue 21)
		bws[i] = bufio.NewWriterSize(out.Writer(), 64<<10)
		outs[i], ws[i], formats[i] = out, bws[i], o.Format
	}

	opt := logcheck.RunOptions{Options: c.options(), FailOn: logcheck.Level(c.FailOn), MaxFindings: c.MaxFindings, Baseline: bl}
	// Text and JSON stream, Markdown needs counts and first examples: none
	// holds a record per log or a listing (issue 23). JUnit keeps them
	// all, and with it every format is written at the end.
	writers, streams, err := report.NewCheckLogWriters(ws, formats, opt.FailOn, c.MaxFindings)
	if err != nil {
		return infra("%v", err)
	}
	if streams {
		flush := func() {}
		if c.Follow { // each finding is shown as its line arrives
			flush = func() {
				for _, bw := range bws {
					bw.Flush()
				}
			}
		}
		opt.Listed = func(fd *logcheck.RunFinding) { writers.Finding(fd); flush() }
		opt.Done = func(f *logcheck.FileResult) { writers.File(f); flush() }
	}
	var bar *report.Progress
	if report.IsTerminal(os.Stderr) && !c.Follow {
		bar = report.NewProgress(os.Stderr, "conform check-log", "logs", 0)
		opt.Progress = func(n, total int, path string) {
			bar.Update(n-1, total)
			bar.Note(path)
		}
	}
	ctx, signalled, stop := signalContext()
	defer stop()
	var sum *logcheck.Summary
	if c.Follow {
		sum, err = logcheck.Follow(ctx, c.Paths, opt, logcheck.FollowOptions{Idle: c.FollowIdle})
	} else {
		sum, err = logcheck.Run(ctx, c.Paths, opt)
	}
	if bar != nil {
		bar.Finish()
	}
	if sum == nil {
		return usage("%v", err)
	}

	err = writers.Finish(sum)
	for i := range outs {
		if err == nil {
			err = bws[i].Flush()
		}
		if err == nil {
			err = outs[i].Close()
		}
	}
	if err != nil {
		return infra("writing the report: %v", err)
	}
	// Whatever the formats, say on stderr why the run failed when no
	// report for people went to stdout.
	textOnStdout := false
	for _, o := range c.outs {
		textOnStdout = textOnStdout || (o.Format == "text" && !o.ToFile())
	}
	if !textOnStdout {
		problems := report.CheckLogProblems(sum)
		for i, p := range problems {
			if i == maxProblems { // the report lists them all
				fmt.Fprintf(os.Stderr, "conform: check-log: … and %d more problems (the report lists them)\n", len(problems)-i)
				break
			}
			fmt.Fprintf(os.Stderr, "conform: check-log: %s\n", p)
		}
	}
	switch sum.Result() {
	case logcheck.ResultInterrupted:
		sig := signalled()
		fmt.Fprintf(os.Stderr, "conform: check-log: interrupted (%v): the report is partial\n", sig)
		return status{exitSignalled(sig)}
	case logcheck.ResultError:
		return status{exitInfraFailed}
	case logcheck.ResultFail:
		return status{exitNonconform}
	}
	return nil
}

// maxProblems is how many of a run's problems (unreadable logs, stale
// entries) go to stderr; a tree of broken logs must not flood it.
const maxProblems = 20

// signalContext is a context that SIGINT or SIGTERM ends, and the signal
// that ended it (nil if none). After the first signal the default action
// is back: a second one kills at once.
func signalContext() (ctx context.Context, signalled func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		select {
		case s := <-sigs:
			got.Store(s)
			signal.Stop(sigs)
			cancel()
		case <-ctx.Done():
		}
	}()
	signalled = func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	return ctx, signalled, func() { signal.Stop(sigs); cancel() }
}

// exitSignalled is check-log's status after a signal: 128 + its number,
// as a shell reports it (130 for SIGINT, 143 for SIGTERM).
func exitSignalled(sig os.Signal) int {
	if n, ok := sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}
