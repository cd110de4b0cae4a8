package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// maxMarkdownFailures is how many failing cases the Markdown report lists
// under its table; a PR comment should stay readable.
const maxMarkdownFailures = 20

// WriteRunMarkdown writes a run as GitHub-flavoured Markdown, for a pull
// request comment or $GITHUB_STEP_SUMMARY: a short header with the
// implementation and the result, a compliance table per requirement
// (requirement, cases, pass, fail, other; see RunRequirements) and the
// first failing cases.
func WriteRunMarkdown(w io.Writer, r *runner.Report) error {
	var b strings.Builder
	totals := runTotals(r)
	fmt.Fprintf(&b, "### conform run — %s\n\n", MDCode((&Model{Run: r}).Implementation()))
	result := "✅ **CONFORMANT**"
	switch {
	case IncompleteBanner(r) != "":
		result = "⚠️ **INCOMPLETE** ❌ **NONCONFORMANT**"
	case !r.Conformant():
		result = "❌ **NONCONFORMANT**"
	case Partial(r) != "":
		result = "➖ **PARTIAL** (conformant on the selected cases only)"
	}
	fmt.Fprintf(&b, "%s — %s (%s); protocol %d", result, SummaryLine(totals), plural(len(r.Cases), "case"), r.Protocol)
	if len(r.Adapter) > 0 {
		fmt.Fprintf(&b, ", adapter %s", MDCode(QuoteArgv(r.Adapter)))
	} else {
		b.WriteString(", the embedded reference")
	}
	fmt.Fprintf(&b, ", %s", msDuration(r.DurationMS))
	if r.Conform != "" || r.CaseSet != "" {
		fmt.Fprintf(&b, "; conform %s, case set %s", MDCode(r.Conform), MDCode(r.CaseSet))
	}
	b.WriteString("\n\n")
	if IncompleteBanner(r) != "" {
		b.WriteString("> [!WARNING]\n> INCOMPLETE RUN: " + MDCode((&Model{Run: r}).Stopped()) + "; this report is no pass\n\n")
	} else if p := Partial(r); p != "" {
		b.WriteString("> [!NOTE]\n> Partial run: " + p + ".\n\n") // counts only
	}
	if reasons := runReasons(r); len(reasons) > 0 {
		b.WriteString("**Why nonconformant**\n\n")
		for _, q := range reasons {
			b.WriteString("- " + MDCode(q.Message) + "\n")
		}
		b.WriteString("\n")
	}
	if r.Fault != nil {
		b.WriteString("**Start fault**: " + MDCode(oneLine(r.Fault.Message, 300)) + "\n\n")
	}
	if notes := (&Model{Run: r}).Notes(); len(notes) > 0 { // closing the sessions: docs/protocol.md, Shutdown
		b.WriteString("**Notes**\n\n")
		for _, n := range notes {
			b.WriteString("- " + mdNote(n) + "\n")
		}
		b.WriteString("\n")
	}

	t := Table{
		Header: []string{"Requirement", "Level", "Status", "Cases", "Pass", "Fail", "Other"},
		Align:  []Align{AlignLeft, AlignLeft, AlignLeft, AlignRight, AlignRight, AlignRight, AlignRight},
	}
	for _, q := range RunRequirements(r) {
		if q.Cases == 0 {
			continue // not run: counted below
		}
		mark := "✅"
		switch {
		case q.Fail > 0:
			mark = "❌"
		case q.Pass == 0:
			mark = "➖"
		}
		t.Rows = append(t.Rows, []string{mark + " " + MDCode(q.ID), q.Level, q.Status, fmt.Sprint(q.Cases), fmt.Sprint(q.Pass), fmt.Sprint(q.Fail), fmt.Sprint(q.XFail + q.Other)})
	}
	if len(t.Rows) == 0 {
		b.WriteString("No requirement was checked.\n")
	} else if err := t.Write(&b); err != nil {
		return err
	}
	if rest := notRun(RunRequirements(r)); rest != "" {
		b.WriteString("\n" + rest + "\n")
	}

	var failing []*runner.CaseResult
	for i := range r.Cases {
		if r.Cases[i].Verdict.FailsRun() {
			failing = append(failing, &r.Cases[i])
		}
	}
	if len(failing) > 0 {
		fmt.Fprintf(&b, "\n**Failing cases** (%d)\n\n", len(failing))
		for i, c := range failing {
			if i == maxMarkdownFailures {
				fmt.Fprintf(&b, "- … and %d more (`conform run --format json` lists them all)\n", len(failing)-maxMarkdownFailures)
				break
			}
			fmt.Fprintf(&b, "- %s **%s**", MDCode(c.ID), c.Verdict)
			if len(c.Broken) > 0 {
				b.WriteString(" fails " + MDCode(strings.Join(c.Broken, ", ")))
			}
			if why := caseReason(c); why != "" {
				b.WriteString(": " + MDCode(oneLine(why, 160)))
			}
			b.WriteString("\n\n  <details><summary>diff, requirements and reproduction</summary>\n\n")
			b.WriteString(indent(strings.TrimRight(MDFence("", caseDetail(c, 0)), "\n"), "  ") + "\n\n  </details>\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// caseReason is one line saying why a case fails: its first diff, its
// fault, or its stale baseline entry.
func caseReason(c *runner.CaseResult) string {
	switch {
	case c.Verdict == verdict.XPass:
		return "stale baseline entry (" + c.Baseline + ")"
	case len(c.Diffs) > 0:
		d := c.Diffs[0]
		switch {
		case d.Path != "":
			return d.Path + ": " + d.Message
		case d.Field != "" && !strings.HasPrefix(d.Message, d.Field):
			return d.Field + ": " + d.Message
		}
		return d.Message
	}
	return c.Message
}

// notRun is one line counting the requirements the run's cases do not
// cite, by status.
func notRun(rows []runner.RequirementRow) string {
	counts := map[string]int{}
	var order []string
	for _, q := range rows {
		if q.Cases > 0 {
			continue
		}
		if counts[q.Status] == 0 {
			order = append(order, q.Status)
		}
		counts[q.Status]++
	}
	if len(order) == 0 {
		return ""
	}
	parts := make([]string, len(order))
	for i, st := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[st], st)
	}
	return "Requirements no case of this run cites: " + strings.Join(parts, ", ") + " (`conform run --format json` lists each with its reason)."
}
