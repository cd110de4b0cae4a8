package fuzz

import (
	"flag"
	"fmt"
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
// returning or through tb.FailNow / tb.SkipNow.
func runCheck(tb *checkTB, prop func(*rapid.T)) {
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case tbFailNow, tbSkipNow:
				return
			}
			panic(r)
		}
	}()
	rapid.Check(tb, prop)
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

// maxMemo bounds the shrink memo (inputs are small: a few hundred bytes).
const maxMemo = 1 << 17

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

// Shrunk is the outcome of shrinking one finding.
type Shrunk struct {
	// Input and Result are the minimal failing case and its judged answer;
	// when Reproduced is false they are the zero values.
	Input  Input
	Result runner.CaseResult
	// Reproduced says rapid's first run (Example(s_k)) failed with the key.
	Reproduced bool
	// FirstDrawMatches says rapid's first draw was the campaign's input.
	FirstDrawMatches bool
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
	// Time bounds shrinking (-rapid.shrinktime); the property runs already
	// started finish.
	Time time.Duration
}

// Shrink drives rapid.Check to a minimal input that still fails with
// spec.Key. It is safe to call from several goroutines (calls are
// serialised: rapid's flags are global).
func Shrink(spec ShrinkSpec) (Shrunk, error) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	start := time.Now()
	var (
		out       Shrunk
		last      *Shrunk
		firstDraw []byte
		drawn     bool
	)
	msg := "conform fuzz: " + spec.Key.String()
	// Many bit streams decode to the same input; the memo answers a repeat
	// without another exchange (and makes a flaky adapter look stable to
	// rapid, which expects a candidate to fail the same way twice).
	memo := map[string]*runner.CaseResult{} // nil: not the finding
	prop := func(t *rapid.T) {
		typed := spec.Gen.Draw(t, "case")
		in, err := newInput(typed)
		if !drawn {
			drawn = true
			firstDraw = in.Text
		}
		if err != nil {
			return
		}
		res, seen := memo[string(in.Text)]
		if !seen {
			out.Runs++
			r, err := spec.Run(in)
			if k, ok := KeyOf(r); err == nil && ok && k == spec.Key {
				res = &r
			}
			if len(memo) < maxMemo {
				memo[string(in.Text)] = res
			}
		} else {
			out.MemoHits++
		}
		if res == nil {
			return
		}
		last = &Shrunk{Input: in, Result: *res}
		t.Fatal(msg) // one call site and one message: rapid compares both
	}
	tb := &checkTB{}
	shrinkTime := spec.Time
	if shrinkTime <= 0 {
		shrinkTime = time.Millisecond // rapid still reproduces, then stops
	}
	err := withRapidFlags(rapidFlags(spec.Seed, shrinkTime), func() { runCheck(tb, prop) })
	out.Elapsed = time.Since(start)
	if err != nil {
		return out, err
	}
	out.FirstDrawMatches = string(firstDraw) == string(spec.Input.Text)
	switch {
	case last == nil:
		out.Note = "rapid's run of the case seed did not fail with this finding (a flaky adapter?)"
		if !out.FirstDrawMatches {
			out.Note = "rapid's first draw differs from the campaign's input"
		}
		return out, nil
	case !tb.failed:
		out.Note = "rapid did not report the failure: " + strings.Join(tb.errors, "; ")
	}
	out.Input, out.Result, out.Reproduced = last.Input, last.Result, true
	return out, nil
}
