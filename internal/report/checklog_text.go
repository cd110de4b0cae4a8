package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// CheckLogText writes the text report of a check-log run as the run goes,
// so that it holds nothing per finding: Finding writes each listed finding
// as it is found (file:line: level REQ-ID message), File a log's trailer
// once it is checked (unlisted count, error, interruption), Finish the
// stale baseline entries, the statistics footer and the result. The first
// write error sticks and Finish returns it.
type CheckLogText struct {
	w           io.Writer
	maxFindings int
	err         error
}

// NewCheckLogText starts a text report on w of a run listing at most
// maxFindings findings (0 = all).
func NewCheckLogText(w io.Writer, maxFindings int) *CheckLogText {
	return &CheckLogText{w: w, maxFindings: maxFindings}
}

func (t *CheckLogText) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, args...)
	}
}

// Finding writes one listed finding.
func (t *CheckLogText) Finding(fd *logcheck.RunFinding) { t.printf("%s\n", checkLogFindingLine(fd)) }

// File ends the listing of a checked log.
func (t *CheckLogText) File(f *logcheck.FileResult) {
	if f.Shown == 0 && f.Err == nil && f.Dropped == 0 && !f.Partial && len(f.Notes) == 0 {
		return
	}
	for _, n := range fileNotes(f) {
		t.printf("%s\n", textNote(n))
	}
	if f.Dropped > 0 {
		t.printf("%s: %d more findings not listed (--max-findings %d)\n", line(f.Name), f.Dropped, t.maxFindings)
	}
	if f.Err != nil {
		t.printf("%s: error: %s\n", line(f.Name), line(f.Err.Error()))
	}
	if f.Partial {
		t.printf("%s: interrupted after %d lines: the rest of this log was not checked\n", line(f.Name), f.Stats.Lines)
	}
	t.printf("\n")
}

// Finish writes the end of the report and returns the first write error.
func (t *CheckLogText) Finish(s *logcheck.Summary) error {
	var b strings.Builder
	for _, e := range s.Stale {
		fmt.Fprintf(&b, "stale baseline entry %s matches no finding (reason: %s)\n", line(e.String()), line(e.Reason))
	}
	if len(s.Stale) > 0 {
		b.WriteString("\n")
	}
	st, counts, baselined := s.Totals()
	fmt.Fprintf(&b, "checked %s: %d lines, %d events, %s\n", plural(s.FileCount(), "file"), st.Lines, st.Events, byteSize(st.Bytes))
	fmt.Fprintf(&b, "tool results checked: %s\n", checkLogCountList(st.ResultsChecked))
	fmt.Fprintf(&b, "findings: %s, %s, %d unprovable", plural(counts[logcheck.Violation], "violation"), plural(counts[logcheck.Warning], "warning"), counts[logcheck.Unprovable])
	if s.Baseline != nil {
		fmt.Fprintf(&b, "; %d baselined, %s", baselined, plural(len(s.Stale), "stale baseline entry"))
	}
	if s.Dropped > 0 {
		fmt.Fprintf(&b, "; %d not listed (--max-findings %d)", s.Dropped, s.MaxFindings)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "unknown event types: %s\n", checkLogCountList(st.UnknownTypes))
	fmt.Fprintf(&b, "malformed lines: %d\n", st.MalformedLines)
	secs := s.Elapsed.Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(st.Bytes) / 1e6 / secs
	}
	fmt.Fprintf(&b, "elapsed: %.3fs (%.1f MB/s)\n", secs, rate)
	switch s.Result() {
	case logcheck.ResultPass:
		fmt.Fprintf(&b, "result: PASS (no %s at or above %s)\n", "finding", s.FailOn)
	case logcheck.ResultFail:
		fmt.Fprintf(&b, "result: FAIL (%s at or above %s", plural(s.Failing(), "finding"), s.FailOn)
		if len(s.Stale) > 0 {
			fmt.Fprintf(&b, ", %s", plural(len(s.Stale), "stale baseline entry"))
		}
		b.WriteString(")\n")
	case logcheck.ResultInterrupted:
		fmt.Fprintf(&b, "result: INTERRUPTED (partial report: %s)\n", checkLogPartial(s))
	default:
		fmt.Fprintf(&b, "result: ERROR (%s could not be read)\n", plural(s.Errors(), "log"))
	}
	t.printf("%s", b.String())
	return t.err
}

// checkLogPartial says how far an interrupted run got.
func checkLogPartial(s *logcheck.Summary) string {
	done := s.FileCount()
	for _, f := range s.Files {
		if f.Partial {
			done--
		}
	}
	return fmt.Sprintf("stopped by a signal after %d of %d logs; nothing after that was checked", done, s.Total)
}

// WriteCheckLogText writes the text report of a finished check-log run:
// the listed findings of each log, the stale baseline entries, then the
// statistics footer and the result (as CheckLogText streams it).
func WriteCheckLogText(w io.Writer, s *logcheck.Summary) error {
	t := NewCheckLogText(w, s.MaxFindings)
	for _, f := range s.Files {
		for _, fd := range f.Listed {
			t.Finding(fd)
		}
		t.File(f)
	}
	return t.Finish(s)
}
