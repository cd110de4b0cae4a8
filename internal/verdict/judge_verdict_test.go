package verdict

import "testing"

// Which verdicts fail a run decides conform's exit status (issue 22: a
// verdict that says "fine" too often passes every harness). Each verdict
// against the rule its doc states: fail, error, timeout and crash are
// failing and fail the run; xpass fails the run (a stale baseline) without
// failing on its own; pass, unsupported, skipped and xfail do neither.
func TestJudgeVerdictRules(t *testing.T) {
	for _, c := range []struct {
		v                 Verdict
		failsRun, failing bool
	}{
		{Pass, false, false},
		{Fail, true, true},
		{Error, true, true},
		{Timeout, true, true},
		{Crash, true, true},
		{Unsupported, false, false},
		{Skipped, false, false},
		{XFail, false, false},
		{XPass, true, false},
	} {
		if got := c.v.FailsRun(); got != c.failsRun {
			t.Errorf("%s.FailsRun() = %v, want %v", c.v, got, c.failsRun)
		}
		if got := c.v.Failing(); got != c.failing {
			t.Errorf("%s.Failing() = %v, want %v", c.v, got, c.failing)
		}
		if !c.v.Valid() {
			t.Errorf("%s.Valid() = false", c.v)
		}
	}
	if len(All) != 9 {
		t.Errorf("All has %d verdicts, the table 9", len(All))
	}
	for _, v := range []Verdict{"", "PASS", "passed", "xfail "} {
		if v.Valid() || v.FailsRun() || v.Failing() {
			t.Errorf("%q: Valid %v FailsRun %v Failing %v, want all false", v, v.Valid(), v.FailsRun(), v.Failing())
		}
	}
}
