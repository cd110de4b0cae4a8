package runner

import (
	"context"
	"errors"
	"fmt"
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
	// (0: none). Process sessions enforce their own timeout too.
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
// *StartError). When ctx is cancelled Run stops handing out cases and
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
	defer func() {
		for _, s := range sessions {
			_ = s.Close()
		}
	}()
	hello := sessions[0].Hello()

	results := make([]CaseResult, len(cases))
	finished := make([]bool, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for _, s := range sessions {
		wg.Add(1)
		go func(s adapter.Session) {
			defer wg.Done()
			for i := range next {
				r := RunCase(ctx, s, cases[i], opt.Timeout)
				mu.Lock()
				// A case cut short by the cancellation has no verdict.
				results[i], finished[i] = r, !(r.Verdict == verdict.Error && r.Message == msgCancelled)
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
	ApplyBaseline(opt.Baseline, cases, results)
	rep := &Report{
		Format:         ReportFormat,
		Version:        ReportVersion,
		Implementation: hello.Implementation,
		Protocol:       hello.Protocol,
		Adapter:        opt.Adapter,
		Started:        started.UTC(),
		DurationMS:     ms(time.Since(started)),
		Cases:          results,
	}
	rep.Totals = Totals(results)
	return rep, ctx.Err()
}

// startSessions starts n sessions, closing them all if one fails.
func startSessions(ctx context.Context, n int, start func(context.Context) (adapter.Session, error)) ([]adapter.Session, error) {
	sessions := make([]adapter.Session, 0, n)
	for range n {
		s, err := start(ctx)
		if err == nil && s == nil {
			err = errors.New("NewSession returned no session")
		}
		if err != nil {
			for _, s := range sessions {
				_ = s.Close()
			}
			return nil, &StartError{Err: err}
		}
		sessions = append(sessions, s)
	}
	return sessions, nil
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
	r := CaseResult{ID: c.ID, Op: c.Op, Requirements: c.Requirements}
	if r.Requirements == nil {
		r.Requirements = []string{}
	}
	if ctx.Err() != nil {
		r.Verdict, r.Message = verdict.Error, msgCancelled
		return r
	}
	if !s.Hello().Supports(c.Op) {
		r.Verdict = verdict.Unsupported
		r.Message = fmt.Sprintf("the adapter does not list op %s", c.Op)
		return r
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
		judge(&r, c, reply, err, errors.Is(caseCtx.Err(), context.DeadlineExceeded))
	}
	return r
}

// msgCancelled is the message of a case whose exchange the run's context
// cut short.
const msgCancelled = "the run was cancelled"

// judge sets the verdict of one exchange.
func judge(r *CaseResult, c Case, reply adapter.Reply, err error, timedOut bool) {
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
		return
	}
	var output *jsonjs.Value
	switch {
	case reply.Skip != nil:
		r.Verdict, r.Message = verdict.Skipped, *reply.Skip
		if r.Message == "" {
			r.Message = "skipped by the adapter (no reason given)"
		}
		return
	case reply.Error != nil:
		r.Message = *reply.Error
	case reply.Output != nil:
		v, perr := jsonjs.Parse(reply.Output)
		if perr != nil {
			r.Verdict, r.Message = verdict.Error, "the output is not JSON: "+perr.Error()
			return
		}
		output = &v
	default:
		r.Verdict, r.Message = verdict.Error, "the answer has neither output, error nor skip"
		return
	}
	r.Diffs = Compare(c, output, reply.Error)
	if output != nil {
		r.Diffs = append(r.Diffs, CheckProperties(c.Op, c.InputValue, *output)...)
	}
	if len(r.Diffs) == 0 {
		r.Verdict = verdict.Pass
		return
	}
	r.Verdict = verdict.Fail
	r.Broken = Blamed(r.Diffs)
}
