package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// The failure detail every run report format shows (issue 12): which
// requirements a case fails, with their statements, each diff in full,
// and a reproduction. Adapter text is quoted or escaped so that nothing
// it sends can start a line of the report.

// line is adapter text made safe for one line: control characters and
// line breaks escaped.
func line(s string) string { return Text(s) }

// quoted is adapter text as a JSON string literal: a message shown in
// quotes, so its own lines and bullets cannot pass for the report's.
func quoted(s string) string { return textSafe(string(jsonjs.AppendString(nil, s))) }

// statement is a requirement's level and statement, or "" when the
// catalogue does not know it.
func statement(id string) string {
	q, ok := spec.Lookup(id)
	if !ok {
		return ""
	}
	return q.Level + ": " + q.Statement
}

// requirementLines are the lines naming what a failing case fails, with
// statements, and what it passes besides.
func requirementLines(c *runner.CaseResult) []string {
	var out []string
	broken := map[string]bool{}
	for _, id := range c.Broken {
		broken[id] = true
		s := "fails " + line(id)
		if st := statement(id); st != "" {
			s += " — " + st
		}
		out = append(out, s)
	}
	if len(c.Broken) == 0 && len(c.Requirements) > 0 && !c.Verdict.Failing() {
		return out
	}
	var passed []string
	for _, id := range c.Requirements {
		if !broken[id] && !slices.Contains(c.Affected, id) {
			passed = append(passed, id)
		}
	}
	if len(c.Affected) > 0 { // issue 20: touched by the cause above, not broken
		out = append(out, "also affected (follows from the cause above, not failed): "+strings.Join(c.Affected, ", "))
	}
	switch {
	case len(c.Broken) == 0 && len(c.Requirements) > 0:
		out = append(out, "cites "+line(strings.Join(c.Requirements, ", "))+" (the case did not run to an answer)")
	case len(passed) > 0:
		out = append(out, "passes its other requirements: "+line(strings.Join(passed, ", ")))
	}
	return out
}

// DiffText renders one diff: a head line, then want and got. A
// multi-line string difference is a unified diff of the two texts; a JSON
// difference shows both whole values (and, for arrays, the first
// differing element).
//
//   - content [exact] $.content at byte 7 (SEARCH-GREP-2): first difference at byte 7 (line 1, column 8)
//     --- want
//     +++ got
//     @@ -1 +1 @@
//     -Found 3 matches
//     +Found 4 matches
func DiffText(d runner.Diff) string {
	var b strings.Builder
	b.WriteString("- ")
	if d.Field != "" {
		b.WriteString(line(d.Field) + " ")
	} else {
		b.WriteString("(answer) ")
	}
	fmt.Fprintf(&b, "[%s]", line(d.Comparator))
	if d.Path != "" { // member names are the adapter's (issue 21)
		b.WriteString(" " + line(d.Path))
	}
	if d.Offset > 0 {
		fmt.Fprintf(&b, " at byte %d", d.Offset)
	}
	switch {
	case len(d.Requirements) > 0:
		b.WriteString(" (" + line(strings.Join(d.Requirements, ", ")) + ")")
	case d.Comparator != runner.CmpProperty:
		b.WriteString(" (no requirement of its own)")
	}
	b.WriteString(": " + line(d.Message))
	if d.Comparator == runner.CmpProperty { // no golden side: what must hold, and what it saw
		if d.Want != "" {
			b.WriteString("\n    must hold: " + textSafe(d.Want))
		}
		if d.GotJSON != nil {
			b.WriteString("\n    got (whole):  " + jsonSide(d.GotJSON, d.GotTooLarge, d.Got))
		}
		return b.String()
	}
	if ws, gs, ok := texts(d); ok && (strings.Contains(ws, "\n") || strings.Contains(gs, "\n")) {
		b.WriteString("\n" + indent(textSafe(unified(ws, gs)), "    "))
		return b.String()
	}
	if d.Element != nil || (d.WantJSON == nil && d.GotJSON == nil) {
		if d.Want != "" || d.Got != "" {
			b.WriteString("\n    want: " + line(d.Want))
			b.WriteString("\n    got:  " + line(d.Got))
		}
		if d.Element == nil {
			return b.String()
		}
	}
	wantStart, gotStart := d.Want, d.Got
	if d.Element != nil { // the excerpts are of the element, shown above
		wantStart, gotStart = "", ""
	}
	b.WriteString("\n    want (whole): " + jsonSide(d.WantJSON, d.WantTooLarge, wantStart))
	b.WriteString("\n    got (whole):  " + jsonSide(d.GotJSON, d.GotTooLarge, gotStart))
	return b.String()
}

// jsonSide is one side's whole value, cut to a bound with its length said
// (issue 21), or (missing), or for a value too large to keep (issue 23),
// the excerpt of its start.
func jsonSide(raw []byte, tooLarge bool, start string) string {
	switch {
	case raw == nil && tooLarge && start != "":
		return fmt.Sprintf("over %d bytes, too large to show whole; it starts %s", runner.MaxWholeBytes, textSafe(start))
	case raw == nil && tooLarge:
		return fmt.Sprintf("over %d bytes, too large to show whole", runner.MaxWholeBytes)
	case raw == nil:
		return "(missing)"
	case len(raw) > maxInlineInput: // a value of any size or depth: cut, its length said
		n := maxInlineInput
		for n > 0 && raw[n]&0xc0 == 0x80 {
			n--
		}
		return fmt.Sprintf("%s… (%d bytes in all; the JSON report holds it whole)", line(string(raw[:n])), len(raw))
	}
	return line(string(raw))
}

// texts returns the two strings of an exact string difference.
func texts(d runner.Diff) (want, got string, ok bool) {
	if d.Comparator != runner.CmpExact || d.WantJSON == nil || d.GotJSON == nil {
		return "", "", false
	}
	w, err1 := jsonjs.Parse(d.WantJSON)
	g, err2 := jsonjs.Parse(d.GotJSON)
	if err1 != nil || err2 != nil {
		return "", "", false
	}
	ws, ok1 := w.Str()
	gs, ok2 := g.Str()
	return ws, gs, ok1 && ok2
}

// unified is a unified diff of two texts (3 lines of context), each line
// made visible so that trailing spaces and control characters show.
func unified(want, got string) string {
	split := func(s string) []string {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = runner.Visible(l) + "\n"
		}
		return lines
	}
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: split(want), B: split(got), FromFile: "want", ToFile: "got", Context: 3,
	})
	if err != nil || text == "" {
		return "want: " + runner.Visible(want) + "\ngot:  " + runner.Visible(got)
	}
	return strings.TrimRight(text, "\n")
}

// maxInlineInput is the largest case input the text formats show inline.
const maxInlineInput = 2000

// caseDetail is the whole detail of a failing case for the text and
// JUnit reports: the requirement lines, the quoted message, every diff,
// the stderr tail (n lines; 0: all) and the reproduction.
func caseDetail(c *runner.CaseResult, stderrLines int) string {
	var b strings.Builder
	for _, l := range requirementLines(c) {
		b.WriteString(l + "\n")
	}
	for _, e := range c.Diagnosis { // issue 20: the deviation that reproduces the answer
		how := e.Behaves
		if e.Cause != "" {
			how += ": " + e.Cause
		}
		fmt.Fprintf(&b, "diagnosis: behaves like the reference with %s (%s; model %s: %s)\n  fix: %s\n",
			how, e.Requirement, e.Model, strings.Join(e.Functions, "; "), e.Fix)
	}
	if c.File != "" {
		b.WriteString("fixture: " + line(c.File) + "\n")
	}
	if c.Message != "" {
		b.WriteString("message: " + quoted(c.Message) + "\n")
	}
	for _, d := range c.Diffs {
		b.WriteString(DiffText(d) + "\n")
	}
	if c.Stderr != "" {
		lines := lastLines(c.Stderr, stderrLines)
		if stderrLines <= 0 {
			lines = lastLines(c.Stderr, len(c.Stderr)+1)
		}
		fmt.Fprintf(&b, "adapter stderr (last %s):\n", plural(len(lines), "line"))
		for _, l := range lines {
			b.WriteString("| " + textSafe(strings.ReplaceAll(l, "\r", `\r`)) + "\n")
		}
	}
	switch {
	case c.Input == nil:
	case len(c.Input) <= maxInlineInput:
		b.WriteString("input: " + line(string(c.Input)) + "\n")
	default:
		fmt.Fprintf(&b, "input: %d bytes (the JSON report holds it; so does the fixture)\n", len(c.Input))
	}
	if m := c.Minimized; m != nil { // issue 20: no model explains it; the smallest input that still fails
		fmt.Fprintf(&b, "minimized input (%s still fails, %s%s): %s\n", line(map[bool]string{true: "the whole answer", false: m.Field}[m.Field == ""]),
			plural(m.Runs, "run"), map[bool]string{true: "; minimization stopped at budget"}[m.Stopped], jsonSide(m.Input, false, ""))
	}
	if c.Reproduce != "" {
		b.WriteString("reproduce: " + line(c.Reproduce) + "\n")
	}
	return b.String()
}
