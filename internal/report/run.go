package report

// The adapter runner's reports: text (run.go), JSON (runjson.go), JUnit
// (runjunit.go), Markdown (runmarkdown.go), the diff of two JSON reports
// (rundiff.go), a baseline of the failures (runbaseline.go) and the
// terminal progress bar (runprogress.go). All of them read one
// runner.Report; none of them runs anything.

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// RunText configures WriteRunText.
type RunText struct {
	// MaxFailures is how many failing cases are listed with their diffs;
	// 0 lists all. The rest are counted in the summary.
	MaxFailures int
	// Verbose lists every requirement in the summary, not only the failing
	// ones, and the expected failures (xfail) with their diffs.
	Verbose bool
	// TotalCases is the size of the case catalogue when the report covers a
	// selection of it (0: unknown or everything).
	TotalCases int
	// StderrLines is how many of the last lines of a fault's stderr are
	// shown (0: 10). The JSON report keeps the whole 4 KiB tail.
	StderrLines int
}

const (
	// defaultStderrLines is RunText.StderrLines' default.
	defaultStderrLines = 10
	// maxTextRequirements is how many failing requirements the text
	// summary lists unless Verbose.
	maxTextRequirements = 30
)

// WriteRunText writes the text report of a run: a header naming the
// implementation, each failing case with its diffs (or its fault and the
// adapter's last stderr lines), a summary by op and by requirement, and a
// final line of the form "N passed, N failed" followed by the counts of
// the other verdicts that occurred.
func WriteRunText(w io.Writer, r *runner.Report, opt RunText) error {
	var b strings.Builder
	totals := runTotals(r)

	// Header.
	fmt.Fprintf(&b, "conform run: %s", ImplementationName(r))
	if r.Implementation.Language != "" {
		fmt.Fprintf(&b, " (%s)", line(r.Implementation.Language))
	}
	fmt.Fprintf(&b, ", protocol %d\n", r.Protocol)
	if r.Conform != "" || r.CaseSet != "" {
		fmt.Fprintf(&b, "conform %s, case set %s\n", line(r.Conform), line(r.CaseSet))
	}
	if len(r.Adapter) > 0 {
		fmt.Fprintf(&b, "adapter: %s\n", line(QuoteArgv(r.Adapter)))
	} else {
		b.WriteString("adapter: the embedded reference\n")
	}
	cases := plural(len(r.Cases), "case")
	if opt.TotalCases > len(r.Cases) {
		cases = fmt.Sprintf("%d of %d cases", len(r.Cases), opt.TotalCases)
	}
	fmt.Fprintf(&b, "ran %s in %s\n", cases, msDuration(r.DurationMS))
	if banner := IncompleteBanner(r); banner != "" {
		b.WriteString("\n" + banner + "\n")
	}
	for _, n := range (&Model{Run: r}).Notes() { // closing the sessions: docs/protocol.md, Shutdown
		b.WriteString(textNote(n) + "\n")
	}
	if r.Fault != nil {
		fmt.Fprintf(&b, "\n%s FAULT: %s\n", line(strings.ToUpper(r.Fault.Kind)), r.Fault.Headline())
		b.WriteString("  message: " + quoted(r.Fault.Message) + "\n")
		for _, l := range lastLines(r.Fault.Stderr, 20) {
			b.WriteString("  | " + line(l) + "\n")
		}
	}

	// Failures.
	listed, dropped := 0, 0
	for i := range r.Cases {
		c := &r.Cases[i]
		if !c.Verdict.FailsRun() && !(opt.Verbose && c.Verdict == verdict.XFail) {
			continue
		}
		if opt.MaxFailures > 0 && listed >= opt.MaxFailures {
			dropped++
			continue
		}
		listed++
		b.WriteString("\n")
		writeTextCase(&b, c, opt)
	}
	if dropped > 0 {
		fmt.Fprintf(&b, "\n... and %d more failing cases (all of them: --max-failures 0, or --format json)\n", dropped)
	}

	// Unsupported ops and skip reasons, grouped.
	if notes := runNotes(r); len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			b.WriteString(n + "\n")
		}
	}

	// Summary by op.
	b.WriteString("\n")
	writeOpTable(&b, r)

	// Summary by requirement.
	b.WriteString("\n")
	writeRequirementSummary(&b, r, opt.Verbose)

	// Why the run fails, when it does.
	if reasons := runReasons(r); len(reasons) > 0 {
		b.WriteString("\nNONCONFORMANT:\n")
		for _, q := range reasons {
			b.WriteString("  - " + line(q.Message) + "\n")
		}
	}

	// The lines CI reads: a run that did not finish or checked a part of
	// the catalogue says so last too (issue 21: no false pass).
	b.WriteString("\n" + SummaryLine(totals) + "\n")
	if banner := IncompleteBanner(r); banner != "" {
		b.WriteString(banner + "\n")
	} else if p := Partial(r); p != "" {
		b.WriteString("PARTIAL: " + p + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SummaryLine is the final line of the text report: "N passed, N failed"
// and then the count of each other verdict that occurred, in report order,
// e.g. "640 passed, 2 failed, 1 crash, 19 unsupported".
func SummaryLine(totals map[verdict.Verdict]int) string {
	parts := []string{fmt.Sprintf("%d passed", totals[verdict.Pass]), fmt.Sprintf("%d failed", totals[verdict.Fail])}
	for _, v := range verdict.All {
		if v == verdict.Pass || v == verdict.Fail || totals[v] == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d %s", totals[v], v))
	}
	return strings.Join(parts, ", ")
}

// IncompleteBanner is the line that says a run did not complete, "" for
// a complete run or one that never started (its fault says so).
func IncompleteBanner(r *runner.Report) string {
	m := &Model{Run: r}
	if m.Complete() || r.Fault != nil {
		return ""
	}
	return "INCOMPLETE RUN: " + line(m.Stopped()) + "; this report is no pass"
}

// stoppedWhy is why a run did not complete, unescaped.
func stoppedWhy(r *runner.Report) string {
	if r.Stopped == "" {
		return fmt.Sprintf("the report does not say it completed (%d cases have a verdict)", len(r.Cases))
	}
	return r.Stopped
}

// Partial says how much of the catalogue a run left out by its selection
// (--op, --run, --requirement, --shard, --rerun-failed), "" when it left
// out nothing: such a run checks only part of the catalogue, and its
// reports say so rather than read as a whole pass.
func Partial(r *runner.Report) string {
	checked, left := Checked(r)
	if left == 0 {
		return ""
	}
	return fmt.Sprintf("the selection checked %s; %d more that other cases of the case set check were not selected", plural(checked, "requirement"), left)
}

// Checked counts a run's requirements the cases ran to a verdict (passed,
// failed, xfail) and those its selection left out (not-selected).
func Checked(r *runner.Report) (checked, notSelected int) {
	for _, q := range RunRequirements(r) {
		switch q.Status {
		case runner.StatusPassed, runner.StatusFailed, runner.StatusXFail:
			checked++
		case runner.StatusNotSelected:
			notSelected++
		}
	}
	return checked, notSelected
}

// ImplementationName is "name version" from the handshake, or a
// placeholder when the adapter gave no name.
func ImplementationName(r *runner.Report) string {
	return line(implName(r))
}

// implName is ImplementationName unescaped, for a format's own escaper.
func implName(r *runner.Report) string {
	name := strings.TrimSpace(r.Implementation.Name)
	if name == "" {
		name = "(unnamed implementation)"
	}
	if v := strings.TrimSpace(r.Implementation.Version); v != "" {
		name += " " + v
	}
	return name
}

// writeTextCase writes one listed case: a header line, then its detail
// (caseDetail), indented.
func writeTextCase(b *strings.Builder, c *runner.CaseResult, opt RunText) {
	fmt.Fprintf(b, "%s %s\n", line(strings.ToUpper(string(c.Verdict))), line(c.ID))
	if c.Verdict == verdict.XPass {
		fmt.Fprintf(b, "  stale baseline entry: the case passes (baseline reason: %s)\n", line(c.Baseline))
	}
	if c.Verdict == verdict.XFail {
		fmt.Fprintf(b, "  expected failure (baseline reason: %s)\n", line(c.Baseline))
	}
	n := opt.StderrLines
	if n <= 0 {
		n = defaultStderrLines
	}
	b.WriteString(indent(strings.TrimRight(caseDetail(c, n), "\n"), "  ") + "\n")
}

// writeOpTable writes the verdict counts by op: pass and fail always, the
// other verdicts when some case has them.
func writeOpTable(b *strings.Builder, r *runner.Report) {
	byOp := map[string]map[verdict.Verdict]int{}
	var ops []string
	for _, c := range r.Cases {
		m := byOp[c.Op]
		if m == nil {
			m = map[verdict.Verdict]int{}
			byOp[c.Op] = m
			ops = append(ops, c.Op)
		}
		m[c.Verdict]++
	}
	sort.Strings(ops)
	totals := runTotals(r)
	cols := []verdict.Verdict{verdict.Pass, verdict.Fail}
	for _, v := range verdict.All {
		if v != verdict.Pass && v != verdict.Fail && totals[v] > 0 {
			cols = append(cols, v)
		}
	}
	header := []string{"op", "cases"}
	for _, v := range cols {
		header = append(header, string(v))
	}
	var rows [][]string
	row := func(name string, m map[verdict.Verdict]int) {
		n := 0
		for _, k := range m {
			n += k
		}
		cells := []string{line(name), fmt.Sprint(n)}
		for _, v := range cols {
			cells = append(cells, fmt.Sprint(m[v]))
		}
		rows = append(rows, cells)
	}
	for _, op := range ops {
		row(op, byOp[op])
	}
	if len(ops) != 1 {
		row("all", totals)
	}
	writeAligned(b, header, rows)
}

// writeAligned writes a plain-text table two spaces apart: the first
// column and the words (level, status, title) left-aligned, the counts
// right-aligned.
func writeAligned(b *strings.Builder, header []string, rows [][]string) {
	left := map[int]bool{} // and the first column, by its own case below
	for i, h := range header {
		left[i] = h == "level" || h == "status" || h == "title"
	}
	width := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range append([][]string{header}, rows...) {
		var line strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				line.WriteString(c + pad)
			case left[i]:
				line.WriteString("  " + c + pad)
			default:
				line.WriteString("  " + pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// runNotes groups the cases that did not run to a verdict of their own:
// unsupported ops, skip reasons, and the expected failures.
func runNotes(r *runner.Report) []string {
	unsupported := map[string]int{}
	var unsupportedOps []string
	skips := map[string]int{}
	var skipReasons []string
	xfail := 0
	for _, c := range r.Cases {
		switch c.Verdict {
		case verdict.Unsupported:
			if unsupported[c.Op] == 0 {
				unsupportedOps = append(unsupportedOps, c.Op)
			}
			unsupported[c.Op]++
		case verdict.Skipped:
			if skips[c.Message] == 0 {
				skipReasons = append(skipReasons, c.Message)
			}
			skips[c.Message]++
		case verdict.XFail:
			xfail++
		}
	}
	var out []string
	if len(unsupportedOps) > 0 {
		parts := make([]string, len(unsupportedOps))
		for i, op := range unsupportedOps {
			parts[i] = fmt.Sprintf("%s (%s)", line(op), plural(unsupported[op], "case"))
		}
		out = append(out, "unsupported: the adapter does not list "+strings.Join(parts, ", "))
	}
	const maxReasons = 5
	for i, reason := range skipReasons {
		if i == maxReasons {
			out = append(out, fmt.Sprintf("skipped: %d more reasons (--format json lists them)", len(skipReasons)-maxReasons))
			break
		}
		out = append(out, fmt.Sprintf("skipped: %s: %s", plural(skips[reason], "case"), line(oneLine(reason, 200))))
	}
	if xfail > 0 {
		out = append(out, fmt.Sprintf("xfail: %s failing as the baseline expects", plural(xfail, "case")))
	}
	return out
}

// RunRequirements is the report's requirement accounting (every
// requirement of the catalogue, runner.Finish), or, for a report that has
// none, the summary of the requirements its cases cite.
func RunRequirements(r *runner.Report) []runner.RequirementRow {
	if r.Requirements != nil {
		return r.Requirements
	}
	return runner.Summarize(r)
}

// runReasons is why the run is nonconformant: the report's own list when
// it has one, else computed.
func runReasons(r *runner.Report) []runner.Reason {
	if r.Nonconformant != nil {
		return r.Nonconformant
	}
	return runner.Reasons(r)
}

// writeRequirementSummary writes the count of requirements by status and
// a table of the failing and never-passing ones (all with verbose).
func writeRequirementSummary(b *strings.Builder, r *runner.Report, verbose bool) {
	rows := RunRequirements(r)
	if len(rows) == 0 {
		b.WriteString("requirements: none checked\n")
		return
	}
	counts := map[string]int{}
	var order []string
	for _, q := range rows {
		if counts[q.Status] == 0 {
			order = append(order, q.Status)
		}
		counts[q.Status]++
	}
	sort.SliceStable(order, func(i, j int) bool { return statusRank(order[i]) < statusRank(order[j]) })
	parts := make([]string, len(order))
	for i, st := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[st], line(st))
	}
	fmt.Fprintf(b, "requirements: %d: %s\n", len(rows), strings.Join(parts, ", "))
	var table [][]string
	more := 0
	for _, q := range rows {
		show := q.Status == runner.StatusFailed || (q.Status == runner.StatusNotExercised && q.Level == "MUST")
		switch {
		case !show && !verbose:
		case len(table) == maxTextRequirements && !verbose:
			more++
		default:
			table = append(table, []string{"  " + line(q.ID), line(q.Level), line(q.Status), fmt.Sprint(q.Cases), fmt.Sprint(q.Pass), fmt.Sprint(q.Fail), line(q.Title)})
		}
	}
	if len(table) > 0 {
		writeAligned(b, []string{"  requirement", "level", "status", "cases", "pass", "fail", "title"}, table)
	}
	if more > 0 {
		fmt.Fprintf(b, "  ... and %d more (-v lists every requirement)\n", more)
	}
}

// statusRank orders the statuses in summaries.
func statusRank(s string) int {
	for i, st := range []string{runner.StatusFailed, runner.StatusPassed, runner.StatusXFail, runner.StatusNotExercised,
		runner.StatusNotSelected, runner.StatusCheckLog, runner.StatusExcluded, runner.StatusUncovered} {
		if s == st {
			return i
		}
	}
	return 99
}

// runTotals counts the verdicts from the cases (the report's own Totals
// may be absent in a hand-made report).
func runTotals(r *runner.Report) map[verdict.Verdict]int {
	return runner.Totals(r.Cases)
}

// QuoteArgv renders an argv the way a shell would read it back.
func QuoteArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = ShellQuote(a)
	}
	return strings.Join(parts, " ")
}

// ShellQuote quotes one word for a POSIX shell: bare when made only of
// safe characters, else single-quoted.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// textSafe is TextBlock: outside text whose lines stay lines.
func textSafe(s string) string { return TextBlock(s) }

// lastLines returns the last n non-empty-tail lines of s.
func lastLines(s string, n int) []string {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	return lines[max(0, len(lines)-n):]
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// oneLine cuts s to n bytes on one line.
func oneLine(s string, n int) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", `\n`)
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// msDuration renders milliseconds for people: "850ms", "1.2s", "2m3s".
func msDuration(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
