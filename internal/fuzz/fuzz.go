// Package fuzz is conform's differential fuzzer: it draws cases from the
// generators (generators.OpGenerator, plus metamorphic variants), sends
// each to a harness's adapter and judges the answer against the embedded
// reference's answer on the same input, computed on the fly, with exactly
// the comparators and property checks of `conform run` (runner.RunCase).
// Findings are grouped by op and first differing field, each shrunk
// through the adapter with rapid's shrinker to a minimal failing input, and
// optionally saved as regression fixtures. See docs/fuzzing.md.
package fuzz

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// Defaults for Options.
const (
	DefaultCases      = 1000
	DefaultShrinkTime = 30 * time.Second
	// DefaultMaxShrink is how many findings are shrunk (in first-case
	// order); the others are reported with their first failing input.
	DefaultMaxShrink = 20
)

// Options configure a campaign.
type Options struct {
	// Ops are the ops cases rotate over; nil means generators.DrawnOps().
	Ops []string
	// Seed is the campaign seed.
	Seed uint64
	// First is the first case index (--case).
	First int
	// Cases is how many case indexes the campaign spans from First (across
	// all shards); 0 means DefaultCases, or unbounded with a Duration.
	Cases int
	// Duration, when set, stops handing out cases once it has elapsed.
	Duration time.Duration
	// Jobs is the number of workers, each with its own session; < 1 is 1.
	Jobs int
	// Shard and Shards select the cases k with k mod Shards == Shard;
	// Shards < 2 runs every case.
	Shard, Shards int
	// Timeout bounds each case (0: none beyond the session's own).
	Timeout time.Duration
	// NewSession starts one session; it is called Jobs times.
	NewSession func(ctx context.Context) (adapter.Session, error)
	// Adapter is the adapter's argv, for the report (nil: in process).
	Adapter []string
	// ShrinkTime bounds the shrinking of each finding; < 0 disables
	// shrinking, 0 means DefaultShrinkTime.
	ShrinkTime time.Duration
	// MaxShrink is how many findings are shrunk; 0 means DefaultMaxShrink.
	MaxShrink int
	// SaveDir, when set, receives every finding's minimal input as a
	// fixture and its golden answer.
	SaveDir string
	// Repro returns the command line that reproduces case k of op with
	// this campaign's seed; nil gives the bare `conform fuzz …` flags.
	Repro func(op string, seed uint64, k int) string
	// Progress, when set, is called after each case and before each
	// shrink, from one goroutine at a time.
	Progress func(Progress)
	// OnCase, when set, is called with every case's outcome, from one
	// goroutine at a time, in completion order.
	OnCase func(CaseRecord)
}

// CaseRecord is one case's outcome, for Options.OnCase.
type CaseRecord struct {
	CaseRef
	Input  []byte            // the input text (nil for an unsupported op)
	Result runner.CaseResult // zero when Err is set
	Err    error             // the case could not be drawn (a conform bug)
}

// Progress is a campaign's state, for a progress line.
type Progress struct {
	Done, Total int // Total 0: unbounded (--duration)
	Failing     int // cases with a finding so far
	Elapsed     time.Duration
	Shrinking   string // the finding being shrunk, after the cases
}

// SaveError reports that a finding could not be saved (the CLI's exit 3);
// the report is complete otherwise.
type SaveError struct{ Err error }

func (e *SaveError) Error() string { return "saving findings: " + e.Err.Error() }
func (e *SaveError) Unwrap() error { return e.Err }

// GeneratorError reports that the generators drew an input the reference
// cannot decode or could not draw one: a bug in conform, never the
// harness's. The report is complete otherwise.
type GeneratorError struct {
	Count int
	First string
}

func (e *GeneratorError) Error() string {
	return fmt.Sprintf("%d cases could not be drawn or decoded (conform bug); first: %s", e.Count, e.First)
}

func (o Options) validate() error {
	if o.NewSession == nil {
		return errors.New("fuzz: Options.NewSession is nil")
	}
	known := generators.DrawnOps()
	for _, op := range o.Ops {
		if !contains(known, op) {
			return fmt.Errorf("fuzz: no generator for op %q (one of %v)", op, known)
		}
	}
	switch {
	case o.First < 0:
		return fmt.Errorf("fuzz: first case %d is negative", o.First)
	case o.Cases < 0:
		return fmt.Errorf("fuzz: case count %d is negative", o.Cases)
	case o.Shards > 1 && (o.Shard < 0 || o.Shard >= o.Shards):
		return fmt.Errorf("fuzz: shard %d/%d: want 0 <= shard < %d", o.Shard, o.Shards, o.Shards)
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// DefaultRepro is the Repro of Options without one: the fuzz flags that
// re-run case k alone.
func DefaultRepro(op string, seed uint64, k int) string {
	return fmt.Sprintf("conform fuzz --op %s --seed %d --case %d --cases 1", op, seed, k)
}

// campaign is one Run's state.
type campaign struct {
	opt       Options
	ops       []string
	gens      map[genKey]*rapid.Generator[any]
	reqs      map[string][]string
	supported map[string]bool

	mu       sync.Mutex
	done     int
	perOp    map[string]*OpStats
	totals   map[verdict.Verdict]int
	findings map[Key]*finding
	genErrs  int
	genErr   string
}

// finding is a finding's first case (the lowest case index) and its count.
type finding struct {
	key     Key
	count   int
	first   CaseRef
	input   Input
	result  runner.CaseResult
	variant string
}

// coreRequirements returns the requirements the generated fixtures of op
// cite (generators.Drawn), which a campaign's cases cite too.
func coreRequirements(op string) ([]string, error) {
	cs, err := generators.Drawn(op, 1)
	if err != nil {
		return nil, err
	}
	return cs[0].Requirements, nil
}

// caseRange returns the case indexes of the campaign in this shard: from
// start, every step-th, below end (end < 0: unbounded), and their number.
func (o Options) caseRange() (start, step, end, total int) {
	start, step, end = o.First, 1, -1
	cases := o.Cases
	if cases == 0 && o.Duration == 0 {
		cases = DefaultCases
	}
	if cases > 0 {
		end = o.First + cases
	}
	if o.Shards > 1 {
		step = o.Shards
		start += ((o.Shard-o.First%o.Shards)%o.Shards + o.Shards) % o.Shards
	}
	if end >= 0 && start < end {
		total = (end - start + step - 1) / step
	}
	return start, step, end, total
}

// Run runs a campaign and returns its report. It returns an error and no
// report when the options are invalid or a session cannot be started (a
// *runner.StartError). With a report it may return a *SaveError, a
// *GeneratorError, or ctx's error when cancelled (the report then covers
// the cases that finished).
func Run(ctx context.Context, opt Options) (*Report, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	c := &campaign{
		opt:      opt,
		ops:      opt.Ops,
		reqs:     map[string][]string{},
		perOp:    map[string]*OpStats{},
		totals:   runner.Totals(nil),
		findings: map[Key]*finding{},
	}
	if len(c.ops) == 0 {
		c.ops = generators.DrawnOps()
	}
	var err error
	if c.gens, err = buildGenerators(c.ops); err != nil {
		return nil, err
	}
	for _, op := range c.ops {
		if c.reqs[op], err = coreRequirements(op); err != nil {
			return nil, err
		}
		c.perOp[op] = &OpStats{Op: op, Totals: runner.Totals(nil), Variants: map[string]int{}}
	}
	start, step, end, total := opt.caseRange()
	jobs := max(1, opt.Jobs)
	if total > 0 {
		jobs = min(jobs, total)
	}
	started := time.Now()
	sessions := make([]adapter.Session, 0, jobs)
	defer func() {
		for _, s := range sessions {
			_ = s.Close()
		}
	}()
	for range jobs {
		s, err := opt.NewSession(ctx)
		if err == nil && s == nil {
			err = errors.New("NewSession returned no session")
		}
		if err != nil {
			return nil, &runner.StartError{Err: err}
		}
		sessions = append(sessions, s)
	}
	hello := sessions[0].Hello()
	c.supported = map[string]bool{}
	for _, op := range c.ops {
		c.supported[op] = hello.Supports(op)
	}

	var deadline time.Time
	if opt.Duration > 0 {
		deadline = started.Add(opt.Duration)
	}
	feed := make(chan int)
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func(s adapter.Session) {
			defer wg.Done()
			for k := range feed {
				c.runCase(ctx, s, k, total, started)
			}
		}(s)
	}
feeding:
	for k := start; end < 0 || k < end; k += step {
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
		select {
		case feed <- k:
		case <-ctx.Done():
			break feeding
		}
	}
	close(feed)
	wg.Wait()
	campaignTime := time.Since(started)

	rep := c.report(hello, len(sessions), started, campaignTime)
	var errs []error
	c.shrinkAndSave(ctx, sessions[0], rep, &errs)
	rep.DurationMS = ms(time.Since(started))
	if c.genErrs > 0 {
		errs = append(errs, &GeneratorError{Count: c.genErrs, First: c.genErr})
	}
	if ctx.Err() != nil {
		rep.Interrupted = true
		errs = append(errs, ctx.Err())
	}
	return rep, errors.Join(errs...)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// caseID is the ID a case has in results and messages.
func caseID(op string, k int) string { return fmt.Sprintf("%s/case-%d", op, k) }

// runCase draws, runs and records case k.
func (c *campaign) runCase(ctx context.Context, s adapter.Session, k, total int, started time.Time) {
	op := CaseOp(c.ops, k)
	seed := CaseSeed(c.opt.Seed, k)
	v := CaseVariant(op, seed)
	if !c.supported[op] {
		c.record(k, op, v, seed, Input{}, runner.CaseResult{Op: op, Verdict: verdict.Unsupported}, nil, total, started)
		return
	}
	typed, err := example(c.gens[genKey{op, v}], seed)
	var in Input
	if err == nil {
		in, err = newInput(typed)
	}
	var res runner.CaseResult
	if err == nil {
		res, err = judgeInput(ctx, s, caseID(op, k), op, nil, in, c.opt.Timeout)
	}
	if ctx.Err() != nil {
		return // cut short: no verdict
	}
	if err != nil {
		err = fmt.Errorf("case %d (%s, seed %d%s): %w", k, op, seed, variantSuffix(v), err)
	}
	c.record(k, op, v, seed, in, res, err, total, started)
}

func variantSuffix(v string) string {
	if v == "" {
		return ""
	}
	return ", variant " + v
}

func (c *campaign) record(k int, op, v string, seed uint64, in Input, res runner.CaseResult, err error, total int, started time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done++
	if c.opt.OnCase != nil {
		c.opt.OnCase(CaseRecord{CaseRef: CaseRef{Case: k, Op: op, Seed: seed, Variant: v}, Input: in.Text, Result: res, Err: err})
	}
	st := c.perOp[op]
	switch {
	case err != nil:
		c.genErrs++
		if c.genErr == "" {
			c.genErr = err.Error()
		}
		st.GeneratorErrors++
	default:
		st.Cases++
		if v != "" {
			st.Variants[v]++
		}
		st.Totals[res.Verdict]++
		c.totals[res.Verdict]++
		if key, ok := KeyOf(res); ok {
			f := c.findings[key]
			if f == nil {
				f = &finding{key: key}
				c.findings[key] = f
			}
			f.count++
			if f.count == 1 || k < f.first.Case {
				f.first = CaseRef{Case: k, Op: op, Seed: seed, Variant: v, Key: key.String()}
				f.input, f.result, f.variant = in, res, v
			}
		}
	}
	if c.opt.Progress != nil {
		n := 0
		for _, f := range c.findings {
			n += f.count
		}
		c.opt.Progress(Progress{Done: c.done, Total: total, Failing: n, Elapsed: time.Since(started)})
	}
}

// report builds the report of the cases run, findings unshrunk.
func (c *campaign) report(hello adapter.Hello, jobs int, started time.Time, campaignTime time.Duration) *Report {
	rep := &Report{
		Format:         ReportFormat,
		Version:        ReportVersion,
		Implementation: hello.Implementation,
		Protocol:       hello.Protocol,
		Adapter:        c.opt.Adapter,
		Seed:           c.opt.Seed,
		Ops:            c.ops,
		FirstCase:      c.opt.First,
		Jobs:           jobs,
		Started:        started.UTC(),
		CampaignMS:     ms(campaignTime),
		Totals:         c.totals,
		Findings:       []Finding{},
	}
	if c.opt.Shards > 1 {
		rep.Shard = &Shard{Index: c.opt.Shard, Count: c.opt.Shards}
	}
	if c.opt.Cases > 0 || c.opt.Duration == 0 {
		_, _, _, rep.Planned = c.opt.caseRange()
	}
	for _, op := range c.ops {
		st := c.perOp[op]
		rep.PerOp = append(rep.PerOp, *st)
		rep.Cases += st.Cases
	}
	if s := campaignTime.Seconds(); s > 0 {
		rep.CasesPerSecond = math.Round(float64(rep.Cases)/s*10) / 10
	}
	rep.Mismatches = c.totals[verdict.Fail]
	rep.Crashes = c.totals[verdict.Crash]
	rep.Timeouts = c.totals[verdict.Timeout]
	rep.Errors = c.totals[verdict.Error]
	rep.GeneratorErrors = c.genErrs
	fs := make([]*finding, 0, len(c.findings))
	for _, f := range c.findings {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].first.Case < fs[j].first.Case })
	repro := c.opt.Repro
	if repro == nil {
		repro = DefaultRepro
	}
	for _, f := range fs {
		first := f.first
		if rep.FirstFailing == nil {
			rep.FirstFailing = &first
		}
		rep.Findings = append(rep.Findings, Finding{
			Key:          f.key,
			ID:           f.key.String(),
			Count:        f.count,
			First:        first,
			Broken:       nonNil(f.result.Broken),
			Message:      f.result.Message,
			Stderr:       f.result.Stderr,
			Diffs:        f.result.Diffs,
			Input:        f.input.Text,
			Size:         SizeOf(f.input),
			OriginalSize: SizeOf(f.input),
			Repro:        repro(f.key.Op, c.opt.Seed, first.Case),
			input:        f.input,
		})
	}
	return rep
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// shrinkAndSave shrinks the first MaxShrink findings through s, then saves
// every finding's (minimal) input when SaveDir is set.
func (c *campaign) shrinkAndSave(ctx context.Context, s adapter.Session, rep *Report, errs *[]error) {
	maxShrink := c.opt.MaxShrink
	if maxShrink <= 0 {
		maxShrink = DefaultMaxShrink
	}
	shrinkTime := c.opt.ShrinkTime
	if shrinkTime == 0 {
		shrinkTime = DefaultShrinkTime
	}
	for i := range rep.Findings {
		f := &rep.Findings[i]
		switch {
		case shrinkTime < 0:
			f.Shrink.Note = "shrinking disabled"
		case i >= maxShrink:
			f.Shrink.Note = fmt.Sprintf("not shrunk: only the first %d findings are", maxShrink)
		case ctx.Err() != nil:
			f.Shrink.Note = "not shrunk: the run was cancelled"
		default:
			c.shrinkOne(ctx, s, f, shrinkTime)
		}
		if c.opt.SaveDir != "" {
			reqs := f.Broken
			if len(reqs) == 0 {
				reqs = generators.Cite(f.Key.Op, f.input.Value)
			}
			desc := fmt.Sprintf("conform fuzz finding %q: minimal input (%s) from case %d of seed %d%s", f.ID, f.Size.Summary, f.First.Case, c.opt.Seed, variantSuffix(f.First.Variant))
			saved, err := SaveCase(c.opt.SaveDir, f.Key.Op, f.input, reqs, desc)
			if err != nil {
				*errs = append(*errs, &SaveError{Err: err})
				continue
			}
			f.Saved = &saved
		}
	}
}

// shrinkOne shrinks one finding through s and updates it in place.
func (c *campaign) shrinkOne(ctx context.Context, s adapter.Session, f *Finding, shrinkTime time.Duration) {
	if c.opt.Progress != nil {
		c.opt.Progress(Progress{Done: c.done, Shrinking: f.ID})
	}
	op := f.Key.Op
	sh, err := Shrink(ShrinkSpec{
		Gen:   c.gens[genKey{op, f.First.Variant}],
		Seed:  f.First.Seed,
		Key:   f.Key,
		Input: f.input,
		Time:  shrinkTime,
		Run: func(in Input) (runner.CaseResult, error) {
			return judgeInput(ctx, s, caseID(op, f.First.Case), op, nil, in, c.opt.Timeout)
		},
	})
	f.Shrink = ShrinkInfo{Runs: sh.Runs, MemoHits: sh.MemoHits, DurationMS: ms(sh.Elapsed), Note: sh.Note, FirstDrawMatches: sh.FirstDrawMatches}
	if err != nil {
		f.Shrink.Note = err.Error()
		return
	}
	if !sh.Reproduced {
		return
	}
	f.Shrink.Shrunk = true
	if larger(SizeOf(sh.Input), SizeOf(f.input)) {
		// Issue 12: a shrunk example is never larger than its case (rapid
		// minimizes its choices, not the input's bytes).
		f.Shrink.Note = fmt.Sprintf("the shrinker's input (%d bytes) is larger than the failing case's (%d), which is kept as the minimal one", len(sh.Input.Text), len(f.input.Text))
		return
	}
	f.input = sh.Input
	f.Input = sh.Input.Text
	f.Size = SizeOf(sh.Input)
	f.Broken = nonNil(sh.Result.Broken)
	f.Diffs = sh.Result.Diffs
	f.Message = sh.Result.Message
	f.Stderr = sh.Result.Stderr
}

// larger reports whether a shrunk input is larger than its case: more
// bytes.
func larger(a, b Size) bool { return a.Bytes > b.Bytes }
