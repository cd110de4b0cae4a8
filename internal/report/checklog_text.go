package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// WriteCheckLogText writes the text report of a check-log run: the listed
// findings of each log (file:line: level REQ-ID message), the stale
// baseline entries, then the statistics footer and the result.
func WriteCheckLogText(w io.Writer, s *logcheck.Summary) error {
	var b strings.Builder
	for _, f := range s.Files {
		if len(f.Listed) == 0 && f.Err == nil && f.Dropped == 0 {
			continue
		}
		for _, fd := range f.Listed {
			b.WriteString(checkLogFindingLine(fd) + "\n")
		}
		if f.Dropped > 0 {
			fmt.Fprintf(&b, "%s: %d more findings not listed (--max-findings %d)\n", f.Name, f.Dropped, s.MaxFindings)
		}
		if f.Err != nil {
			fmt.Fprintf(&b, "%s: error: %v\n", f.Name, f.Err)
		}
		b.WriteString("\n")
	}
	for _, e := range s.Stale {
		fmt.Fprintf(&b, "stale baseline entry %s matches no finding (reason: %s)\n", e, e.Reason)
	}
	if len(s.Stale) > 0 {
		b.WriteString("\n")
	}
	st, counts, baselined := s.Totals()
	fmt.Fprintf(&b, "checked %s: %d lines, %d events, %s\n", plural(len(s.Files), "file"), st.Lines, st.Events, byteSize(st.Bytes))
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
	default:
		fmt.Fprintf(&b, "result: ERROR (%s could not be read)\n", plural(s.Errors(), "log"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
