package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// RunJUnit converts a run to JUnit XML: one testsuite per op and one
// testcase per case (classname the op, name the case id), in case order.
//
//   - fail: <failure type="fail">, its message the broken requirement IDs,
//     its text every diff;
//   - crash, timeout, error: <error type="crash|timeout|error">, its text
//     the message and the adapter's stderr tail;
//   - unsupported, skipped: <skipped>;
//   - xfail: a passing testcase whose system-out names the baseline entry
//     and keeps the diffs;
//   - xpass: <failure type="xpass"> "stale baseline entry".
//
// Every reason the run is nonconformant other than its failing cases (a
// start fault, an unsupported required op, a stale baseline entry, a
// requirement or required op that never passed) is one more failing
// testcase in a suite "conform", so that a CI test view is never green
// on a red job.
func RunJUnit(r *runner.Report) *TestSuites {
	root := &TestSuites{
		Name: "conform run: " + ImplementationName(r),
		Time: Seconds(r.DurationMS / 1000),
	}
	stamp := ""
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format(time.RFC3339)
	}
	index := map[string]int{}
	for i := range r.Cases {
		c := &r.Cases[i]
		n, ok := index[c.Op]
		if !ok {
			n = len(root.Suites)
			index[c.Op] = n
			root.Suites = append(root.Suites, TestSuite{Name: c.Op, Timestamp: stamp})
		}
		s := &root.Suites[n]
		s.Time += Seconds(c.DurationMS / 1000)
		s.Cases = append(s.Cases, junitCase(c))
	}
	var verdicts TestSuite
	for _, q := range runReasons(r) {
		if q.Kind == runner.ReasonFailingCases {
			continue // their own testcases fail
		}
		name := q.Kind
		if q.Subject != "" {
			name += " " + q.Subject
		}
		text := line(q.Message) + "\n"
		if q.Kind == runner.ReasonStart && r.Fault != nil {
			text += "message: " + quoted(r.Fault.Message) + "\n"
			if r.Fault.Stderr != "" {
				text += "adapter stderr (last 4 KiB):\n" + textSafe(r.Fault.Stderr) + "\n"
			}
		}
		if st := statement(q.Subject); st != "" {
			text += q.Subject + " — " + st + "\n"
		}
		tc := TestCase{Name: name, Classname: "conform"}
		if q.Kind == runner.ReasonIncomplete { // cases never ran: an error, not a failure of theirs
			tc.Error = &Outcome{Message: line(q.Message), Type: q.Kind, Text: text}
		} else {
			tc.Failure = &Outcome{Message: line(q.Message), Type: q.Kind, Text: text}
		}
		verdicts.Cases = append(verdicts.Cases, tc)
	}
	if p := Partial(r); p != "" && r.Complete && len(verdicts.Cases) == 0 && r.Conformant() {
		// A green test view of a selection would read as a whole pass.
		verdicts.Cases = append(verdicts.Cases, TestCase{Name: "partial selection", Classname: "conform",
			Skipped: &Outcome{Message: "partial run: " + p}})
	}
	for _, n := range (&Model{Run: r}).Notes() { // closing the sessions: no testcase's, the run's
		verdicts.SystemOut += textNote(n) + "\n"
	}
	if len(verdicts.Cases) > 0 || verdicts.SystemOut != "" {
		verdicts.Name, verdicts.Timestamp = "conform", stamp
		root.Suites = append(root.Suites, verdicts)
	}
	root.Tally()
	return root
}

// WriteRunJUnit writes RunJUnit(r).
func WriteRunJUnit(w io.Writer, r *runner.Report) error { return RunJUnit(r).Write(w) }

func junitCase(c *runner.CaseResult) TestCase {
	tc := TestCase{Name: c.ID, Classname: c.Op, Time: Seconds(c.DurationMS / 1000)}
	switch c.Verdict {
	case verdict.Pass:
	case verdict.Fail:
		msg := "differs from the golden answer"
		if len(c.Broken) > 0 {
			msg = "fails " + strings.Join(c.Broken, ", ")
		}
		if len(c.Diffs) > 0 {
			msg += ": " + oneLine(c.Diffs[0].Message, 200)
		}
		tc.Failure = &Outcome{Message: line(msg), Type: string(c.Verdict), Text: caseDetail(c, 0)}
	case verdict.Error, verdict.Timeout, verdict.Crash:
		tc.Error = &Outcome{Message: line(oneLine(c.Message, 500)), Type: string(c.Verdict), Text: caseDetail(c, 0)}
	case verdict.Unsupported, verdict.Skipped:
		tc.Skipped = &Outcome{Message: line(oneLine(string(c.Verdict)+": "+c.Message, 500))}
	case verdict.XFail:
		tc.SystemOut = fmt.Sprintf("expected failure: listed in the baseline (reason: %s)\n", line(c.Baseline)) + caseDetail(c, 0)
	case verdict.XPass:
		tc.Failure = &Outcome{
			Message: "stale baseline entry: the case passes",
			Type:    string(c.Verdict),
			Text:    fmt.Sprintf("the baseline lists this case as failing (reason: %s), but it passes: remove the entry\n", line(c.Baseline)) + caseDetail(c, 0),
		}
	default:
		tc.Error = &Outcome{Message: fmt.Sprintf("unknown verdict %q", c.Verdict), Type: "error"}
	}
	return tc
}
