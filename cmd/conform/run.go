package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	conformroot "github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/coverage"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/spec"
)

// runCmd is `conform run [flags] [-- ADAPTER ARGS...]`: run the conformance
// cases through an adapter (or the embedded reference) and report.
//
// Exit status: 0 conformant; 1 nonconformant (a case fails, errs, times
// out or crashes, or a baseline entry is stale); 2 usage error (flags,
// selection, baseline, earlier report); 3 infrastructure failure (the
// adapter does not start or fails the handshake, the fixtures cannot be
// read, the report cannot be written, the run was interrupted). Whenever
// the run finishes, the report is written first, whatever the status.
type runCmd struct {
	Flags runFlags `embed:""`

	Format      string        `enum:"text,json,junit,markdown" default:"text" help:"Report format: text, json (spec/schemas/report-run.json), junit or markdown."`
	Out         []string      `sep:"none" placeholder:"[FORMAT=]FILE" help:"Write the report to FILE instead of stdout (-). FORMAT=FILE (text, json, junit or markdown) writes that format to FILE, and may be repeated: one run, every artifact (--out json=r.json --out junit=r.xml --out markdown=$GITHUB_STEP_SUMMARY); the text report then goes to stdout unless an --out takes it."`
	MaxFailures int           `name:"max-failures" aliases:"max-findings" default:"25" placeholder:"N" help:"Text report: list at most N failing cases with their diffs (0 = all); the rest are still counted (default ${default})."`
	Verbose     bool          `short:"v" help:"Text report: list every requirement and the expected failures (xfail) too."`
	ExplainTime time.Duration `name:"explain-time" default:"10s" placeholder:"DURATION" help:"Time the whole run may spend minimizing the inputs of failing cases no deviation model explains (docs/diagnosis.md); 0 turns it off (default ${default})."`
	// ProgressEvery is the interval of the progress line that minimizing
	// writes when stderr is no terminal (hidden: for tests, as fuzz's).
	ProgressEvery time.Duration `name:"progress-every" hidden:"" default:"10s"`
}

// runFlags are the flags that choose the adapter and the cases, shared by
// `conform run` and `conform baseline write`.
type runFlags struct {
	Command []string `arg:"" optional:"" name:"adapter-command" help:"The adapter to check, after --, e.g. conform run -- node my-adapter.mjs. Without one, conform checks its embedded reference."`

	Adapter     commandFlag   `placeholder:"'CMD ARGS'" help:"The adapter command as one string, split into words like a shell would (quotes, backslashes) but never run through a shell; an empty one is a usage error."`
	Exec        bool          `help:"Start one adapter process per case instead of one persistent process per job."`
	Fixtures    string        `placeholder:"DIR" help:"A directory holding fixtures/ and golden/ (default: the case set built into conform)."`
	Jobs        int           `short:"j" default:"0" placeholder:"N" help:"Cases run at once, each job with its own adapter process (default 0: one job per CPU)."`
	Timeout     time.Duration `default:"10s" placeholder:"DURATION" help:"Time limit of one case; an adapter over it is killed and restarted (default ${default})."`
	Run         string        `placeholder:"REGEX" help:"Run only the cases whose id matches REGEX (unanchored, like go test -run)."`
	Op          string        `placeholder:"OP[,OP...]" help:"Run only the cases of these ops."`
	Requirement string        `placeholder:"ID[,ID...]" help:"Run only the cases citing one of these requirements; a trailing * makes a prefix (SEARCH-CAP-*)."`
	RerunFailed string        `name:"rerun-failed" placeholder:"REPORT" help:"Run only the cases that failed in an earlier --format json report."`
	Baseline    string        `placeholder:"FILE" help:"YAML baseline of known failures ({id, reason, requirement?, issue?}): a listed failing case is xfail; a listed passing case is xpass and fails the run."`
	Shard       string        `placeholder:"K/N" help:"Run only the K-th of N slices of the selected cases (case k in ID order when k mod N = K); conform report --merge joins the N reports."`

	explainTime   time.Duration // run's --explain-time; baseline write has none
	progressEvery time.Duration // run's --progress-every
}

const (
	// defaultCaseTimeout is --timeout's default (keep in step with the tag).
	defaultCaseTimeout = 10 * time.Second
	// timeoutBackstop is how much longer than --timeout the runner waits
	// for a process session, which enforces --timeout on its own.
	timeoutBackstop = time.Second
)

// validate checks what needs no file; it runs at parse time, so its errors
// are usage errors.
func (f *runFlags) validate() error {
	switch {
	case f.Adapter != "" && len(f.Command) > 0:
		return fmt.Errorf("give the adapter either with --adapter or after --, not both")
	case f.Exec && f.Adapter == "" && len(f.Command) == 0:
		return fmt.Errorf("--exec needs an adapter command (--adapter or after --); the embedded reference runs in process")
	case f.Jobs < 0:
		return fmt.Errorf("--jobs must be at least 0 (0: one per CPU), got %d", f.Jobs)
	case f.Timeout <= 0:
		return fmt.Errorf("--timeout must be positive, got %v", f.Timeout)
	}
	if f.Adapter != "" && f.Adapter != emptyAdapter {
		if _, err := adapter.SplitCommand(string(f.Adapter)); err != nil {
			return fmt.Errorf("--adapter: %v", err)
		}
	}
	if f.Run != "" {
		if _, err := regexp.Compile(f.Run); err != nil {
			return fmt.Errorf("--run: %v", err)
		}
	}
	return nil
}

// Validate runs at parse time, so its errors are usage errors (exit 2).
func (c *runCmd) Validate() error {
	if c.MaxFailures < 0 {
		return fmt.Errorf("--max-failures must be at least 0, got %d", c.MaxFailures)
	}
	if c.ExplainTime < 0 {
		return fmt.Errorf("--explain-time must be at least 0 (0: off), got %v", c.ExplainTime)
	}
	if _, err := parseOuts(c.Format, c.Out); err != nil {
		return err
	}
	return c.Flags.validate()
}

// argv is the adapter command, nil for the embedded reference.
func (f *runFlags) argv() ([]string, error) {
	if f.Adapter != "" {
		return adapter.SplitCommand(string(f.Adapter))
	}
	if len(f.Command) > 0 {
		return f.Command, nil
	}
	return nil, nil
}

// caseSource names where the cases come from, for messages.
func (f *runFlags) caseSource() string {
	if f.Fixtures != "" {
		return f.Fixtures
	}
	return "the embedded case set"
}

// runFail prints a message prefixed with the command's name and returns
// the exit status as an error.
func runFail(cmd string, code int, format string, args ...any) error {
	lastFailure = fmt.Sprintf(format, args...)
	fmt.Fprintf(os.Stderr, "conform: "+cmd+": %s\n", lastFailure)
	return status{code}
}

// lastFailure is the message of the last runFail, for the report of a run
// that could not start.
var lastFailure string

// runIndent indents a multi-line message under its first line.
func runIndent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// runPlan is a run ready to start: the adapter, the cases and the baseline.
type runPlan struct {
	argv     []string
	all      []runner.Case
	selected []runner.Case
	base     *baseline.Baseline
	caseSet  string
}

// plan loads the cases, the selection and the baseline. Errors are
// printed and returned as a status: usage errors 2, unreadable fixtures 3.
func (f *runFlags) plan(cmd string) (*runPlan, error) {
	p := &runPlan{}
	var err error
	if f.Adapter == emptyAdapter {
		return nil, runFail(cmd, exitUsage, "%v", errEmptyAdapter)
	}
	if p.argv, err = f.argv(); err != nil {
		return nil, runFail(cmd, exitUsage, "--adapter: %v", err)
	}

	var fsys fs.FS = conformroot.Files
	if f.Fixtures != "" {
		st, err := os.Stat(f.Fixtures)
		switch {
		case err != nil:
			return nil, runFail(cmd, exitUsage, "--fixtures %s: %v", f.Fixtures, unwrapPath(err))
		case !st.IsDir():
			return nil, runFail(cmd, exitUsage, "--fixtures %s: not a directory (give the directory holding fixtures/ and golden/)", f.Fixtures)
		}
		fsys = os.DirFS(f.Fixtures)
	}
	if p.all, err = runner.LoadCases(fsys); err != nil {
		return nil, runFail(cmd, exitInfraFailed, "reading the cases from %s: %v", f.caseSource(), err)
	}
	if err := runner.CheckOps(p.all); err != nil {
		return nil, runFail(cmd, exitInfraFailed, "BUG IN TEST CASE: %s: %v", f.caseSource(), err)
	}
	if p.caseSet, err = runner.CaseSetHash(fsys); err != nil {
		return nil, runFail(cmd, exitInfraFailed, "hashing the case set %s: %v", f.caseSource(), err)
	}

	sel := runner.Selection{Op: f.Op, Requirement: f.Requirement}
	if f.Run != "" {
		sel.Run = regexp.MustCompile(f.Run) // validated at parse time
	}
	if err := checkOps(f.Op, p.all); err != nil {
		return nil, runFail(cmd, exitUsage, "--op: %v", err)
	}
	if err := checkRequirements(f.Requirement); err != nil {
		return nil, runFail(cmd, exitUsage, "--requirement: %v", err)
	}
	if f.RerunFailed != "" {
		data, err := readReportFile(f.RerunFailed, runner.MaxReportBytes, "")
		if err != nil {
			return nil, runFail(cmd, exitUsage, "--rerun-failed %v", err)
		}
		ids, err := runner.FailedIDs(data)
		if err != nil {
			return nil, runFail(cmd, exitUsage, "--rerun-failed %s: %v", f.RerunFailed, err)
		}
		known := make(map[string]bool, len(p.all))
		for _, c := range p.all {
			known[c.ID] = true
		}
		var gone []string
		for id := range ids {
			if !known[id] {
				gone = append(gone, id)
			}
		}
		if len(gone) > 0 {
			sort.Strings(gone)
			fmt.Fprintf(os.Stderr, "conform: %s: --rerun-failed: %d failed cases of %s are not in %s: %s\n", cmd, len(gone), f.RerunFailed, f.caseSource(), bounded(strings.Join(gone, ", ")))
		}
		if len(ids) == 0 {
			return nil, runFail(cmd, exitUsage, "--rerun-failed: no case failed in %s; nothing to rerun", f.RerunFailed)
		}
		sel.IDs = ids
	}
	if f.Shard != "" {
		if sel.Shard, err = runner.ParseShard("--shard", f.Shard); err != nil {
			return nil, runFail(cmd, exitUsage, "%v", err)
		}
	}
	p.selected = runner.Select(p.all, sel)
	if len(p.selected) == 0 {
		// Issue 12: a run of nothing is no green run.
		return nil, runFail(cmd, exitUsage, "no case of %s matches the selection (--run, --op, --requirement, --rerun-failed)", f.caseSource())
	}

	if f.Baseline != "" {
		if p.base, err = baseline.Load(f.Baseline); err == nil {
			err = runner.ValidateBaseline(p.base, p.all)
		}
		if err != nil {
			return nil, runFail(cmd, exitUsage, "baseline:\n%s", runIndent(err.Error()))
		}
	}
	return p, nil
}

// checkOps reports the ops of a comma-separated list no case has.
func checkOps(list string, cases []runner.Case) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	known := map[string]bool{}
	for _, c := range cases {
		known[c.Op] = true
	}
	var bad []string
	for _, op := range strings.Split(list, ",") {
		if op = strings.TrimSpace(op); op != "" && !known[op] {
			bad = append(bad, op)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	ops := make([]string, 0, len(known))
	for op := range known {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return fmt.Errorf("no case has op %s (the ops: %s)", strings.Join(bad, ", "), strings.Join(ops, ", "))
}

// checkRequirements reports requirement IDs (or ID* prefixes) that name
// nothing in the catalogue.
func checkRequirements(list string) error {
	var bad []string
	for _, id := range strings.Split(list, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if prefix, ok := strings.CutSuffix(id, "*"); ok {
			found := false
			for _, known := range spec.IDs() {
				if strings.HasPrefix(known, prefix) {
					found = true
					break
				}
			}
			if !found {
				bad = append(bad, id)
			}
			continue
		}
		if _, ok := spec.Lookup(id); !ok {
			bad = append(bad, id)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("unknown requirement %s (`conform requirements` lists them)", strings.Join(bad, ", "))
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// execute runs a plan and returns its report. A report is returned
// whenever the run got going, also with an interrupted run's status
// error; without one the error is a status, already printed.
func (f *runFlags) execute(cmd string, p *runPlan) (*runner.Report, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	jobs := f.Jobs
	if jobs == 0 {
		jobs = runtime.NumCPU()
	}
	opt := runner.Options{
		Jobs:        jobs,
		Timeout:     f.Timeout,
		Baseline:    p.base,
		AllCases:    p.all,
		Adapter:     p.argv,
		ExplainTime: f.explainTime,
	}
	if p.argv == nil {
		opt.NewSession = func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation()), nil
		}
	} else {
		cfg := adapter.Config{Argv: p.argv, Exec: f.Exec, Timeout: f.Timeout}
		opt.NewSession = func(ctx context.Context) (adapter.Session, error) { return adapter.Start(ctx, cfg) }
		// The session enforces --timeout itself: it kills the adapter and
		// reports the timeout with the adapter's stderr. The runner's
		// deadline is only a backstop, late enough never to win that race.
		opt.Timeout = f.Timeout + timeoutBackstop
	}
	var bar *report.Progress
	if report.IsTerminal(os.Stderr) && len(p.selected) > 0 {
		bar = report.NewProgress(os.Stderr, "conform run", "cases", len(p.selected))
		opt.Progress, opt.Phase = bar.Update, bar.Note
	} else if len(p.selected) > 0 {
		// Elsewhere the cases pass silently, but minimizing can take
		// --explain-time after the last: a line every interval says so.
		opt.Phase = func(note string) {
			if bar == nil {
				bar = report.NewLineProgress(os.Stderr, "conform run", "cases", len(p.selected), f.progressEvery)
				bar.Update(len(p.selected), len(p.selected))
			}
			bar.Note(note)
		}
	}
	rep, err := runner.Run(ctx, p.selected, opt)
	if bar != nil { // Run has returned: Phase is called no more
		bar.Finish()
	}
	if err == nil {
		return rep, nil
	}
	var se *runner.StartError
	switch {
	case errors.As(err, &se):
		start := &runner.Fault{Kind: "start", Message: se.Error()}
		// The terminal gets the adapter's words escaped (issue 21).
		msg := report.Text(se.Error())
		var fault *adapter.Fault
		if errors.As(err, &fault) && strings.TrimSpace(fault.Stderr) != "" {
			start.Stderr = fault.Stderr
			var lines []string
			for _, l := range strings.Split(lastLines(fault.Stderr, 20), "\n") {
				lines = append(lines, "| "+report.Text(l))
			}
			msg += "\nadapter stderr (last lines):\n" + runIndent(strings.Join(lines, "\n"))
		}
		if p.argv != nil {
			msg += "\n(the adapter command: " + report.Text(report.QuoteArgv(p.argv)) + ")"
		}
		// Issue 11: a start fault is a report too, so that CI uploads
		// one that says why.
		rep := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Adapter: p.argv,
			Started: time.Now().UTC(), Fault: start, Cases: []runner.CaseResult{}}
		rep.Totals = runner.Totals(nil)
		return rep, runFail(cmd, exitInfraFailed, "%s", msg)
	case rep != nil && ctx.Err() != nil:
		fmt.Fprintf(os.Stderr, "conform: %s: interrupted after %d of %d cases\n", cmd, len(rep.Cases), len(p.selected))
		return rep, status{exitInfraFailed}
	}
	return nil, runFail(cmd, exitInfraFailed, "%v", err)
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// outIsInput refuses an --out that names one of the run's inputs (flag
// name → path): the report would destroy what it is made from (issue 21).
func outIsInput(cmd, out string, inputs ...[2]string) error {
	if err := report.InputOut([]report.OutSpec{{Path: out}}, inputs...); err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	return nil
}

// bounded is an outside string quoted for an error message, cut to a
// few hundred bytes with its length stated.
func bounded(s string) string { return report.Bounded(s) }

// runOut is one report of a run: its format and path (report.ParseOuts)
// and, once opened, its output.
type runOut struct {
	report.OutSpec
	out *report.Out
}

// parseOuts reads the --out flags (report.ParseOuts).
func parseOuts(format string, flags []string) ([]runOut, error) {
	specs, err := report.ParseOuts(format, flags)
	outs := make([]runOut, len(specs))
	for i, o := range specs {
		outs[i].OutSpec = o
	}
	return outs, err
}

// runMemoryLimit is the soft memory limit of a run (GOMEMLIMIT unset). A
// run holds a parsed answer per job, and the default GC lets the heap grow
// to twice what was live at its last cycle: with answers nested 10^6 levels
// deep (a 24 MB tape and the text's bytes, issue 23) at -j2, at most 100 MB
// is live, which the limit keeps from doubling; what is live above it
// stays (the limit is soft), at the price of more GC cycles.
const runMemoryLimit = 256 << 20

func (c *runCmd) Run() error {
	const cmd = "run"
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(runMemoryLimit)
	}
	outs, err := parseOuts(c.Format, c.Out) // checked at parse time
	if err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	for _, o := range outs {
		if err := outIsInput(cmd, o.Path, [2]string{"--rerun-failed", c.Flags.RerunFailed}, [2]string{"--baseline", c.Flags.Baseline}); err != nil {
			return err
		}
	}
	for i := range outs {
		o := &outs[i]
		if o.out, err = report.OpenOut(o.Path); err != nil {
			return runFail(cmd, exitInfraFailed, "--out %s: %v (checked before any case runs)", bounded(o.Path), err)
		}
		defer o.out.Discard() // a report not written in full leaves the previous one (issue 21)
	}
	p, err := c.Flags.plan(cmd)
	if err != nil {
		// Issue 11: whatever happens, the report is written; a plan that
		// fails (a usage error, a bug in the case set) is its fault.
		kind := "usage"
		if strings.HasPrefix(lastFailure, "BUG IN TEST CASE") {
			kind = "cases"
		}
		rep := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Started: time.Now().UTC(),
			Fault: &runner.Fault{Kind: kind, Message: lastFailure}, Cases: []runner.CaseResult{}, Totals: runner.Totals(nil)}
		for _, o := range outs {
			if o.ToFile() || o.Format != "text" { // a text fault on stdout would repeat stderr's message
				_ = c.write(rep, o, 0)
			}
		}
		return err
	}
	c.Flags.explainTime, c.Flags.progressEvery = c.ExplainTime, c.ProgressEvery
	rep, runErr := c.Flags.execute(cmd, p)
	if rep == nil {
		return runErr
	}
	c.Flags.finish(rep, p)

	total := 0
	if len(p.selected) < len(p.all) {
		total = len(p.all)
	}
	textOnStdout := false
	var files []string
	for _, o := range outs {
		if err := c.write(rep, o, total); err != nil {
			return err
		}
		textOnStdout = textOnStdout || (o.Format == "text" && !o.ToFile())
		if o.ToFile() {
			files = append(files, o.Path)
		}
	}
	if runErr != nil {
		return runErr // interrupted: the partial reports are written
	}
	// When no report for people went to stdout, say the result on stderr.
	if !textOnStdout {
		where := ""
		if len(files) > 0 {
			where = " (report: " + strings.Join(files, ", ") + ")"
		}
		fmt.Fprintf(os.Stderr, "conform: run: %s%s\n", report.SummaryLine(rep.Totals), where)
	}
	if !rep.Conformant() {
		return status{exitNonconform}
	}
	return nil
}

// write renders the report in one format to its out.
func (c *runCmd) write(rep *runner.Report, o runOut, total int) error {
	const cmd = "run"
	// Streamed: a report is never held whole (issue 21: a 20 MB answer
	// costs no copies); one not written in full leaves the previous file.
	bw := bufio.NewWriterSize(o.out.Writer(), 64<<10)
	err := report.WriteRun(bw, o.Format, rep, report.RunText{MaxFailures: c.MaxFailures, Verbose: c.Verbose, TotalCases: total})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = o.out.Close()
	}
	if err != nil {
		return runFail(cmd, exitInfraFailed, "writing the %s report: %v", o.Format, err)
	}
	return nil
}

// finish completes a report for its readers (runner.Report.Finish): the
// versions, the accounting of every requirement, the reasons it fails and
// each failing case's input and reproduction.
func (f *runFlags) finish(rep *runner.Report, p *runPlan) {
	if f.Shard != "" {
		if s, err := runner.ParseShard("--shard", f.Shard); err == nil && s.N > 1 {
			rep.Shard = &s // plan parsed it already
		}
	}
	proof, err := coverage.LogProof()
	if err != nil {
		proof = nil // the accounting then says uncovered, not check-log
	}
	var flags []string
	if f.Exec {
		flags = append(flags, "--exec")
	}
	if f.Timeout != defaultCaseTimeout {
		flags = append(flags, "--timeout", f.Timeout.String())
	}
	rep.Finish(runner.Finishing{
		Conform: conformVersion(), CaseSet: p.caseSet, Fixtures: f.Fixtures,
		Cases: p.selected, All: p.all, LogChecks: proof, ReproFlags: flags,
	})
}

// commandFlag is --adapter: an adapter command given as one string. Given
// empty (an unset $CONFORM_ADAPTER in CI), it is a usage error, never the
// embedded reference (issue 12).
type commandFlag string

// Decode implements kong.MapperValue.
func (c *commandFlag) Decode(ctx *kong.DecodeContext) error {
	var s string
	if err := ctx.Scan.PopValueInto("adapter", &s); err != nil {
		return err
	}
	if strings.TrimSpace(s) == "" {
		s = emptyAdapter // refused by plan, which still writes the report
	}
	*c = commandFlag(s)
	return nil
}

// emptyAdapter marks an --adapter given empty.
const emptyAdapter = "\x00(empty)"

// errEmptyAdapter is the usage error of an empty --adapter.
var errEmptyAdapter = errors.New("--adapter is empty: give the adapter command (is the variable it comes from unset?); without --adapter conform checks its embedded reference")
