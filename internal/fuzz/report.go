package fuzz

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// ReportFormat and ReportVersion identify the JSON report.
const (
	ReportFormat  = "conform-fuzz"
	ReportVersion = 1
)

// Report is one campaign (one shard of it).
type Report struct {
	Format         string                 `json:"format"`
	Version        int                    `json:"version"`
	Implementation adapter.Implementation `json:"implementation"`
	Protocol       int                    `json:"protocol"`
	Adapter        []string               `json:"adapter,omitempty"` // argv; empty for the embedded reference
	Seed           uint64                 `json:"seed"`
	Ops            []string               `json:"ops"`       // the op rotation: case k is ops[k mod len]
	FirstCase      int                    `json:"firstCase"` // --case
	Planned        int                    `json:"planned,omitempty"`
	Shard          *Shard                 `json:"shard,omitempty"`
	Jobs           int                    `json:"jobs"`
	Started        time.Time              `json:"started"`
	CampaignMS     float64                `json:"campaignMs"` // running the cases
	DurationMS     float64                `json:"durationMs"` // with shrinking and saving
	ShrinkMS       float64                `json:"shrinkMs"`   // grouping and shrinking the findings
	Cases          int                    `json:"cases"`      // cases run (with a verdict)
	CasesPerSecond float64                `json:"casesPerSecond"`
	// Totals counts the cases' verdicts; Mismatches … Errors repeat the
	// failing ones.
	Totals          map[verdict.Verdict]int `json:"totals"`
	Mismatches      int                     `json:"mismatches"`
	Crashes         int                     `json:"crashes"`
	Timeouts        int                     `json:"timeouts"`
	Errors          int                     `json:"errors"`
	GeneratorErrors int                     `json:"generatorErrors"`
	PerOp           []OpStats               `json:"perOp"`
	FirstFailing    *CaseRef                `json:"firstFailing,omitempty"`
	Findings        []Finding               `json:"findings"`
	Interrupted     bool                    `json:"interrupted,omitempty"`
}

// Shard is --shard i/n.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// OpStats counts one op's cases.
type OpStats struct {
	Op              string                  `json:"op"`
	Cases           int                     `json:"cases"`
	Variants        map[string]int          `json:"variants"` // cases per metamorphic variant
	Totals          map[verdict.Verdict]int `json:"totals"`
	GeneratorErrors int                     `json:"generatorErrors,omitempty"`
}

// CaseRef names one case of the campaign.
type CaseRef struct {
	Case    int    `json:"case"`
	Op      string `json:"op"`
	Seed    uint64 `json:"caseSeed"` // s_k, rapid's seed for the case
	Variant string `json:"variant,omitempty"`
	Key     string `json:"finding,omitempty"`
}

// Finding is one bug: every case whose failure shrinks to the same cause
// (group.go), reported by its first case and its smallest example.
type Finding struct {
	ID      string        `json:"id"`              // Key.String()
	Key     Key           `json:"key"`             // the cause: the example's key
	Keys    []string      `json:"keys"`            // the kinds of failure grouped, by first case
	Cause   string        `json:"cause,omitempty"` // the deviation model that explains it, if one does
	Count   int           `json:"count"`           // cases of this finding
	First   CaseRef       `json:"first"`
	Broken  []string      `json:"broken"` // requirement IDs the minimal case breaks
	Message string        `json:"message,omitempty"`
	Stderr  string        `json:"stderr,omitempty"`
	Diffs   []runner.Diff `json:"diffs,omitempty"` // the minimal case's
	// Input is the minimal input's JSON text (the first case's when not
	// shrunk).
	Input json.RawMessage `json:"input"`
	// InputText is Input's exact JSON text when it holds a lone surrogate
	// (Input then holds U+FFFD there, for strict readers; issue 21).
	InputText    string     `json:"inputText,omitempty"`
	Size         Size       `json:"size"`
	OriginalSize Size       `json:"originalSize"`
	Shrink       ShrinkInfo `json:"shrink"`
	Repro        string     `json:"repro"`
	Saved        *Saved     `json:"saved,omitempty"`

	input Input
}

// ShrinkInfo says how a finding was shrunk.
type ShrinkInfo struct {
	Shrunk           bool    `json:"shrunk"`
	Runs             int     `json:"runs"`     // adapter exchanges while shrinking
	MemoHits         int     `json:"memoHits"` // candidates already judged
	DurationMS       float64 `json:"durationMs"`
	FirstDrawMatches bool    `json:"firstDrawMatches"`
	Note             string  `json:"note,omitempty"`
}

// Conformant reports whether no case failed: no mismatch, crash, timeout or
// protocol error.
func (r *Report) Conformant() bool {
	return r.Mismatches+r.Crashes+r.Timeouts+r.Errors == 0
}

// FailingCases is the number of cases with a finding.
func (r *Report) FailingCases() int { return r.Mismatches + r.Crashes + r.Timeouts + r.Errors }

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	out := *r
	out.Findings = append(make([]Finding, 0, len(r.Findings)), r.Findings...)
	var raws []report.RawValue
	for i := range out.Findings {
		f := &out.Findings[i]
		raws = append(raws, report.RawValue{Value: &f.Input, Text: &f.InputText})
		f.Diffs = append([]runner.Diff(nil), f.Diffs...)
		for j := range f.Diffs {
			d := &f.Diffs[j]
			raws = append(raws, report.RawValue{Value: &d.WantJSON, Text: &d.WantText}, report.RawValue{Value: &d.GotJSON, Text: &d.GotText})
		}
	}
	return report.WriteIndentedJSON(w, &out, raws)
}

// ---------------------------------------------------------------------------
// text

// Plural is "1 finding" or "n findings".
func Plural(n int, one, many string) string { return plural(n, one, many) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func (r *Report) implementation() string {
	i := r.Implementation
	s := i.Name
	if i.Version != "" {
		s += " " + i.Version
	}
	if i.Language != "" {
		s += " (" + i.Language + ")"
	}
	if len(r.Adapter) > 0 {
		s += " via " + ShellJoin(r.Adapter)
	} else {
		s += ", in process"
	}
	return s // each format escapes it (report.Text, report.MDCode)
}

// summaryFrom is how many findings make the text report open with a table
// of them, one line each, before the details.
const summaryFrom = 4

func (r *Report) scope() string {
	var parts []string
	parts = append(parts, fmt.Sprintf("seed %d", r.Seed))
	switch {
	case r.Planned > 0 && r.Shard == nil:
		parts = append(parts, fmt.Sprintf("cases %d..%d", r.FirstCase, r.FirstCase+r.Planned-1))
	case r.Planned == 0:
		parts = append(parts, fmt.Sprintf("cases from %d until the time ran out", r.FirstCase))
	}
	if r.Shard != nil {
		parts = append(parts, fmt.Sprintf("shard %d/%d (cases k ≡ %d mod %d, %d planned)", r.Shard.Index, r.Shard.Count, r.Shard.Index, r.Shard.Count, r.Planned))
	}
	parts = append(parts, plural(r.Jobs, "job", "jobs"))
	return strings.Join(parts, ", ")
}

func (r *Report) throughput() string {
	return fmt.Sprintf("%s in %.2f s (%.0f cases/s)", plural(r.Cases, "case", "cases"), r.CampaignMS/1000, r.CasesPerSecond)
}

func variantList(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// opColumns are the verdict columns of the per-op table.
var opColumns = []verdict.Verdict{verdict.Pass, verdict.Fail, verdict.Crash, verdict.Timeout, verdict.Error, verdict.Unsupported, verdict.Skipped}

// diffLines renders runner diffs, one header line and want/got lines each,
// at most max of them.
func diffLines(diffs []runner.Diff, max int) []string {
	var out []string
	for i, d := range diffs {
		if i == max {
			out = append(out, fmt.Sprintf("… and %d more", len(diffs)-max))
			break
		}
		field := d.Field
		if field == "" {
			field = "(answer)"
		}
		head := fmt.Sprintf("%s %s [%s]: %s", field, d.Path, d.Comparator, d.Message)
		if len(d.Requirements) > 0 {
			head += " (" + strings.Join(d.Requirements, ", ") + ")"
		}
		out = append(out, head)
		if d.Want != "" || d.Got != "" {
			out = append(out, "  want: "+d.Want, "  got:  "+d.Got)
		}
	}
	return out
}

// maxInputShown bounds the input text shown in text and Markdown reports
// (the JSON report and the saved fixture have it whole).
const maxInputShown = 4000

func (f *Finding) sizeLine() string {
	s := f.Size.Summary
	switch {
	case f.Shrink.Shrunk && f.OriginalSize.Summary != f.Size.Summary:
		s += fmt.Sprintf("; shrunk from %s in %d runs, %.1f s", f.OriginalSize.Summary, f.Shrink.Runs, f.Shrink.DurationMS/1000)
	case f.Shrink.Shrunk:
		s += fmt.Sprintf("; already minimal (%d runs)", f.Shrink.Runs)
	case f.Shrink.Note != "":
		s += "; not shrunk: " + f.Shrink.Note
	}
	return s
}

func (f *Finding) headline(total int) string {
	s := fmt.Sprintf("%s: %d of %d cases; first case %d (case seed %d", f.ID, f.Count, total, f.First.Case, f.First.Seed)
	if f.First.Variant != "" {
		s += ", variant " + f.First.Variant
	}
	return s + ")"
}

// WriteText writes the report for people.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "conform fuzz: %s\n", report.Text(r.implementation()))
	fmt.Fprintf(&b, "%s\n", r.scope())
	fmt.Fprintf(&b, "%s\n\n", r.throughput())
	fmt.Fprintf(&b, "%-16s %7s  ", "op", "cases")
	for _, v := range opColumns {
		fmt.Fprintf(&b, "%*s ", max(5, len(v)), v)
	}
	b.WriteString(" variants\n")
	for _, st := range r.PerOp {
		fmt.Fprintf(&b, "%-16s %7d  ", report.Text(st.Op), st.Cases)
		for _, v := range opColumns {
			fmt.Fprintf(&b, "%*d ", max(5, len(v)), st.Totals[v])
		}
		fmt.Fprintf(&b, " %s\n", report.Text(variantList(st.Variants)))
	}
	fmt.Fprintf(&b, "\nmismatches %d, crashes %d, timeouts %d, errors %d", r.Mismatches, r.Crashes, r.Timeouts, r.Errors)
	if r.GeneratorErrors > 0 {
		fmt.Fprintf(&b, ", generator errors %d (conform bug)", r.GeneratorErrors)
	}
	b.WriteString("\n")
	if ff := r.FirstFailing; ff != nil {
		fmt.Fprintf(&b, "first failing: case %d (%s, case seed %d) — %s\n", ff.Case, report.Text(ff.Op), ff.Seed, report.Text(fmt.Sprint(ff.Key)))
	}
	if len(r.Findings) >= summaryFrom {
		b.WriteString("\nfindings (each below with its own minimal input):\n")
		for i, f := range r.Findings {
			fmt.Fprintf(&b, "  %3d  %7d cases  %s\n", i+1, f.Count, report.Text(f.ID))
		}
	}
	for i, f := range r.Findings {
		// Every string of a finding may be the adapter's: report.Text.
		fmt.Fprintf(&b, "\nFINDING %d/%d %s\n", i+1, len(r.Findings), report.Text(f.headline(r.Cases)))
		if f.Cause != "" {
			fmt.Fprintf(&b, "  cause: the harness %s\n", report.Text(f.Cause))
		}
		if len(f.Keys) > 1 {
			fmt.Fprintf(&b, "  groups %d kinds of failure: %s\n", len(f.Keys), report.Text(strings.Join(f.Keys, "; ")))
		}
		fmt.Fprintf(&b, "  minimal input (%s):\n", report.Text(f.sizeLine()))
		fmt.Fprintf(&b, "    %s\n", report.Text(shortText(string(f.Input), maxInputShown)))
		if f.Message != "" {
			fmt.Fprintf(&b, "  message: %s\n", report.Text(shortText(f.Message, 400)))
		}
		if len(f.Diffs) > 0 {
			b.WriteString("  diff:\n")
			for _, l := range diffLines(f.Diffs, 6) {
				fmt.Fprintf(&b, "    %s\n", report.Text(l))
			}
		}
		if f.Stderr != "" {
			var lines []string
			for _, l := range strings.Split(strings.TrimRight(shortText(f.Stderr, 800), "\n"), "\n") {
				lines = append(lines, report.Text(l))
			}
			fmt.Fprintf(&b, "  stderr (tail):\n    | %s\n", strings.Join(lines, "\n    | ")) // quoted: no line of its own
		}
		if len(f.Broken) > 0 {
			fmt.Fprintf(&b, "  breaks: %s\n", report.Text(strings.Join(f.Broken, ", ")))
		}
		fmt.Fprintf(&b, "  reproduce: %s\n", report.Text(f.Repro))
		if f.Saved != nil {
			fmt.Fprintf(&b, "  saved: %s (and %s)\n", report.Text(f.Saved.Fixture), report.Text(f.Saved.Golden))
		}
	}
	b.WriteString("\n")
	switch {
	case r.Interrupted:
		fmt.Fprintf(&b, "INTERRUPTED after %s\n", plural(r.Cases, "case", "cases"))
	case !r.Conformant():
		fmt.Fprintf(&b, "FAIL: %s in %s\n", plural(len(r.Findings), "finding", "findings"), plural(r.FailingCases(), "failing case", "failing cases"))
	default:
		fmt.Fprintf(&b, "OK: no mismatch in %s\n", plural(r.Cases, "case", "cases"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func oneLine(s string) string { return strings.ReplaceAll(shortText(s, 400), "\n", `\n`) }

// ---------------------------------------------------------------------------
// JUnit

// JUnit returns the report as JUnit XML: one suite per op with one passing
// test case for the op's campaign, and one failing test case per finding
// (a <failure> for a mismatch, an <error> for a crash, timeout or protocol
// error).
func (r *Report) JUnit() *report.TestSuites {
	ts := &report.TestSuites{Name: "conform fuzz", Time: report.Seconds(r.DurationMS / 1000)}
	byOp := map[string][]Finding{}
	for _, f := range r.Findings {
		byOp[f.Key.Op] = append(byOp[f.Key.Op], f)
	}
	for _, st := range r.PerOp {
		s := report.TestSuite{Name: "fuzz " + st.Op, Timestamp: r.Started.Format(time.RFC3339)}
		camp := report.TestCase{
			Name:      fmt.Sprintf("%s: %s (seed %d)", st.Op, plural(st.Cases, "case", "cases"), r.Seed),
			Classname: "fuzz." + st.Op,
			SystemOut: fmt.Sprintf("verdicts: %s\nvariants: %s\n", verdictList(st.Totals), variantList(st.Variants)),
		}
		if st.Cases == 0 || st.Cases == st.Totals[verdict.Unsupported] {
			camp.Skipped = &report.Outcome{Message: "no case of this op ran (unsupported by the adapter, or none drawn)"}
		}
		s.Cases = append(s.Cases, camp)
		for _, f := range byOp[st.Op] {
			tc := report.TestCase{Name: f.ID, Classname: "fuzz." + st.Op}
			o := &report.Outcome{Message: findingMessage(f), Type: string(f.Key.Verdict), Text: f.detail()}
			if f.Key.Verdict == verdict.Fail {
				tc.Failure = o
			} else {
				tc.Error = o
			}
			s.Cases = append(s.Cases, tc)
		}
		ts.Suites = append(ts.Suites, s)
	}
	if r.Interrupted { // a campaign cut short is no pass (issue 21)
		ts.Suites = append(ts.Suites, report.TestSuite{Name: "conform", Cases: []report.TestCase{{Name: "incomplete", Classname: "conform",
			Error: &report.Outcome{Type: "incomplete", Message: fmt.Sprintf("the campaign was interrupted after %s: the rest did not run", plural(r.Cases, "case", "cases"))}}}})
	}
	return ts
}

func verdictList(m map[verdict.Verdict]int) string {
	var parts []string
	for _, v := range verdict.All {
		if m[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, m[v]))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func findingMessage(f Finding) string {
	msg := fmt.Sprintf("%d cases", f.Count)
	if len(f.Diffs) > 0 {
		msg += ": " + f.Diffs[0].Message
	} else if f.Message != "" {
		msg += ": " + oneLine(f.Message)
	}
	return msg
}

// detail is a finding's body for JUnit and Markdown.
func (f *Finding) detail() string {
	var b strings.Builder
	fmt.Fprintf(&b, "first case %d (case seed %d", f.First.Case, f.First.Seed)
	if f.First.Variant != "" {
		b.WriteString(", variant " + f.First.Variant)
	}
	fmt.Fprintf(&b, ")\nminimal input (%s):\n%s\n", f.sizeLine(), shortText(string(f.Input), maxInputShown))
	for _, l := range diffLines(f.Diffs, 6) {
		b.WriteString(l + "\n")
	}
	if len(f.Broken) > 0 {
		fmt.Fprintf(&b, "breaks: %s\n", strings.Join(f.Broken, ", "))
	}
	fmt.Fprintf(&b, "reproduce: %s\n", f.Repro)
	if f.Saved != nil {
		fmt.Fprintf(&b, "saved: %s\n", f.Saved.Fixture)
	}
	return b.String()
}

// WriteJUnit writes the JUnit XML report.
func (r *Report) WriteJUnit(w io.Writer) error { return r.JUnit().Write(w) }

// ---------------------------------------------------------------------------
// Markdown

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for a pull
// request comment or $GITHUB_STEP_SUMMARY.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	status := "✅ no mismatch"
	if !r.Conformant() {
		status = fmt.Sprintf("❌ %s", plural(len(r.Findings), "finding", "findings"))
	}
	if r.Interrupted { // a campaign cut short is no pass (issue 21)
		status = fmt.Sprintf("⚠️ INCOMPLETE (interrupted after %s), %s", plural(r.Cases, "case", "cases"), strings.TrimPrefix(status, "✅ "))
	}
	fmt.Fprintf(&b, "## conform fuzz: %s\n\n", status)
	fmt.Fprintf(&b, "%s  \n%s  \n%s\n\n", report.MDCode(r.implementation()), r.scope(), r.throughput())
	t := report.Table{Header: []string{"op", "cases"}, Align: []report.Align{report.AlignLeft, report.AlignRight}}
	for _, v := range opColumns {
		t.Header = append(t.Header, string(v))
		t.Align = append(t.Align, report.AlignRight)
	}
	t.Header = append(t.Header, "variants")
	for _, st := range r.PerOp {
		row := []string{report.MDCode(st.Op), strconv.Itoa(st.Cases)}
		for _, v := range opColumns {
			row = append(row, strconv.Itoa(st.Totals[v]))
		}
		t.Rows = append(t.Rows, append(row, report.MDCode(variantList(st.Variants))))
	}
	if err := t.Write(&b); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\nmismatches %d, crashes %d, timeouts %d, errors %d\n", r.Mismatches, r.Crashes, r.Timeouts, r.Errors)
	if len(r.Findings) > 0 {
		b.WriteString("\n### Findings\n\n")
		ft := report.Table{
			Header: []string{"#", "finding", "cases", "first case", "minimal input", "breaks"},
			Align:  []report.Align{report.AlignRight, report.AlignLeft, report.AlignRight, report.AlignRight},
		}
		for i, f := range r.Findings {
			ft.Rows = append(ft.Rows, []string{strconv.Itoa(i + 1), report.MDCode(f.ID), strconv.Itoa(f.Count), strconv.Itoa(f.First.Case), report.MDCode(f.Size.Summary), report.MDCode(strings.Join(f.Broken, ", "))})
		}
		if err := ft.Write(&b); err != nil {
			return err
		}
		for i, f := range r.Findings {
			fmt.Fprintf(&b, "\n<details><summary>%d. %s: %s</summary>\n\n", i+1, report.HTMLCode(f.ID), report.HTMLCode(findingMessage(f)))
			fmt.Fprintf(&b, "Minimal input (%s):\n\n%s\n", report.MDCode(f.sizeLine()), report.MDFence("json", shortText(string(f.Input), maxInputShown)))
			if lines := diffLines(f.Diffs, 6); len(lines) > 0 {
				var esc []string
				for _, l := range lines {
					esc = append(esc, report.Text(l))
				}
				fmt.Fprintf(&b, "%s\n", report.MDFence("", strings.Join(esc, "\n")))
			}
			fmt.Fprintf(&b, "Reproduce: %s\n", report.MDCode(f.Repro))
			if f.Saved != nil {
				fmt.Fprintf(&b, "\nSaved: %s\n", report.MDCode(f.Saved.Fixture))
			}
			b.WriteString("\n</details>\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ---------------------------------------------------------------------------

// ShellJoin quotes argv for a POSIX shell: words made only of safe
// characters stay bare, others are single-quoted.
func ShellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = ShellQuote(a)
	}
	return strings.Join(out, " ")
}

// ShellQuote quotes one word for a POSIX shell.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=@%+,", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
