package fuzz

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
)

// Shrinking is rapid's own: rapid.Check runs a property that draws the
// case's input from the case's generator (CaseGenerator), runs it through
// the adapter, and fails only when the answer has the finding's key. With
// rapid.seed = s_k and rapid.checks = 1 the first draw is Example(s_k),
// the failing case itself (tested), so rapid starts from it and then
// shrinks its bit stream, re-running every candidate through the adapter.
// A candidate that passes, or fails differently (another key), is not the
// bug and is rejected, so the result is a minimal input for this bug.
//
// rapid.Check wants a testing.TB-like value and its flags; outside `go test`
// both need care:
//
//   - checkTB implements rapid.TB. rapid calls TB.Errorf to report the
//     failure and then TB.FailNow once, after its last property run, to
//     stop the test (testing.T.FailNow calls runtime.Goexit). checkTB's
//     FailNow panics with a sentinel that Shrink recovers around
//     rapid.Check: nothing of rapid's runs after FailNow, so unwinding there
//     is what Goexit would have done, without ending the goroutine;
//   - rapid's flags (-rapid.seed, -rapid.checks, -rapid.nofailfile,
//     -rapid.shrinktime) live on flag.CommandLine; they are set with
//     flag.Lookup(…).Value.Set and restored afterwards;
//   - rapid.Check calls testing.Short(), which panics unless the testing
//     flags are registered and flag.Parse has run. A `go test` binary has
//     done both; the CLI (kong, never flag.Parse) has not, so prepareFlags
//     registers them with testing.Init and marks flag.CommandLine parsed
//     with an empty argument list (which sets no flag).

// checkTB is a rapid.TB for use outside `go test`.
type checkTB struct {
	failed bool
	errors []string
}

// Sentinels checkTB panics with; Shrink recovers them.
type (
	tbFailNow struct{}
	tbSkipNow struct{}
)

func (tb *checkTB) Helper()      {}
func (tb *checkTB) Name() string { return "conform-fuzz-shrink" }
func (tb *checkTB) Logf(string, ...any) {
	// rapid's progress lines and the minimal case's draws; the caller
	// reports the minimal case itself.
}
func (tb *checkTB) Log(...any)                {}
func (tb *checkTB) Skipf(string, ...any)      { panic(tbSkipNow{}) }
func (tb *checkTB) Skip(...any)               { panic(tbSkipNow{}) }
func (tb *checkTB) SkipNow()                  { panic(tbSkipNow{}) }
func (tb *checkTB) Errorf(f string, a ...any) { tb.fail(fmt.Sprintf(f, a...)) }
func (tb *checkTB) Error(a ...any)            { tb.fail(fmt.Sprint(a...)) }
func (tb *checkTB) Fatalf(f string, a ...any) {
	tb.fail(fmt.Sprintf(f, a...))
	tb.FailNow()
}
func (tb *checkTB) Fatal(a ...any) {
	tb.fail(fmt.Sprint(a...))
	tb.FailNow()
}
func (tb *checkTB) FailNow() {
	tb.failed = true
	panic(tbFailNow{})
}
func (tb *checkTB) Fail()        { tb.failed = true }
func (tb *checkTB) Failed() bool { return tb.failed }

func (tb *checkTB) fail(msg string) {
	tb.failed = true
	if len(tb.errors) < 8 {
		tb.errors = append(tb.errors, msg)
	}
}

// runCheck runs rapid.Check on tb and returns once rapid stops, by
// returning, through tb.FailNow / tb.SkipNow, or by the property calling
// runtime.Goexit (Shrink's halt). rapid runs on a goroutine of its own, so
// that Goexit ends rapid and not the caller.
func runCheck(tb *checkTB, prop func(*rapid.T)) {
	done := make(chan any, 1)
	go func() {
		var p any
		defer func() { done <- p }()
		defer func() {
			if r := recover(); r != nil {
				switch r.(type) {
				case tbFailNow, tbSkipNow:
				default:
					p = r
				}
			}
		}()
		rapid.Check(tb, prop)
	}()
	if p := <-done; p != nil {
		panic(p)
	}
}

var (
	// rapidMu serialises everything that sets rapid's global flags.
	rapidMu   sync.Mutex
	flagsOnce sync.Once
)

// prepareFlags makes testing.Short callable when nothing parsed the
// command line (see above). In a test binary it does nothing.
func prepareFlags() {
	flagsOnce.Do(func() {
		if !flag.Parsed() {
			testing.Init()
			_ = flag.CommandLine.Parse([]string{})
		}
	})
}

// withRapidFlags sets rapid's flags (names without the leading "-"), runs
// f, and restores the previous values. The caller holds rapidMu.
func withRapidFlags(set map[string]string, f func()) error {
	prepareFlags()
	old := make(map[string]string, len(set))
	defer func() {
		for name, v := range old {
			_ = flag.Lookup(name).Value.Set(v)
		}
	}()
	for name, v := range set {
		fl := flag.Lookup(name)
		if fl == nil {
			return fmt.Errorf("fuzz: rapid flag -%s is not registered", name)
		}
		old[name] = fl.Value.String()
		if err := fl.Value.Set(v); err != nil {
			return fmt.Errorf("fuzz: setting -%s=%s: %w", name, v, err)
		}
	}
	f()
	return nil
}

// rapidChecks is the -rapid.checks value that makes rapid run one check:
// under -test.short rapid divides it by 5.
func rapidChecks() string {
	prepareFlags()
	if testing.Short() {
		return "5"
	}
	return "1"
}

// rapidFlags are the flags of one shrink: start at seed, one check, no
// fail file (conform saves fixtures instead), shrinking bounded.
func rapidFlags(seed uint64, shrinkTime time.Duration) map[string]string {
	return map[string]string{
		"rapid.seed":       strconv.FormatUint(seed, 10),
		"rapid.checks":     rapidChecks(),
		"rapid.nofailfile": "true",
		"rapid.failfile":   "",
		"rapid.shrinktime": shrinkTime.String(),
	}
}

// FirstDraw runs rapid.Check on a property that only draws from gen, with
// the flags Shrink uses (rapid.seed = seed, rapid.checks = 1), and returns
// the first value drawn. Shrink starts from the failing case only because
// this is gen.Example(seed), which the suite checks for every op and
// variant.
func FirstDraw(gen *rapid.Generator[any], seed uint64) (any, error) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	var (
		first any
		drawn bool
	)
	prop := func(t *rapid.T) {
		v := gen.Draw(t, "case")
		if !drawn {
			first, drawn = v, true
		}
	}
	tb := &checkTB{}
	if err := withRapidFlags(rapidFlags(seed, time.Millisecond), func() { runCheck(tb, prop) }); err != nil {
		return nil, err
	}
	switch {
	case !drawn:
		return nil, fmt.Errorf("fuzz: rapid.Check drew nothing: %s", strings.Join(tb.errors, "; "))
	case tb.failed:
		return first, fmt.Errorf("fuzz: rapid.Check failed: %s", strings.Join(tb.errors, "; "))
	}
	return first, nil
}

// Budget is the shrinking budget the findings of a campaign share (issue
// 23): a deadline on a clock and a number of steps. A step is a candidate
// judged, through the adapter or the memo, or a deviation model's exchange,
// so a shrink that only meets inputs it has seen still spends it. One
// shrink spends it at a time (Shrink holds rapidMu); a shrink that finds
// it spent halts rapid.
type Budget struct {
	Now      func() time.Time // nil: time.Now
	Deadline time.Time        // zero: none
	Runs     int              // steps left; < 0: no limit
	parent   *Budget
}

func (b *Budget) now() time.Time {
	if b.Now == nil {
		return time.Now()
	}
	return b.Now()
}

// Left reports whether another step may start.
func (b *Budget) Left() bool {
	return b.Runs != 0 && (b.Deadline.IsZero() || b.now().Before(b.Deadline)) && (b.parent == nil || b.parent.Left())
}

func (b *Budget) spend() {
	if b.Runs > 0 {
		b.Runs--
	}
	if b.parent != nil {
		b.parent.spend()
	}
}

// Half is a share of b for one shrink: half of what is left of it (at
// least one exchange), so that one finding that keeps polishing its
// example leaves the later ones their turn.
func (b *Budget) Half() *Budget {
	h := &Budget{Now: b.Now, Runs: -1, parent: b}
	if b.Runs > 0 {
		h.Runs = max(1, b.Runs/2)
	}
	if !b.Deadline.IsZero() {
		now := b.now()
		h.Deadline = now.Add(b.Deadline.Sub(now) / 2)
	}
	return h
}

// rapidTime is -rapid.shrinktime for one shrink: what is left of the
// deadline (rapid's own deadline, a backstop to Left), at least 1 ms.
func (b *Budget) rapidTime() time.Duration {
	if b.Deadline.IsZero() {
		if b.parent != nil {
			return b.parent.rapidTime()
		}
		return 24 * time.Hour
	}
	return max(b.Deadline.Sub(b.now()), time.Millisecond)
}

// Memo remembers the key of every input judged while shrinking, across
// the shrinks of a campaign: many bit streams decode to the same input, and
// the shrinks of one bug's cases walk the same inputs, so a repeat costs no
// exchange (and a flaky adapter looks stable to rapid, which expects a
// candidate to fail the same way twice).
type Memo struct {
	keys  map[string]memoEntry
	bytes int
}

type memoEntry struct {
	key     Key
	failing bool
}

// maxMemoBytes bounds a memo: its input texts (a few hundred bytes each)
// and their keys, counted as 100 bytes each.
const maxMemoBytes = 32 << 20

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{keys: map[string]memoEntry{}} }

func memoID(op string, text []byte) string { return op + "\x00" + string(text) }

func (m *Memo) put(id string, e memoEntry) {
	if m.bytes < maxMemoBytes {
		m.keys[id] = e
		m.bytes += len(id) + 100
	}
}

// Shrunk is the outcome of shrinking one finding.
type Shrunk struct {
	// Input and Result are the minimal failing case and its judged answer;
	// when Reproduced is false they are the zero values.
	Input  Input
	Result runner.CaseResult
	// Reproduced says rapid's first run (Example(s_k)) failed with an
	// accepted key.
	Reproduced bool
	// FirstDrawMatches says rapid's first draw was the campaign's input.
	FirstDrawMatches bool
	// Exhausted says the budget ran out before rapid stopped.
	Exhausted bool
	// Runs counts adapter exchanges; MemoHits the property runs that
	// drew an input already judged.
	Runs, MemoHits int
	// Elapsed is the time spent.
	Elapsed time.Duration
	// Note explains a shrink that did not reproduce or stopped early.
	Note string
}

// ShrinkSpec says what to shrink.
type ShrinkSpec struct {
	Gen   *rapid.Generator[any] // the case's generator (CaseGenerator)
	Seed  uint64                // s_k
	Key   Key                   // the finding
	Input Input                 // the campaign's input, to confirm the first draw
	// Run judges one input; an error means the input is not a case (a
	// generator bug) and never the finding.
	Run func(Input) (runner.CaseResult, error)
	// Accept says whether a failing candidate with this key is this
	// finding; nil accepts Key alone.
	Accept func(Key, Input) bool
	// Budget is shared by a campaign's shrinks; nil: Time alone.
	Budget *Budget
	// Time bounds shrinking when Budget is nil; the property run already
	// started finishes.
	Time time.Duration
	// Memo is shared by a campaign's shrinks; nil: one for this shrink.
	Memo *Memo
	// OnRun, when set, is called after each exchange.
	OnRun func(runs int)
}

// Shrink drives rapid.Check to a minimal input that still fails with an
// accepted key. It is safe to call from several goroutines (calls are
// serialised: rapid's flags are global).
func Shrink(spec ShrinkSpec) (Shrunk, error) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	start := time.Now()
	budget := spec.Budget
	if budget == nil {
		budget = &Budget{Deadline: start.Add(max(spec.Time, time.Millisecond)), Runs: -1}
	}
	memo := spec.Memo
	if memo == nil {
		memo = NewMemo()
	}
	accept := spec.Accept
	if accept == nil {
		accept = func(k Key, _ Input) bool { return k == spec.Key }
	}
	op := spec.Key.Op
	var (
		out       Shrunk
		last      *Input
		firstDraw []byte
		drawn     bool
		halted    bool
		// the results of the accepted inputs judged by this shrink; an
		// input the memo knew from another is judged again at the end
		results = map[string]*runner.CaseResult{}
	)
	msg := "conform fuzz: " + spec.Key.String()
	// candidate judges one draw and reports whether it is this finding.
	candidate := func(t *rapid.T) bool {
		typed := spec.Gen.Draw(t, "case")
		in, err := newInput(typed)
		if !drawn {
			drawn = true
			firstDraw = in.Text
		}
		if err != nil {
			return false
		}
		if !budget.Left() {
			out.Exhausted = true
			halted = true
			return true
		}
		budget.spend()
		id := memoID(op, in.Text)
		e, ok := memo.keys[id]
		switch {
		case ok:
			out.MemoHits++
		default:
			out.Runs++
			r, err := spec.Run(in)
			e.key, e.failing = KeyOf(r)
			e.failing = e.failing && err == nil
			memo.put(id, e)
			if e.failing && accept(e.key, in) {
				results[string(in.Text)] = &r
			}
			if spec.OnRun != nil {
				spec.OnRun(out.Runs)
			}
		}
		if !e.failing || !accept(e.key, in) {
			return false
		}
		last = &in
		return true
	}
	// Halting: once the budget is spent, the property ends rapid at once
	// (runCheck); rapid's own deadline could not be moved. last is the
	// minimal case judged.
	prop := func(t *rapid.T) {
		if !candidate(t) {
			return
		}
		if halted {
			runtime.Goexit()
		}
		t.Fatal(msg) // one call site and one message: rapid compares both
	}
	tb := &checkTB{}
	err := withRapidFlags(rapidFlags(spec.Seed, budget.rapidTime()), func() { runCheck(tb, prop) })
	if err == nil && last != nil && results[string(last.Text)] == nil {
		// Judged by an earlier shrink: its result is judged once more
		// (spent even from an empty budget: one exchange per shrink).
		budget.spend()
		out.Runs++
		r, rerr := spec.Run(*last)
		if k, ok := KeyOf(r); rerr == nil && ok && accept(k, *last) {
			results[string(last.Text)] = &r
		} else {
			last = nil
			out.Note = "the minimal input did not fail again (a flaky adapter?)"
		}
	}
	out.Elapsed = time.Since(start)
	if err != nil {
		return out, err
	}
	out.FirstDrawMatches = string(firstDraw) == string(spec.Input.Text)
	switch {
	case last == nil && out.Note != "":
		return out, nil
	case last == nil:
		out.Note = "rapid's run of the case seed did not fail with this finding (a flaky adapter?)"
		if out.Exhausted {
			out.Note = "not shrunk: the shrink budget ran out"
		} else if !out.FirstDrawMatches {
			out.Note = "rapid's first draw differs from the campaign's input"
		}
		return out, nil
	case out.Exhausted:
		out.Note = "the shrink budget ran out: the input is the smallest found by then"
	case !tb.failed && !halted:
		out.Note = "rapid did not report the failure: " + strings.Join(tb.errors, "; ")
	}
	out.Input, out.Result, out.Reproduced = *last, *results[string(last.Text)], true
	return out, nil
}
