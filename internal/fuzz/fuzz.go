// Package fuzz is conform's differential fuzzer: it draws cases from the
// generators (generators.OpGenerator, plus metamorphic variants), sends
// each to a harness's adapter and judges the answer against the embedded
// reference's answer on the same input, computed on the fly, with exactly
// the comparators and property checks of `conform run` (runner.RunCase).
// Failing cases are grouped by cause (group.go): each new kind of failure
// is shrunk through the adapter with rapid's shrinker, and failures that
// shrink to the same difference are one finding, whose example is the
// smallest of its group; findings are saved as regression fixtures when
// found and replaced by their shrunk form. See docs/fuzzing.md.
package fuzz

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
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
	DefaultCases = 1000
	// DefaultShrinkTime is the time all the findings of a campaign share
	// for shrinking.
	DefaultShrinkTime = 30 * time.Second
	// DefaultMaxShrink is how many kinds of failure are shrunk (in
	// first-case order); the others are reported with their first failing
	// input.
	DefaultMaxShrink = 100
	// MaxJobs bounds Options.Jobs: each job is an adapter session.
	MaxJobs = 1024
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
	// Duration, when set, bounds the whole campaign, shrinking included:
	// cases stop in time to leave the shrinking its budget (at most a quarter
	// of Duration) once there is a finding, and at Duration otherwise.
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
	// ShrinkTime bounds the shrinking of all the findings together; < 0
	// disables shrinking, 0 means DefaultShrinkTime.
	ShrinkTime time.Duration
	// ShrinkRuns, when > 0, bounds the steps of all the shrinking
	// together (Budget: candidates judged, by the adapter or the memo, and
	// the deviation models' exchanges), a budget that does not depend on
	// the machine's speed, for tests.
	ShrinkRuns int
	// MaxShrink is how many kinds of failure are shrunk; 0 means
	// DefaultMaxShrink.
	MaxShrink int
	// Now is the clock of Duration and ShrinkTime; nil: time.Now.
	Now func() time.Time
	// SaveDir, when set, receives every finding's input as a fixture and
	// its golden answer: the failing case when found, replaced by the
	// finding's shrunk example when the campaign ends.
	SaveDir string
	// Repro returns the command line that reproduces case k of op with
	// this campaign's seed; nil gives the bare `conform fuzz …` flags.
	Repro func(op string, seed uint64, k int) string
	// Progress, when set, is called after each case and each shrinking
	// exchange, from one goroutine at a time.
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
	Findings    int // kinds of failure so far; findings once grouped
	Elapsed     time.Duration
	Phase       string // PhaseCases, PhaseShrinking or PhaseSaving
	Shrinking   string // the failure being shrunk, in PhaseShrinking
}

// The phases of a campaign, for Progress.
const (
	PhaseCases     = "cases"
	PhaseShrinking = "shrinking"
	PhaseSaving    = "saving"
)

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
	case o.cases() > math.MaxInt-o.First:
		return fmt.Errorf("fuzz: %d cases from case %d: the last case index would be over %d", o.cases(), o.First, math.MaxInt-1)
	case o.Jobs > MaxJobs:
		return fmt.Errorf("fuzz: %d jobs: at most %d", o.Jobs, MaxJobs)
	case o.ShrinkRuns < 0:
		return fmt.Errorf("fuzz: shrink runs %d is negative", o.ShrinkRuns)
	case o.Duration < 0 || o.Timeout < 0:
		return fmt.Errorf("fuzz: duration %v, timeout %v: must not be negative", o.Duration, o.Timeout)
	case o.MaxShrink < 0:
		return fmt.Errorf("fuzz: max shrink %d is negative", o.MaxShrink)
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
	now       func() time.Time
	ops       []string
	gens      map[genKey]*rapid.Generator[any]
	reqs      map[string][]string
	supported map[string]bool
	started   time.Time

	mu       sync.Mutex
	done     int
	failing  int
	perOp    map[string]*OpStats
	totals   map[verdict.Verdict]int
	findings map[Key]*finding
	genErrs  int
	genErr   string
	saveErrs []error
}

// finding is one kind of failure (one key): its first case (the lowest
// case index), its count and where it was saved when found.
type finding struct {
	key    Key
	count  int
	first  CaseRef
	input  Input
	result runner.CaseResult
	saved  *Saved
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

// cases is the number of case indexes the campaign spans: Cases, or
// DefaultCases without a Duration; 0: unbounded.
func (o Options) cases() int {
	if o.Cases == 0 && o.Duration == 0 {
		return DefaultCases
	}
	return o.Cases
}

// caseRange returns the case indexes of the campaign in this shard: from
// start, every step-th, below end (end < 0: unbounded, up to math.MaxInt),
// and their number. validate has checked that First+Cases does not
// overflow; nothing here does either.
func (o Options) caseRange() (start, step, end, total int) {
	start, step, end = o.First, 1, -1
	if cases := o.cases(); cases > 0 {
		end = o.First + cases
	}
	if o.Shards > 1 {
		step = o.Shards
		r := o.Shard - o.First%o.Shards // in (-Shards, Shards)
		if r < 0 {
			r += o.Shards
		}
		if r > math.MaxInt-start {
			return start, step, start, 0 // no case of this shard is an int
		}
		start += r
	}
	if end >= 0 && start < end {
		total = (end-start-1)/step + 1
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
		now:      opt.Now,
		ops:      opt.Ops,
		reqs:     map[string][]string{},
		perOp:    map[string]*OpStats{},
		totals:   runner.Totals(nil),
		findings: map[Key]*finding{},
	}
	if c.now == nil {
		c.now = time.Now
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
	c.started = c.now()
	wallStart := time.Now()
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

	shrinkTime := opt.ShrinkTime
	if shrinkTime == 0 {
		shrinkTime = DefaultShrinkTime
	}
	// Issue 23: --duration bounds the shrinking too. Once a case has
	// failed, the cases stop early enough to leave the shrinking its
	// budget, at most a quarter of the duration.
	var deadline, reserveFrom time.Time
	if opt.Duration > 0 {
		deadline = c.started.Add(opt.Duration)
		reserveFrom = deadline
		if shrinkTime > 0 {
			reserveFrom = deadline.Add(-min(shrinkTime, opt.Duration/4))
		}
	}
	feed := make(chan int)
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func(s adapter.Session) {
			defer wg.Done()
			for k := range feed {
				c.runCase(ctx, s, k, total)
			}
		}(s)
	}
feeding:
	for k := start; end < 0 || k < end; k += step {
		if !deadline.IsZero() {
			now := c.now()
			if !now.Before(deadline) || !now.Before(reserveFrom) && c.anyFinding() {
				break
			}
		}
		select {
		case feed <- k:
		case <-ctx.Done():
			break feeding
		}
		if k > math.MaxInt-step {
			break // the last case index an int holds
		}
	}
	close(feed)
	wg.Wait()
	campaignTime := time.Since(wallStart)

	budget := &Budget{Now: c.now, Runs: -1}
	if shrinkTime > 0 {
		budget.Deadline = c.now().Add(shrinkTime)
		if !deadline.IsZero() && deadline.Before(budget.Deadline) {
			budget.Deadline = deadline
		}
	}
	if opt.ShrinkRuns > 0 {
		budget.Runs = opt.ShrinkRuns
	}
	shrinkStart := time.Now()
	groups := c.group(ctx, sessions[0], shrinkTime < 0, budget)
	rep := c.report(hello, len(sessions), campaignTime, groups)
	rep.ShrinkMS = ms(time.Since(shrinkStart))
	errs := c.saveErrs
	c.save(rep, groups, &errs)
	rep.DurationMS = ms(time.Since(wallStart))
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

func (c *campaign) anyFinding() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.findings) > 0
}

// runCase draws, runs and records case k.
func (c *campaign) runCase(ctx context.Context, s adapter.Session, k, total int) {
	op := CaseOp(c.ops, k)
	seed := CaseSeed(c.opt.Seed, k)
	v := CaseVariant(op, seed)
	if !c.supported[op] {
		c.record(k, op, v, seed, Input{}, runner.CaseResult{Op: op, Verdict: verdict.Unsupported}, nil, total)
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
	c.record(k, op, v, seed, in, res, err, total)
}

func variantSuffix(v string) string {
	if v == "" {
		return ""
	}
	return ", variant " + v
}

func (c *campaign) record(k int, op, v string, seed uint64, in Input, res runner.CaseResult, err error, total int) {
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
			c.failing++
			f := c.findings[key]
			if f == nil {
				f = &finding{key: key}
				c.findings[key] = f
			}
			f.count++
			if f.count == 1 || k < f.first.Case {
				f.first = CaseRef{Case: k, Op: op, Seed: seed, Variant: v, Key: key.String()}
				f.input, f.result = in, res
			}
			if f.count == 1 && c.opt.SaveDir != "" {
				// Issue 23: saved when found, so that a campaign cut short
				// keeps it; replaced by the finding's example at the end.
				saved, err := c.saveCase(op, in, res, fmt.Sprintf("conform fuzz: case %d of seed %d%s, as found (%s)", k, c.opt.Seed, variantSuffix(v), key))
				if err != nil {
					c.saveErrs = append(c.saveErrs, &SaveError{Err: err})
				} else {
					f.saved = &saved
				}
			}
		}
	}
	if c.opt.Progress != nil {
		c.opt.Progress(Progress{Done: c.done, Total: total, Failing: c.failing, Findings: len(c.findings), Elapsed: c.now().Sub(c.started), Phase: PhaseCases})
	}
}

// saveCase saves one input as a regression case citing what it breaks
// (or, for a fault, what it exercises).
func (c *campaign) saveCase(op string, in Input, res runner.CaseResult, desc string) (Saved, error) {
	reqs := res.Broken
	if len(reqs) == 0 {
		reqs = generators.Cite(op, in.Value)
	}
	return SaveCase(c.opt.SaveDir, op, in, reqs, desc)
}

// report builds the report of the cases run and their findings.
func (c *campaign) report(hello adapter.Hello, jobs int, campaignTime time.Duration, groups []*group) *Report {
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
		Started:        c.started.UTC(),
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
	repro := c.opt.Repro
	if repro == nil {
		repro = DefaultRepro
	}
	for _, g := range groups {
		first := g.members[0].first
		if rep.FirstFailing == nil {
			rep.FirstFailing = &first
		}
		keys := make([]string, len(g.members))
		count := 0
		for i, m := range g.members {
			keys[i] = m.key.String()
			count += m.count
		}
		rep.Findings = append(rep.Findings, Finding{
			Key:          g.key,
			ID:           g.key.String(),
			Keys:         keys,
			Cause:        g.cause,
			Count:        count,
			First:        first,
			Broken:       nonNil(g.result.Broken),
			Message:      g.result.Message,
			Stderr:       g.result.Stderr,
			Diffs:        g.result.Diffs,
			Input:        g.example.Text,
			Size:         SizeOf(g.example),
			OriginalSize: SizeOf(g.from.input),
			Shrink:       g.info,
			Repro:        repro(first.Op, c.opt.Seed, first.Case),
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

// save writes every finding's example when SaveDir is set, and removes the
// cases saved when found that no finding's example is.
func (c *campaign) save(rep *Report, groups []*group, errs *[]error) {
	if c.opt.SaveDir == "" {
		return
	}
	if c.opt.Progress != nil {
		c.opt.Progress(Progress{Done: c.done, Failing: c.failing, Findings: len(groups), Elapsed: c.now().Sub(c.started), Phase: PhaseSaving})
	}
	kept := map[string]bool{}
	for i, g := range groups {
		f := &rep.Findings[i]
		desc := fmt.Sprintf("conform fuzz finding %q: minimal input (%s) from case %d of seed %d%s", f.ID, f.Size.Summary, g.from.first.Case, c.opt.Seed, variantSuffix(g.from.first.Variant))
		saved, err := c.saveCase(f.Key.Op, g.example, g.result, desc)
		if err != nil {
			*errs = append(*errs, &SaveError{Err: err})
			continue
		}
		f.Saved = &saved
		kept[saved.Fixture] = true
	}
	for _, g := range groups {
		for _, m := range g.members {
			if m.saved == nil || kept[m.saved.Fixture] {
				continue
			}
			for _, path := range []string{m.saved.Fixture, m.saved.Golden} {
				if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					*errs = append(*errs, &SaveError{Err: err})
				}
			}
		}
	}
}
