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
	root.Tally()
	return root
}

// WriteRunJUnit writes RunJUnit(r).
func WriteRunJUnit(w io.Writer, r *runner.Report) error { return RunJUnit(r).Write(w) }

func junitCase(c *runner.CaseResult) TestCase {
	tc := TestCase{Name: c.ID, Classname: c.Op, Time: Seconds(c.DurationMS / 1000)}
	reqs := ""
	if len(c.Requirements) > 0 {
		reqs = "requirements: " + strings.Join(c.Requirements, ", ") + "\n"
	}
	switch c.Verdict {
	case verdict.Pass:
	case verdict.Fail:
		msg := "differs from the golden answer"
		if len(c.Broken) > 0 {
			msg = "breaks " + strings.Join(c.Broken, ", ")
		}
		if len(c.Diffs) > 0 {
			msg += ": " + oneLine(c.Diffs[0].Message, 200)
		}
		tc.Failure = &Outcome{Message: msg, Type: string(c.Verdict), Text: reqs + diffsText(c)}
	case verdict.Error, verdict.Timeout, verdict.Crash:
		tc.Error = &Outcome{Message: oneLine(c.Message, 500), Type: string(c.Verdict), Text: reqs + faultText(c)}
	case verdict.Unsupported, verdict.Skipped:
		tc.Skipped = &Outcome{Message: oneLine(string(c.Verdict)+": "+c.Message, 500)}
	case verdict.XFail:
		text := fmt.Sprintf("expected failure: listed in the baseline (reason: %s)\n", c.Baseline)
		if c.Message != "" {
			text += c.Message + "\n"
		}
		tc.SystemOut = text + reqs + diffsText(c)
	case verdict.XPass:
		tc.Failure = &Outcome{
			Message: "stale baseline entry: the case passes",
			Type:    string(c.Verdict),
			Text:    fmt.Sprintf("the baseline lists this case as failing (reason: %s), but it passes: remove the entry\n", c.Baseline) + reqs,
		}
	default:
		tc.Error = &Outcome{Message: fmt.Sprintf("unknown verdict %q", c.Verdict), Type: "error"}
	}
	return tc
}

// diffsText is every diff of a case, one block each.
func diffsText(c *runner.CaseResult) string {
	var b strings.Builder
	if len(c.Broken) > 0 {
		b.WriteString("breaks: " + strings.Join(c.Broken, ", ") + "\n")
	}
	for _, d := range c.Diffs {
		b.WriteString(DiffText(d) + "\n")
	}
	return b.String()
}

// faultText is a fault's message and the adapter's stderr tail.
func faultText(c *runner.CaseResult) string {
	var b strings.Builder
	if c.Message != "" {
		b.WriteString(c.Message + "\n")
	}
	if c.Stderr != "" {
		b.WriteString("adapter stderr (last 4 KiB):\n" + c.Stderr)
		if !strings.HasSuffix(c.Stderr, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}
