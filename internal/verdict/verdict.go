// Package verdict is the one outcome enum shared by the adapter runner, the
// session-log checker and the fuzzer.
package verdict

// Verdict is the outcome of one case.
type Verdict string

// The verdicts.
const (
	Pass        Verdict = "pass"        // the output matches, every property holds
	Fail        Verdict = "fail"        // the output differs or breaks a property
	Error       Verdict = "error"       // the adapter answered garbage: not JSON, wrong id, over 64 MiB, an unexpected error answer
	Timeout     Verdict = "timeout"     // no answer within the per-case timeout
	Crash       Verdict = "crash"       // the adapter process exited mid-case
	Unsupported Verdict = "unsupported" // the adapter does not list the case's op
	Skipped     Verdict = "skipped"     // the adapter answered skip, with a reason
	XFail       Verdict = "xfail"       // failing, and listed in the baseline
	XPass       Verdict = "xpass"       // listed in the baseline, but passing: a stale entry
)

// All lists every verdict in report order.
var All = []Verdict{Pass, Fail, Error, Timeout, Crash, Unsupported, Skipped, XFail, XPass}

// FailsRun reports whether the verdict makes a run nonconformant. An xpass
// fails the run so that baselines cannot go stale.
func (v Verdict) FailsRun() bool {
	switch v {
	case Fail, Error, Timeout, Crash, XPass:
		return true
	}
	return false
}

// Failing reports whether the case did not pass on its own merits, the
// verdicts a baseline entry can turn into xfail.
func (v Verdict) Failing() bool {
	switch v {
	case Fail, Error, Timeout, Crash:
		return true
	}
	return false
}

// Valid reports whether v is one of the verdicts.
func (v Verdict) Valid() bool {
	for _, x := range All {
		if v == x {
			return true
		}
	}
	return false
}
