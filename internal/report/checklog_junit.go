package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// CheckLogJUnit returns the JUnit report of a check-log run: a suite per
// log with a case per checked requirement (CheckLogRequirements) — a
// failure when a finding at or above FailOn is not baselined, skipped when
// only unprovable, else passing with the findings as system-out — and an
// error case "read" for a log that could not be read; plus, with a
// baseline, a suite with a case per entry, failing when stale.
func CheckLogJUnit(s *logcheck.Summary) *TestSuites {
	checked := CheckLogRequirements(s)
	root := &TestSuites{Name: "conform check-log", Time: Seconds(s.Elapsed.Seconds())}
	for _, f := range s.Files {
		suite := TestSuite{Name: f.Name, Time: Seconds(f.Elapsed.Seconds())}
		if f.Err != nil {
			suite.Cases = append(suite.Cases, TestCase{Name: "read", Classname: "log", Error: &Outcome{Message: f.Err.Error(), Type: "error"}})
		}
		if len(f.Notes) > 0 {
			suite.Cases = append(suite.Cases, TestCase{Name: "read", Classname: "log", SystemOut: strings.Join(f.Notes, "\n") + "\n"})
		}
		if f.Partial {
			suite.Cases = append(suite.Cases, TestCase{Name: "read", Classname: "log", Error: &Outcome{Message: "interrupted: " + (&Model{CheckLog: s}).Stopped(), Type: "interrupted"}})
		}
		for _, id := range checked {
			tc := TestCase{Name: id, Classname: CheckLogArea(id)}
			t := f.ByReq[id]
			switch {
			case t == nil:
			case t.Failing(s.FailOn) > 0:
				tc.Failure = &Outcome{Message: checkLogLevelSummary(t.Open), Type: string(checkLogWorst(t.Open)), Text: checkLogFindingsText(t)}
			case t.Open[logcheck.Unprovable] > 0 && len(t.Open) == 1:
				msg := "unprovable"
				if t.First != nil {
					msg = "unprovable: " + t.First.Message
				}
				tc.Skipped = &Outcome{Message: msg, Text: checkLogFindingsText(t)}
			default: // warnings below FailOn, unprovable, baselined
				tc.SystemOut = checkLogFindingsText(t)
			}
			suite.Cases = append(suite.Cases, tc)
		}
		root.Suites = append(root.Suites, suite)
	}
	if s.Baseline != nil {
		suite := TestSuite{Name: "baseline " + s.Baseline.Source}
		for _, e := range s.Matcher.Entries() {
			tc := TestCase{Name: e.String(), Classname: "baseline"}
			if n := s.Matcher.Hits(e); n == 0 {
				tc.Failure = &Outcome{Message: "stale baseline entry: matches no finding", Type: "stale", Text: "reason: " + e.Reason + "\n"}
			} else {
				tc.SystemOut = fmt.Sprintf("accepts %s: %s\n", plural(n, "finding"), e.Reason)
			}
			suite.Cases = append(suite.Cases, tc)
		}
		root.Suites = append(root.Suites, suite)
	}
	return root
}

// WriteCheckLogJUnit writes CheckLogJUnit(s).
func WriteCheckLogJUnit(w io.Writer, s *logcheck.Summary) error { return CheckLogJUnit(s).Write(w) }

func checkLogFindingsText(t *logcheck.Tally) string {
	var b strings.Builder
	for _, fd := range t.Listed {
		b.WriteString(checkLogFindingLine(fd) + "\n")
	}
	if n := t.Total() - len(t.Listed); n > 0 {
		fmt.Fprintf(&b, "(+%d more not listed: --max-findings)\n", n)
	}
	return b.String()
}

// checkLogLevelSummary is "2 violations, 1 warning, 3 unprovable".
func checkLogLevelSummary(m map[logcheck.Level]int) string {
	var parts []string
	for _, l := range checkLogLevels {
		switch {
		case m[l] == 0:
		case l == logcheck.Unprovable:
			parts = append(parts, fmt.Sprintf("%d unprovable", m[l]))
		default:
			parts = append(parts, plural(m[l], string(l)))
		}
	}
	return strings.Join(parts, ", ")
}

// checkLogWorst is the most severe level counted.
func checkLogWorst(m map[logcheck.Level]int) logcheck.Level {
	for _, l := range checkLogLevels {
		if m[l] > 0 {
			return l
		}
	}
	return ""
}
