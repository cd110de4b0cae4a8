package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Options configure a run.
type Options struct {
	// Jobs is the number of workers, each with its own session; < 1 means 1.
	Jobs int
	// Timeout bounds each case: the case's context gets this deadline
	// (0: none). Process sessions enforce their own timeout; for them the
	// deadline is a backstop no earlier than adapter.RunBound.
	Timeout time.Duration
	// NewSession starts one session (a process adapter or an in-process
	// harness). It is called Jobs times before any case runs.
	NewSession func(ctx context.Context) (adapter.Session, error)
	// Progress, when set, is called after each case with the number of
	// cases done and the total, from one goroutine at a time.
	Progress func(done, total int)
	// Baseline, when set, is validated against AllCases before the run and
	// applied to the results (see ApplyBaseline).
	Baseline *baseline.Baseline
	// AllCases is the whole case catalogue, for validating the baseline
	// when cases is a selection; nil means cases.
	AllCases []Case
	// Adapter is the adapter's argv, copied into the report.
	Adapter []string
	// NoDiagnosis turns the deviation models off (issue 20): every failing
	// case keeps its part-by-part blame. For measuring what they cost.
	NoDiagnosis bool
	// ExplainTime is the run's budget for minimizing the failing cases no
	// model explains (explain.go), shared by them all; 0: none.
	ExplainTime time.Duration
	// Phase, when set, is told what the run does after its last case, so
	// that a progress display is not silent through it (issue 20): while
	// it minimizes, "explaining N cases", then "explaining N cases, K
	// minimized" as they end. Called from one goroutine at a time.
	Phase func(note string)
}

// StartError reports a session that could not be started: the adapter did
// not start or failed the handshake (the CLI's exit 3).
type StartError struct {
	Err error
}

func (e *StartError) Error() string { return "starting the adapter: " + e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Run runs cases through Jobs sessions and returns the report, results in
// case order. Cases are handed out in order to whichever worker is free;
// a session that times out or crashes restarts itself, so the run always
// finishes. Run returns an error, and no report, when the baseline names
// unknown cases or requirements, or when a session cannot be started (a
// *StartError). Sessions are started and closed in parallel; what closing
// them found (an adapter killed after bye, leftover processes) is in the
// report's Notes. When ctx is cancelled Run stops handing out cases and
// returns the report of the finished cases with ctx's error.
func Run(ctx context.Context, cases []Case, opt Options) (*Report, error) {
	if opt.NewSession == nil {
		return nil, errors.New("runner: Options.NewSession is nil")
	}
	all := opt.AllCases
	if all == nil {
		all = cases
	}
	if err := ValidateBaseline(opt.Baseline, all); err != nil {
		return nil, err
	}
	// One session per worker, never more than there are cases; with no
	// cases one session still answers the handshake for the report.
	jobs := max(1, min(opt.Jobs, len(cases)))
	started := time.Now()
	sessions, err := startSessions(ctx, jobs, opt.NewSession)
	if err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			closeSessions(sessions)
		}
	}()
	hello := sessions[0].Hello()

	results := make([]CaseResult, len(cases))
	finished, refused := make([]bool, len(cases)), make([]*adapter.Fault, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	intern := newInterner()
	for _, s := range sessions {
		wg.Add(1)
		go func(s adapter.Session) {
			defer wg.Done()
			for i := range next {
				r, notRun := runCase(ctx, s, cases[i], opt.Timeout, !opt.NoDiagnosis)
				mu.Lock()
				intern.result(&r)
				// A case cut short by the cancellation has no verdict.
				results[i], finished[i], refused[i] = r, !(r.Verdict == verdict.Error && r.Message == msgCancelled), notRun
				done++
				if opt.Progress != nil {
					opt.Progress(done, len(cases))
				}
				mu.Unlock()
			}
		}(s)
	}
dispatch:
	for i := range cases {
		select {
		case next <- i:
		case <-ctx.Done():
			break dispatch
		}
	}
	close(next)
	wg.Wait()

	if ctx.Err() != nil {
		kept := results[:0]
		keptCases := []Case{}
		for i, r := range results {
			if finished[i] {
				kept = append(kept, r)
				keptCases = append(keptCases, cases[i])
			}
		}
		results, cases = kept, keptCases
	}
	selected := len(finished) // every case selected: cases is now the finished ones
	ApplyBaseline(opt.Baseline, cases, results)
	// After the baseline: minimizing narrows blame, never a verdict.
	var explainNotes []Note
	if opt.ExplainTime > 0 && ctx.Err() == nil {
		explainNotes = minimizeAll(ctx, sessions, cases, results, opt.ExplainTime, opt.Timeout, hello.Implementation.Language, opt.Phase)
	}
	// The sessions are closed before the clock stops: a run's wall time
	// includes killing an adapter that ignores bye.
	closed = true
	notes := append(explainNotes, closeSessions(sessions)...)
	rep := &Report{
		Format:         ReportFormat,
		Version:        ReportVersion,
		Implementation: hello.Implementation,
		Protocol:       hello.Protocol,
		Adapter:        opt.Adapter,
		Started:        started.UTC(),
		DurationMS:     ms(time.Since(started)),
		Cases:          results,
		Notes:          notes,
	}
	rep.Totals = Totals(results)
	rep.Selected = selected
	rep.Complete, rep.Stopped = true, ""
	notRun, last := 0, ""
	for i, f := range refused {
		if f != nil && (ctx.Err() == nil || finished[i]) {
			if notRun == 0 {
				last = f.Last
			}
			notRun++
		}
	}
	switch {
	case ctx.Err() != nil:
		rep.Complete = false
		rep.Stopped = fmt.Sprintf("interrupted: %d of %d selected cases ran", len(results), selected)
	case notRun > 0:
		rep.Complete = false
		rep.Stopped = fmt.Sprintf("the adapter's circuit breaker stopped the run: %d of %d selected cases were not run; the fault that opened it: %s",
			notRun, selected, oneLine(last, 2000))
	}
	return rep, ctx.Err()
}

// startSessions starts n sessions at once, closing them all if one fails.
func startSessions(ctx context.Context, n int, start func(context.Context) (adapter.Session, error)) ([]adapter.Session, error) {
	sessions := make([]adapter.Session, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sessions[i], errs[i] = start(ctx)
			if errs[i] == nil && sessions[i] == nil {
				errs[i] = errors.New("NewSession returned no session")
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			closeSessions(sessions)
			return nil, &StartError{Err: err}
		}
	}
	return sessions, nil
}

// closeSessions closes every session at once (an adapter that ignores bye
// costs its grace period once, not once per job) and returns what Close
// reported, as notes in session order.
func closeSessions(sessions []adapter.Session) []Note {
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		if s != nil {
			wg.Go(func() { errs[i] = s.Close() })
		}
	}
	wg.Wait()
	var notes []Note
	for _, err := range errs {
		notes = appendNotes(notes, err)
	}
	return notes
}

// appendNotes appends a Close error as notes: one per fault it joins.
func appendNotes(notes []Note, err error) []Note {
	if err == nil {
		return notes
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			notes = appendNotes(notes, e)
		}
		return notes
	}
	var f *adapter.Fault
	if errors.As(err, &f) {
		return append(notes, Note{Kind: string(f.Kind), Message: f.Message, Stderr: f.Stderr})
	}
	return append(notes, Note{Kind: "error", Message: err.Error()})
}

// Totals counts results by verdict; every verdict has an entry.
func Totals(results []CaseResult) map[verdict.Verdict]int {
	t := make(map[verdict.Verdict]int, len(verdict.All))
	for _, v := range verdict.All {
		t[v] = 0
	}
	for _, r := range results {
		t[r.Verdict]++
	}
	return t
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// RunCase runs one case on a session and judges the answer. It never
// fails: faults become verdicts. The baseline is not applied.
func RunCase(ctx context.Context, s adapter.Session, c Case, timeout time.Duration) CaseResult {
	r, _ := runCase(ctx, s, c, timeout, true)
	return r
}

// runCase is RunCase, also returning the circuit breaker's fault when it
// refused the case (it never ran: the run is incomplete).
func runCase(ctx context.Context, s adapter.Session, c Case, timeout time.Duration, diag bool) (CaseResult, *adapter.Fault) {
	r := CaseResult{ID: c.ID, Op: c.Op, Requirements: c.Requirements}
	if r.Requirements == nil {
		r.Requirements = []string{}
	}
	if ctx.Err() != nil {
		r.Verdict, r.Message = verdict.Error, msgCancelled
		return r, nil
	}
	if !s.Hello().Supports(c.Op) {
		r.Verdict = verdict.Unsupported
		r.Message = fmt.Sprintf("the adapter does not list op %s", c.Op)
		return r, nil
	}
	// One deadline rule for every caller: a session that bounds its own
	// runs reports its faults itself, so the context's deadline is only a
	// backstop behind that bound.
	if bound, ok := adapter.RunBound(s); ok {
		timeout = max(timeout, bound)
	}
	caseCtx := ctx
	if timeout > 0 {
		var cancel context.CancelFunc
		caseCtx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	start := time.Now()
	reply, err := s.Run(caseCtx, c.ID, c.Op, c.Input)
	r.DurationMS = ms(time.Since(start))
	switch {
	case err != nil && ctx.Err() != nil:
		r.Verdict, r.Message = verdict.Error, msgCancelled
	default:
		judge(&r, c, reply, err, errors.Is(caseCtx.Err(), context.DeadlineExceeded), s.Hello().Implementation.Language, diag)
	}
	if f := (*adapter.Fault)(nil); errors.As(err, &f) && f.NotRun {
		return r, f
	}
	return r, nil
}

// maxMessage bounds an adapter's message in a case result (issue 21:
// sizes bounded): a longer one is cut, its length stated.
const maxMessage = 8 << 10

func boundMessage(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	n := maxMessage
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return fmt.Sprintf("%s… (cut: %d bytes in all)", s[:n], len(s))
}

// maxUnexpected is how many unexpected output fields are diffs of their
// own; the rest are one diff naming them (issue 21: a million members are
// no million diffs).
const maxUnexpected = 10

// collapseUnexpected folds the unexpected output fields past
// maxUnexpected into one diff that names up to maxUnexpectedNames of them,
// each cut, and blames what they blamed.
func collapseUnexpected(diffs []Diff) []Diff {
	const maxUnexpectedNames, maxName = 20, 64
	var out, rest []Diff
	for _, d := range diffs {
		if d.Want == "(missing)" && d.Path == memberPath("$", d.Field) && strings.HasPrefix(d.Message, "unexpected output field ") {
			rest = append(rest, d)
			continue
		}
		out = append(out, d)
	}
	if len(rest) <= maxUnexpected {
		return diffs
	}
	kept := append(out, rest[:maxUnexpected]...) // Compare lists them last: the order stays
	more := rest[maxUnexpected:]
	seen := map[string]bool{}
	var reqs, names []string
	for i, d := range more {
		for _, q := range d.Requirements {
			if !seen[q] {
				seen[q] = true
				reqs = append(reqs, q)
			}
		}
		if i < maxUnexpectedNames {
			names = append(names, string(jsonjs.AppendString(nil, oneLine(d.Field, maxName))))
		}
	}
	if len(more) > maxUnexpectedNames {
		names = append(names, fmt.Sprintf("… %d more", len(more)-maxUnexpectedNames))
	}
	return append(kept, Diff{Field: "(answer)", Comparator: CmpJSON, Path: "$", Requirements: reqs, Want: "(missing)",
		Message: fmt.Sprintf("%d more unexpected output fields: %s", len(more), strings.Join(names, ", "))})
}

// msgCancelled is the message of a case whose exchange the run's context
// cut short.
const msgCancelled = "the run was cancelled"

// judge sets the verdict of one exchange; language is the harness's, from
// its handshake, which decides the requirements that bind it; diagnosis
// says whether the deviation models run.
func judge(r *CaseResult, c Case, reply adapter.Reply, err error, timedOut bool, language string, diagnosis bool) {
	if err != nil {
		var f *adapter.Fault
		switch {
		case errors.As(err, &f):
			r.Message, r.Stderr = f.Message, f.Stderr
			if r.Message == "" {
				r.Message = "adapter " + string(f.Kind)
			}
			switch f.Kind {
			case adapter.FaultTimeout:
				r.Verdict = verdict.Timeout
			case adapter.FaultCrash:
				r.Verdict = verdict.Crash
			default: // protocol garbage; a failed restart (its message says so)
				r.Verdict = verdict.Error
			}
		case timedOut:
			r.Verdict, r.Message = verdict.Timeout, "no answer within the case timeout"
		default:
			r.Verdict, r.Message = verdict.Error, err.Error()
		}
		if r.Message == "" {
			r.Message = "the exchange failed"
		}
		r.Message = boundMessage(r.Message)
		return
	}
	if bad := reply.BadBytes; bad != nil { // never repaired to U+FFFD: the case fails
		r.Verdict, r.Message, r.Broken = verdict.Fail, bad.Error(), binding(c.Requirements, language)
		r.Diffs = []Diff{{Field: bad.Field, Comparator: CmpExact, Path: bad.Path, Message: bad.Error()}}
		return
	}
	var output *jsonjs.Value
	switch {
	case reply.Skip != nil:
		r.Verdict, r.Message = verdict.Skipped, *reply.Skip
		if r.Message == "" {
			r.Message = "skipped by the adapter (no reason given)"
		}
		r.Message = boundMessage(r.Message)
		return
	case reply.Error != nil:
		r.Message = *reply.Error
	case reply.Output != nil:
		v, perr := reply.OutputValue()
		if perr != nil {
			r.Verdict, r.Message = verdict.Error, "the output is not JSON: "+perr.Error()
			return
		}
		output = &v
	default:
		r.Verdict, r.Message = verdict.Error, "the answer has neither output, error nor skip"
		return
	}
	r.Diffs = collapseUnexpected(Compare(c, output, reply.Error)) // reply.Error whole; the report keeps it bounded
	r.Message = boundMessage(r.Message)
	if len(r.Diffs) > 0 && diagnosis {
		r.Diagnosis = diagnose(c, output, reply.Error, r.Diffs, language)
	}
	if output != nil && c.Want.Error == nil { // where the op must throw, no output has properties to keep
		r.Diffs = append(r.Diffs, CheckProperties(c.Op, c.InputValue, *output)...)
	}
	explain(r.Diffs, r.Diagnosis)
	if len(r.Diffs) == 0 {
		r.Verdict = verdict.Pass
		return
	}
	r.Verdict = verdict.Fail
	inScope(c, r.Diffs, language)
	r.Broken = Blamed(r.Diffs)
	r.Affected = affected(r.Diffs, r.Broken, language)
}
