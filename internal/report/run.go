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
	"github.com/dsh-conform/conform/spec"
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
		fmt.Fprintf(&b, " (%s)", textSafe(r.Implementation.Language))
	}
	fmt.Fprintf(&b, ", protocol %d\n", r.Protocol)
	if len(r.Adapter) > 0 {
		fmt.Fprintf(&b, "adapter: %s\n", textSafe(QuoteArgv(r.Adapter)))
	} else {
		b.WriteString("adapter: the embedded reference\n")
	}
	cases := plural(len(r.Cases), "case")
	if opt.TotalCases > len(r.Cases) {
		cases = fmt.Sprintf("%d of %d cases", len(r.Cases), opt.TotalCases)
	}
	fmt.Fprintf(&b, "ran %s in %s\n", cases, msDuration(r.DurationMS))
	for _, n := range r.Notes { // closing the sessions: docs/protocol.md, Shutdown
		fmt.Fprintf(&b, "note (%s): %s\n", n.Kind, textSafe(n.Message))
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
	rows := RunRequirements(r)
	failing := 0
	for _, q := range rows {
		if q.Fail > 0 {
			failing++
		}
	}
	switch {
	case len(rows) == 0:
		b.WriteString("requirements: none checked\n")
	case failing == 0 && !opt.Verbose:
		fmt.Fprintf(&b, "requirements: %d checked, none failing\n", len(rows))
	default:
		fmt.Fprintf(&b, "requirements: %d checked, %d failing\n", len(rows), failing)
		var table [][]string
		more := 0
		for _, q := range rows {
			switch {
			case q.Fail == 0 && !opt.Verbose:
			case len(table) == maxTextRequirements && !opt.Verbose:
				more++
			default:
				table = append(table, []string{"  " + q.ID, fmt.Sprint(q.Cases), fmt.Sprint(q.Fail)})
			}
		}
		writeAligned(&b, []string{"  requirement", "cases", "failing"}, table)
		if more > 0 {
			fmt.Fprintf(&b, "  ... and %d more failing requirements (-v lists every requirement)\n", more)
		}
	}

	// The line CI reads.
	b.WriteString("\n" + SummaryLine(totals) + "\n")
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

// ImplementationName is "name version" from the handshake, or a
// placeholder when the adapter gave no name.
func ImplementationName(r *runner.Report) string {
	name := strings.TrimSpace(r.Implementation.Name)
	if name == "" {
		name = "(unnamed implementation)"
	}
	if v := strings.TrimSpace(r.Implementation.Version); v != "" {
		name += " " + v
	}
	return textSafe(name)
}

// writeTextCase writes one listed case: a header line, then its diffs or
// its fault.
func writeTextCase(b *strings.Builder, c *runner.CaseResult, opt RunText) {
	fmt.Fprintf(b, "%s %s", strings.ToUpper(string(c.Verdict)), textSafe(c.ID))
	if len(c.Requirements) > 0 {
		fmt.Fprintf(b, " [%s]", strings.Join(c.Requirements, ", "))
	}
	b.WriteString("\n")
	if len(c.Broken) > 0 {
		fmt.Fprintf(b, "  breaks %s\n", strings.Join(c.Broken, ", "))
	}
	if c.Verdict == verdict.XPass {
		fmt.Fprintf(b, "  stale baseline entry: the case passes (baseline reason: %s)\n", textSafe(c.Baseline))
	}
	if c.Verdict == verdict.XFail {
		fmt.Fprintf(b, "  expected failure (baseline reason: %s)\n", textSafe(c.Baseline))
	}
	if c.Message != "" {
		fmt.Fprintf(b, "  %s\n", textSafe(c.Message))
	}
	for _, d := range c.Diffs {
		b.WriteString(indent(DiffText(d), "  ") + "\n")
	}
	if c.Stderr != "" {
		n := opt.StderrLines
		if n <= 0 {
			n = defaultStderrLines
		}
		lines := lastLines(c.Stderr, n)
		fmt.Fprintf(b, "  adapter stderr (last %s):\n", plural(len(lines), "line"))
		for _, l := range lines {
			b.WriteString("  | " + textSafe(l) + "\n")
		}
	}
}

// DiffText renders one diff in a few lines:
//
//   - content [exact] $.content at byte 7: first difference at byte 7 (line 1, column 8)
//     want: Found·3⏎
//     got:  Found·4⏎
//
// Want and got are the runner's excerpts, whitespace already made visible.
func DiffText(d runner.Diff) string {
	var b strings.Builder
	b.WriteString("- ")
	if d.Field != "" {
		b.WriteString(d.Field + " ")
	} else {
		b.WriteString("(answer) ")
	}
	fmt.Fprintf(&b, "[%s]", d.Comparator)
	if d.Path != "" {
		b.WriteString(" " + d.Path)
	}
	if d.Offset > 0 {
		fmt.Fprintf(&b, " at byte %d", d.Offset)
	}
	if d.Requirement != "" {
		b.WriteString(" (" + d.Requirement + ")")
	}
	b.WriteString(": " + d.Message)
	if d.Want != "" || d.Got != "" {
		b.WriteString("\n    want: " + d.Want)
		b.WriteString("\n    got:  " + d.Got)
	}
	return textSafe(b.String())
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
		cells := []string{textSafe(name), fmt.Sprint(n)}
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

// writeAligned writes a plain-text table: the first column left-aligned,
// the others (counts) right-aligned, two spaces apart.
func writeAligned(b *strings.Builder, header []string, rows [][]string) {
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
			if i == 0 {
				line.WriteString(c + pad)
			} else {
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
			parts[i] = fmt.Sprintf("%s (%s)", op, plural(unsupported[op], "case"))
		}
		out = append(out, "unsupported: the adapter does not list "+strings.Join(parts, ", "))
	}
	const maxReasons = 5
	for i, reason := range skipReasons {
		if i == maxReasons {
			out = append(out, fmt.Sprintf("skipped: %d more reasons (--format json lists them)", len(skipReasons)-maxReasons))
			break
		}
		out = append(out, fmt.Sprintf("skipped: %s: %s", plural(skips[reason], "case"), textSafe(oneLine(reason, 200))))
	}
	if xfail > 0 {
		out = append(out, fmt.Sprintf("xfail: %s failing as the baseline expects", plural(xfail, "case")))
	}
	return out
}

// RequirementRow is one requirement's line in the per-requirement
// summaries.
type RequirementRow struct {
	ID    string
	Cases int // cases that cite or break it
	Pass  int // cases that pass it
	Fail  int // cases that fail it: a diff breaks it, or a fault or a stale baseline entry fails the case
	Other int // unsupported, skipped, xfail
}

// RunRequirements summarizes a run by requirement, in catalogue order
// (requirements the catalogue does not know last, sorted). A case counts
// for every requirement it cites or breaks. A failing case fails the
// requirements it breaks and passes the others it cites (its answer met
// them); a case that crashed, timed out, answered garbage or is a stale
// baseline entry fails every requirement it cites; unsupported, skipped
// and xfail cases count as other.
func RunRequirements(r *runner.Report) []RequirementRow {
	rows := map[string]*RequirementRow{}
	for _, c := range r.Cases {
		broken := map[string]bool{}
		for _, id := range c.Broken {
			broken[id] = true
		}
		seen := map[string]bool{}
		for _, id := range append(append([]string(nil), c.Requirements...), c.Broken...) {
			if seen[id] {
				continue
			}
			seen[id] = true
			row := rows[id]
			if row == nil {
				row = &RequirementRow{ID: id}
				rows[id] = row
			}
			row.Cases++
			switch c.Verdict {
			case verdict.Pass:
				row.Pass++
			case verdict.Fail:
				if broken[id] {
					row.Fail++
				} else {
					row.Pass++
				}
			case verdict.Error, verdict.Timeout, verdict.Crash, verdict.XPass:
				row.Fail++
			default:
				row.Other++
			}
		}
	}
	order := map[string]int{}
	for i, id := range spec.IDs() {
		order[id] = i + 1
	}
	out := make([]RequirementRow, 0, len(rows))
	for _, row := range rows {
		out = append(out, *row)
	}
	sort.Slice(out, func(i, j int) bool {
		oi, oj := order[out[i].ID], order[out[j].ID]
		switch {
		case oi != 0 && oj != 0:
			return oi < oj
		case oi != 0 || oj != 0:
			return oi != 0
		}
		return out[i].ID < out[j].ID
	})
	return out
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
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
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

// textSafe replaces the control characters of adapter-supplied text
// (messages, stderr, names) by visible escapes, so that a report never
// moves the cursor or recolours the terminal. Newlines and tabs stay.
func textSafe(s string) string {
	clean := true
	for _, r := range s {
		if isControl(r) {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isControl(r):
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func isControl(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0)
}

// lastLines returns the last n non-empty-tail lines of s.
func lastLines(s string, n int) []string {
	s = strings.TrimRight(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
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
