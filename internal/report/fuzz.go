package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// FuzzFormat and FuzzVersion identify the JSON report of conform fuzz
// (spec/schemas/report-fuzz.json).
const (
	FuzzFormat  = "conform-fuzz"
	FuzzVersion = 1
)

// Fuzz is one campaign (one shard of it).
type Fuzz struct {
	Format         string                 `json:"format"`
	Version        int                    `json:"version"`
	Implementation adapter.Implementation `json:"implementation"`
	Protocol       int                    `json:"protocol"`
	Adapter        []string               `json:"adapter,omitempty"` // argv; empty for the embedded reference
	Seed           uint64                 `json:"seed"`
	Ops            []string               `json:"ops"`       // the op rotation: case k is ops[k mod len]
	FirstCase      int                    `json:"firstCase"` // --case
	Planned        int                    `json:"planned,omitempty"`
	Shard          *FuzzShard             `json:"shard,omitempty"`
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
	PerOp           []FuzzOpStats           `json:"perOp"`
	FirstFailing    *FuzzCaseRef            `json:"firstFailing,omitempty"`
	Findings        []FuzzFinding           `json:"findings"`
	Interrupted     bool                    `json:"interrupted,omitempty"`
}

// FuzzShard is --shard i/n.
type FuzzShard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// FuzzOpStats counts one op's cases.
type FuzzOpStats struct {
	Op              string                  `json:"op"`
	Cases           int                     `json:"cases"`
	Variants        map[string]int          `json:"variants"` // cases per metamorphic variant
	Totals          map[verdict.Verdict]int `json:"totals"`
	GeneratorErrors int                     `json:"generatorErrors,omitempty"`
}

// FuzzCaseRef names one case of the campaign.
type FuzzCaseRef struct {
	Case    int    `json:"case"`
	Op      string `json:"op"`
	Seed    uint64 `json:"caseSeed"` // s_k, rapid's seed for the case
	Variant string `json:"variant,omitempty"`
	Key     string `json:"finding,omitempty"`
}

// FuzzFinding is one bug: every case whose failure shrinks to the same cause
// (group.go), reported by its first case and its smallest example.
type FuzzFinding struct {
	ID      string        `json:"id"`              // FuzzKey.String()
	Key     FuzzKey       `json:"key"`             // the cause: the example's key
	Keys    []string      `json:"keys"`            // the kinds of failure grouped, by first case
	Cause   string        `json:"cause,omitempty"` // the deviation model that explains it, if one does
	Count   int           `json:"count"`           // cases of this finding
	First   FuzzCaseRef   `json:"first"`
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
	Size         FuzzSize   `json:"size"`
	OriginalSize FuzzSize   `json:"originalSize"`
	Shrink       FuzzShrink `json:"shrink"`
	Repro        string     `json:"repro"`
	Saved        *FuzzSaved `json:"saved,omitempty"`
}

// FuzzKey identifies a finding by its cause: the op, the first differing
// field and the requirements the case's diffs blame (issue 12), e.g.
// "grep.result content SEARCH-GREP-2" or "run_code.result content
// CODE-NUM-1"; for a fault, the op and the verdict, "grep.result (crash)".
// Results with the same key are one bug, reported once with a count and
// its own shrunk example (fuzz.KeyOf).
type FuzzKey struct {
	Op           string          `json:"op"`
	Field        string          `json:"field,omitempty"`        // "(answer)" for the answer as a whole
	Requirements string          `json:"requirements,omitempty"` // the blamed requirement IDs, sorted, space-separated
	Verdict      verdict.Verdict `json:"verdict"`
}

func (k FuzzKey) String() string {
	switch {
	case k.Verdict != verdict.Fail:
		return k.Op + " (" + string(k.Verdict) + ")"
	case k.Requirements != "":
		return k.Op + " " + k.Field + " " + k.Requirements
	}
	return k.Op + " " + k.Field
}

// FuzzSize describes how big an input is, for the report: the input's
// byte length, the counts that matter for its op, and a one-line summary
// (fuzz.SizeOf).
type FuzzSize struct {
	Bytes   int            `json:"bytes"`
	Counts  map[string]int `json:"counts,omitempty"`
	Summary string         `json:"summary"`
}

// FuzzSaved names the files a finding was saved to.
type FuzzSaved struct {
	ID      string `json:"id"`      // the case ID, "<op>/fuzz-<hash>"
	Fixture string `json:"fixture"` // <dir>/fixtures/<op>/fuzz-<hash>.json
	Golden  string `json:"golden"`  // <dir>/golden/<op>/fuzz-<hash>.json
}

// FuzzShrink says how a finding was shrunk.
type FuzzShrink struct {
	Shrunk           bool    `json:"shrunk"`
	Runs             int     `json:"runs"`     // adapter exchanges while shrinking
	MemoHits         int     `json:"memoHits"` // candidates already judged
	DurationMS       float64 `json:"durationMs"`
	FirstDrawMatches bool    `json:"firstDrawMatches"`
	Note             string  `json:"note,omitempty"`
}

// Conformant reports whether no case failed: no mismatch, crash, timeout or
// protocol error.
func (r *Fuzz) Conformant() bool {
	return r.Mismatches+r.Crashes+r.Timeouts+r.Errors == 0
}

// FailingCases is the number of cases with a finding.
func (r *Fuzz) FailingCases() int { return r.Mismatches + r.Crashes + r.Timeouts + r.Errors }

// WriteJSON writes the report as indented JSON.
func (r *Fuzz) WriteJSON(w io.Writer) error {
	out := *r
	out.Findings = append(make([]FuzzFinding, 0, len(r.Findings)), r.Findings...)
	var raws []RawValue
	for i := range out.Findings {
		f := &out.Findings[i]
		raws = append(raws, RawValue{Value: &f.Input, Text: &f.InputText})
		f.Diffs = append([]runner.Diff(nil), f.Diffs...)
		for j := range f.Diffs {
			d := &f.Diffs[j]
			raws = append(raws, RawValue{Value: &d.WantJSON, Text: &d.WantText}, RawValue{Value: &d.GotJSON, Text: &d.GotText})
		}
	}
	return WriteIndentedJSON(w, &out, raws)
}

// text

func (r *Fuzz) implementation() string {
	i := r.Implementation
	s := (&Model{Fuzz: r}).Implementation()
	if i.Language != "" {
		s += " (" + i.Language + ")"
	}
	if len(r.Adapter) > 0 {
		s += " via " + QuoteArgv(r.Adapter)
	} else {
		s += ", in process"
	}
	return s // each format escapes it (Text, MDCode)
}

// summaryFrom is how many findings make the text report open with a table
// of them, one line each, before the details.
const summaryFrom = 4

func (r *Fuzz) scope() string {
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
	parts = append(parts, plural(r.Jobs, "job"))
	return strings.Join(parts, ", ")
}

func (r *Fuzz) throughput() string {
	return fmt.Sprintf("%s in %.2f s (%.0f cases/s)", plural(r.Cases, "case"), r.CampaignMS/1000, r.CasesPerSecond)
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

func (f *FuzzFinding) sizeLine() string {
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

func (f *FuzzFinding) headline(total int) string {
	s := fmt.Sprintf("%s: %d of %d cases; first case %d (case seed %d", f.ID, f.Count, total, f.First.Case, f.First.Seed)
	if f.First.Variant != "" {
		s += ", variant " + f.First.Variant
	}
	return s + ")"
}

// WriteText writes the report for people.
func (r *Fuzz) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "conform fuzz: %s\n", Text(r.implementation()))
	fmt.Fprintf(&b, "%s\n", r.scope())
	fmt.Fprintf(&b, "%s\n\n", r.throughput())
	fmt.Fprintf(&b, "%-16s %7s  ", "op", "cases")
	for _, v := range opColumns {
		fmt.Fprintf(&b, "%*s ", max(5, len(v)), v)
	}
	b.WriteString(" variants\n")
	for _, st := range r.PerOp {
		fmt.Fprintf(&b, "%-16s %7d  ", Text(st.Op), st.Cases)
		for _, v := range opColumns {
			fmt.Fprintf(&b, "%*d ", max(5, len(v)), st.Totals[v])
		}
		fmt.Fprintf(&b, " %s\n", Text(variantList(st.Variants)))
	}
	fmt.Fprintf(&b, "\nmismatches %d, crashes %d, timeouts %d, errors %d", r.Mismatches, r.Crashes, r.Timeouts, r.Errors)
	if r.GeneratorErrors > 0 {
		fmt.Fprintf(&b, ", generator errors %d (conform bug)", r.GeneratorErrors)
	}
	b.WriteString("\n")
	if ff := r.FirstFailing; ff != nil {
		fmt.Fprintf(&b, "first failing: case %d (%s, case seed %d) — %s\n", ff.Case, Text(ff.Op), ff.Seed, Text(fmt.Sprint(ff.Key)))
	}
	if len(r.Findings) >= summaryFrom {
		b.WriteString("\nfindings (each below with its own minimal input):\n")
		for i, f := range r.Findings {
			fmt.Fprintf(&b, "  %3d  %7d cases  %s\n", i+1, f.Count, Text(f.ID))
		}
	}
	for i, f := range r.Findings {
		// Every string of a finding may be the adapter's: Text.
		fmt.Fprintf(&b, "\nFINDING %d/%d %s\n", i+1, len(r.Findings), Text(f.headline(r.Cases)))
		if f.Cause != "" {
			fmt.Fprintf(&b, "  cause: the harness %s\n", Text(f.Cause))
		}
		if len(f.Keys) > 1 {
			fmt.Fprintf(&b, "  groups %d kinds of failure: %s\n", len(f.Keys), Text(strings.Join(f.Keys, "; ")))
		}
		fmt.Fprintf(&b, "  minimal input (%s):\n", Text(f.sizeLine()))
		fmt.Fprintf(&b, "    %s\n", Text(cutText(string(f.Input), maxInputShown)))
		if f.Message != "" {
			fmt.Fprintf(&b, "  message: %s\n", Text(cutText(f.Message, 400)))
		}
		if len(f.Diffs) > 0 {
			b.WriteString("  diff:\n")
			for _, l := range diffLines(f.Diffs, 6) {
				fmt.Fprintf(&b, "    %s\n", Text(l))
			}
		}
		if f.Stderr != "" {
			var lines []string
			for _, l := range strings.Split(strings.TrimRight(cutText(f.Stderr, 800), "\n"), "\n") {
				lines = append(lines, Text(l))
			}
			fmt.Fprintf(&b, "  stderr (tail):\n    | %s\n", strings.Join(lines, "\n    | ")) // quoted: no line of its own
		}
		if len(f.Broken) > 0 {
			fmt.Fprintf(&b, "  breaks: %s\n", Text(strings.Join(f.Broken, ", ")))
		}
		fmt.Fprintf(&b, "  reproduce: %s\n", Text(f.Repro))
		if f.Saved != nil {
			fmt.Fprintf(&b, "  saved: %s (and %s)\n", Text(f.Saved.Fixture), Text(f.Saved.Golden))
		}
	}
	b.WriteString("\n")
	switch {
	case r.Interrupted:
		fmt.Fprintf(&b, "INTERRUPTED after %s\n", plural(r.Cases, "case"))
	case !r.Conformant():
		fmt.Fprintf(&b, "FAIL: %s in %s\n", plural(len(r.Findings), "finding"), plural(r.FailingCases(), "failing case"))
	default:
		fmt.Fprintf(&b, "OK: no mismatch in %s\n", plural(r.Cases, "case"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// fuzzOneLine is a fuzz message on one line, cut to 400 bytes.
func fuzzOneLine(s string) string { return strings.ReplaceAll(cutText(s, 400), "\n", `\n`) }

// JUnit

// JUnit returns the report as JUnit XML: one suite per op with one passing
// test case for the op's campaign, and one failing test case per finding
// (a <failure> for a mismatch, an <error> for a crash, timeout or protocol
// error).
func (r *Fuzz) JUnit() *TestSuites {
	ts := &TestSuites{Name: "conform fuzz", Time: Seconds(r.DurationMS / 1000)}
	byOp := map[string][]FuzzFinding{}
	for _, f := range r.Findings {
		byOp[f.Key.Op] = append(byOp[f.Key.Op], f)
	}
	for _, st := range r.PerOp {
		s := TestSuite{Name: "fuzz " + st.Op, Timestamp: r.Started.Format(time.RFC3339)}
		camp := TestCase{
			Name:      fmt.Sprintf("%s: %s (seed %d)", st.Op, plural(st.Cases, "case"), r.Seed),
			Classname: "fuzz." + st.Op,
			SystemOut: fmt.Sprintf("verdicts: %s\nvariants: %s\n", verdictList(st.Totals), variantList(st.Variants)),
		}
		if st.Cases == 0 || st.Cases == st.Totals[verdict.Unsupported] {
			camp.Skipped = &Outcome{Message: "no case of this op ran (unsupported by the adapter, or none drawn)"}
		}
		s.Cases = append(s.Cases, camp)
		for _, f := range byOp[st.Op] {
			tc := TestCase{Name: f.ID, Classname: "fuzz." + st.Op}
			o := &Outcome{Message: findingMessage(f), Type: string(f.Key.Verdict), Text: f.detail()}
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
		ts.Suites = append(ts.Suites, TestSuite{Name: "conform", Cases: []TestCase{{Name: "incomplete", Classname: "conform",
			Error: &Outcome{Type: "incomplete", Message: (&Model{Fuzz: r}).Stopped() + ": the rest did not run"}}}})
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

func findingMessage(f FuzzFinding) string {
	msg := fmt.Sprintf("%d cases", f.Count)
	if len(f.Diffs) > 0 {
		msg += ": " + f.Diffs[0].Message
	} else if f.Message != "" {
		msg += ": " + fuzzOneLine(f.Message)
	}
	return msg
}

// detail is a finding's body for JUnit and Markdown.
func (f *FuzzFinding) detail() string {
	var b strings.Builder
	fmt.Fprintf(&b, "first case %d (case seed %d", f.First.Case, f.First.Seed)
	if f.First.Variant != "" {
		b.WriteString(", variant " + f.First.Variant)
	}
	fmt.Fprintf(&b, ")\nminimal input (%s):\n%s\n", f.sizeLine(), cutText(string(f.Input), maxInputShown))
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

// WriteJUnit writes the JUnit XML
func (r *Fuzz) WriteJUnit(w io.Writer) error { return r.JUnit().Write(w) }

// Markdown

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for a pull
// request comment or $GITHUB_STEP_SUMMARY.
func (r *Fuzz) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	status := "✅ no mismatch"
	if !r.Conformant() {
		status = fmt.Sprintf("❌ %s", plural(len(r.Findings), "finding"))
	}
	if r.Interrupted { // a campaign cut short is no pass (issue 21)
		status = fmt.Sprintf("⚠️ INCOMPLETE (interrupted after %s), %s", plural(r.Cases, "case"), strings.TrimPrefix(status, "✅ "))
	}
	fmt.Fprintf(&b, "## conform fuzz: %s\n\n", status)
	fmt.Fprintf(&b, "%s  \n%s  \n%s\n\n", MDCode(r.implementation()), r.scope(), r.throughput())
	t := Table{Header: []string{"op", "cases"}, Align: []Align{AlignLeft, AlignRight}}
	for _, v := range opColumns {
		t.Header = append(t.Header, string(v))
		t.Align = append(t.Align, AlignRight)
	}
	t.Header = append(t.Header, "variants")
	for _, st := range r.PerOp {
		row := []string{MDCode(st.Op), strconv.Itoa(st.Cases)}
		for _, v := range opColumns {
			row = append(row, strconv.Itoa(st.Totals[v]))
		}
		t.Rows = append(t.Rows, append(row, MDCode(variantList(st.Variants))))
	}
	if err := t.Write(&b); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\nmismatches %d, crashes %d, timeouts %d, errors %d\n", r.Mismatches, r.Crashes, r.Timeouts, r.Errors)
	if len(r.Findings) > 0 {
		b.WriteString("\n### Findings\n\n")
		ft := Table{
			Header: []string{"#", "finding", "cases", "first case", "minimal input", "breaks"},
			Align:  []Align{AlignRight, AlignLeft, AlignRight, AlignRight},
		}
		for i, f := range r.Findings {
			ft.Rows = append(ft.Rows, []string{strconv.Itoa(i + 1), MDCode(f.ID), strconv.Itoa(f.Count), strconv.Itoa(f.First.Case), MDCode(f.Size.Summary), MDCode(strings.Join(f.Broken, ", "))})
		}
		if err := ft.Write(&b); err != nil {
			return err
		}
		for i, f := range r.Findings {
			fmt.Fprintf(&b, "\n<details><summary>%d. %s: %s</summary>\n\n", i+1, HTMLCode(f.ID), HTMLCode(findingMessage(f)))
			fmt.Fprintf(&b, "Minimal input (%s):\n\n%s\n", MDCode(f.sizeLine()), MDFence("json", cutText(string(f.Input), maxInputShown)))
			if lines := diffLines(f.Diffs, 6); len(lines) > 0 {
				var esc []string
				for _, l := range lines {
					esc = append(esc, Text(l))
				}
				fmt.Fprintf(&b, "%s\n", MDFence("", strings.Join(esc, "\n")))
			}
			fmt.Fprintf(&b, "Reproduce: %s\n", MDCode(f.Repro))
			if f.Saved != nil {
				fmt.Fprintf(&b, "\nSaved: %s\n", MDCode(f.Saved.Fixture))
			}
			b.WriteString("\n</details>\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cutText cuts s to n bytes on a code point boundary, marking the cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
