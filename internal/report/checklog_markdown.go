package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// WriteCheckLogMarkdown writes the markdown report of a check-log run: a
// verdict line and a compliance table with a row per checked requirement
// (CheckLogRequirements), then notes on stale baseline entries, unreadable
// logs and unlisted findings.
func WriteCheckLogMarkdown(w io.Writer, s *logcheck.Summary) error {
	var b strings.Builder
	st, counts, baselined := s.Totals()
	b.WriteString("### conform check-log\n\n")
	verdict := map[string]string{logcheck.ResultPass: "✅ **PASS**", logcheck.ResultFail: "❌ **FAIL**", logcheck.ResultError: "💥 **ERROR**",
		logcheck.ResultInterrupted: "⏹️ **INTERRUPTED** (partial report)"}[s.Result()]
	fmt.Fprintf(&b, "%s — %s, %d events, %s; %s, %s, %d unprovable", verdict, plural(s.FileCount(), "log"), st.Events, byteSize(st.Bytes),
		plural(counts[logcheck.Violation], "violation"), plural(counts[logcheck.Warning], "warning"), counts[logcheck.Unprovable])
	if s.Baseline != nil {
		fmt.Fprintf(&b, "; %d baselined", baselined)
	}
	fmt.Fprintf(&b, " (fail on: %s)\n\n", s.FailOn)
	t := Table{
		Header: []string{"Requirement", "Status", "Violations", "Warnings", "Unprovable", "Baselined", "First example"},
		Align:  []Align{AlignLeft, AlignCenter, AlignRight, AlignRight, AlignRight, AlignRight, AlignLeft},
	}
	for _, id := range CheckLogRequirements(s) {
		tl := s.Requirement(id)
		status := "✅ pass"
		switch {
		case tl.Failing(s.FailOn) > 0:
			status = "❌ fail"
		case tl.Open[logcheck.Warning] > 0:
			status = "⚠️ warning"
		case tl.Open[logcheck.Unprovable] > 0:
			status = "❔ unprovable"
		case tl.Baselined > 0:
			status = "🔕 baselined"
		}
		example := ""
		if fd := tl.First; fd != nil {
			example = MDCode(locationOf(fd)) + " " + MDCode(truncateRunes(fd.Message, 160))
			if fd.Baseline != nil {
				example += " (baselined)"
			}
		}
		t.Rows = append(t.Rows, []string{MDCode(id), status,
			fmt.Sprint(tl.Open[logcheck.Violation]), fmt.Sprint(tl.Open[logcheck.Warning]), fmt.Sprint(tl.Open[logcheck.Unprovable]),
			fmt.Sprint(tl.Baselined), example})
	}
	if err := t.Write(&b); err != nil {
		return err
	}
	var notes []string
	for _, e := range s.Stale {
		notes = append(notes, fmt.Sprintf("stale baseline entry %s matches no finding (reason: %s)", MDCode(e.String()), MDCode(e.Reason)))
	}
	for _, f := range s.Files {
		if f.Err != nil {
			notes = append(notes, fmt.Sprintf("%s could not be read: %s", MDCode(f.Name), MDCode(f.Err.Error())))
		}
		for _, n := range fileNotes(f) {
			notes = append(notes, mdNote(n))
		}
	}
	if s.Interrupted {
		notes = append(notes, "interrupted: "+checkLogPartial(s))
	}
	if s.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d findings not listed (--max-findings %d); they are counted above", s.Dropped, s.MaxFindings))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString("- " + strings.ReplaceAll(n, "\n", " ") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// locationOf is file:line unescaped, for MDCode.
func locationOf(f *logcheck.RunFinding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.File, f.Line)
	}
	return f.File
}

// truncateRunes cuts s to n runes, marking the cut with "…".
func truncateRunes(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}
