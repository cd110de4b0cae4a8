package report_test

import (
	"bytes"
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// hostileParts are what an adapter, a log or a saved report can hold to
// turn a report against its reader (issue 21): terminal escapes (OSC 52
// sets the clipboard), carriage returns, forged lines, bidi overrides and
// isolates, invisible characters, separators, C1 controls, invalid UTF-8,
// and Markdown and HTML of every kind. Each visible part says EVIL, so a
// Markdown writer's output shows whether any of it escaped its code span.
var hostileParts = []string{
	"EVIL", "k\x1b]52;c;cm0gLXJmIH4=\a", "\x1b[2K\rPASS retain.items/gen-001", "\nFORGED LINE EVIL", "\r\nFORGED EVIL",
	"\u202eSSAP\u202c", "\u2066EVIL\u2069", "\u200f", "\u061c", "\u2028", "\u2029", "\u200b", "\u2060", "\ufeff", "\u00ad",
	"\x7f", "\u0085", "\u009b31m", "\x00", "\t", "\xff\xfe", "\xed\xa0\x80", "\U000e0041",
	"<img src=https://evil.example/EVIL.png>", "<h1>EVIL</h1>", "</details>EVIL", "[EVIL](https://evil.example)", "![EVIL](https://evil.example/i.png)",
	"@EVILuser", "@EVILorg/team", "#4242EVIL", "https://EVIL.example/x", "www.EVIL.example", "\n# EVIL heading", "\n> EVIL quote",
	"*EVIL*", "_EVIL_", "~~EVIL~~", "`", "``", "```", "````EVIL", "~~~", "|EVIL|", "\\", "&lt;EVIL&gt;", "<!--EVIL-->", " ",
}

func hostile() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.SampledFrom(hostileParts), 1, 8).Draw(t, "parts")
		return "EVIL" + strings.Join(parts, "")
	})
}

// jsonString is s as a JSON string value's text.
func jsonString(s string) []byte { return jsonjs.AppendString(nil, s) }

// hostileRun is a run report whose every outside string is drawn: the
// handshake, the adapter's argv, notes (leftover process names), a case of
// each verdict with ids, messages, stderr, member paths, excerpts, inputs
// and baseline reasons.
func hostileRun(t *rapid.T, fault bool) *runner.Report {
	h := func(label string) string { return hostile().Draw(t, label) }
	var cases []runner.CaseResult
	for i, v := range verdict.All {
		id := "grep.result/" + h("id")
		c := runner.CaseResult{ID: id, Op: []string{"grep.result", h("op")}[i%2], Requirements: []string{"SEARCH-GREP-2"}, Verdict: v,
			Message: h("message"), Stderr: h("stderr") + "\n" + h("stderr2"), Baseline: h("baseline"),
			File: h("file"), Reproduce: h("reproduce"), Input: jsonString(h("input"))}
		if v == verdict.Fail || v == verdict.XFail {
			c.Broken = []string{"SEARCH-GREP-2"}
			c.Diffs = []runner.Diff{
				{Field: "meta", Comparator: "json", Path: "$.meta." + h("member"), Requirements: []string{"SEARCH-GREP-2"},
					GotJSON: jsonString(h("got")), Message: "unexpected member " + h("member name")},
				{Field: "content", Comparator: "exact", Path: "$.content", Offset: 3, Requirements: []string{"SEARCH-GREP-2"},
					WantJSON: jsonString("a\nb\n" + h("want")), GotJSON: jsonString("a\nc\n" + h("got")), Want: h("want excerpt"), Got: h("got excerpt"), Message: h("diff message")},
			}
		}
		cases = append(cases, c)
	}
	r := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Protocol: 1,
		Implementation: adapter.Implementation{Name: h("name"), Version: h("version"), Language: h("language"), Homepage: h("homepage")},
		Adapter:        []string{h("argv0"), h("argv1")}, Conform: h("conform"), Fixtures: h("fixtures"),
		Cases: cases, Totals: runner.Totals(cases), Stopped: h("stopped"), Selected: 20,
		Notes: []runner.Note{{Kind: h("note kind"), Message: "left behind: " + h("process name"), Stderr: h("note stderr")}}}
	if fault {
		r.Cases, r.Totals = []runner.CaseResult{}, runner.Totals(nil)
		r.Fault = &runner.Fault{Kind: "start", Message: h("fault"), Stderr: h("fault stderr")}
	}
	r.Requirements = runner.Summarize(r)
	r.Nonconformant = runner.Reasons(r)
	return r
}

func hostileCheckLog(t *rapid.T) *logcheck.Summary {
	h := func(label string) string { return hostile().Draw(t, label) }
	s := logcheck.NewSummary(logcheck.Violation, 0, nil)
	name := h("log file")
	a := s.AddFile(name)
	a.Stats = logcheck.Stats{Lines: 3, Events: 2, ResultsChecked: map[string]int{h("tool"): 1}, UnknownTypes: map[string]int{h("event type"): 1}, Bytes: 10}
	s.Add(a, logcheck.Finding{File: name, Line: 2, Requirement: "LOG-5", Level: logcheck.Violation, Message: h("finding")})
	s.Add(a, logcheck.Finding{File: name, Requirement: "LOG-CHECK-2", Level: logcheck.Warning, Message: h("finding2")})
	a.Notes = []string{"was truncated to 3 bytes after 10 were read; following it stopped there"} // conform's words about an outside name
	b := s.AddFile(h("unreadable file"))
	b.Err = errors.New(h("read error"))
	s.Finish()
	return s
}

func hostileFuzz(t *rapid.T) *fuzz.Report {
	h := func(label string) string { return hostile().Draw(t, label) }
	f := fuzz.Finding{ID: h("finding id"), Key: fuzz.Key{Op: "grep.result", Field: h("field"), Verdict: verdict.Fail}, Count: 2,
		First: fuzz.CaseRef{Case: 1, Op: "grep.result", Variant: h("variant"), Key: h("first key")}, Broken: []string{"SEARCH-GREP-2"},
		Message: h("message"), Stderr: h("stderr") + "\n" + h("stderr2"),
		Diffs: []runner.Diff{{Field: h("field"), Path: "$." + h("member"), Comparator: "json", Message: h("diff"), Want: h("want"), Got: h("got")}},
		Input: jsonString(h("input")), Size: fuzz.Size{Summary: h("size")}, Repro: h("repro"),
		Saved: &fuzz.Saved{Fixture: h("saved"), Golden: h("golden")}}
	e := f
	e.Key.Verdict, e.ID = verdict.Crash, h("crash id")
	return &fuzz.Report{Format: fuzz.ReportFormat, Version: fuzz.ReportVersion,
		Implementation: adapter.Implementation{Name: h("name"), Version: h("version"), Language: h("language")},
		Adapter:        []string{h("argv0")}, Ops: []string{"grep.result"}, Cases: 4, Mismatches: 2, Crashes: 2,
		PerOp:        []fuzz.OpStats{{Op: "grep.result", Cases: 4, Variants: map[string]int{h("variant"): 1}}},
		FirstFailing: &fuzz.CaseRef{Case: 1, Op: "grep.result", Key: h("first")},
		Findings:     []fuzz.Finding{f, e, f, e}}
}

// unsafeRune is the test's own list of what no text report may hold raw
// (independent of report.Hidden, which it checks).
func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029:
		return true
	case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c:
		return true // bidi
	}
	return unicode.In(r, unicode.Cf)
}

// checkText fails on a raw control, bidi or format character (line feeds
// and tabs aside) and on a line that an outside string started.
func checkText(t *rapid.T, what, out string) {
	for i, r := range out {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(out[i:]); size == 1 {
				t.Fatalf("%s: invalid UTF-8 at byte %d:\n%s", what, i, out)
			}
		}
		if unsafeRune(r) {
			t.Fatalf("%s: raw %U at byte %d:\n%s", what, r, i, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		// Outside text's own lines are shown behind "| " (stderr) or
		// deeper than the report's two levels (a unified diff of two
		// multi-line strings): neither passes for a line of the report.
		rest := strings.TrimLeft(l, " ")
		if len(l)-len(rest) <= 3 && strings.HasPrefix(strings.TrimLeft(rest, ">#- "), "FORGED") {
			t.Fatalf("%s: a forged line %q:\n%s", what, l, out)
		}
	}
}

// inertMarkdown removes what GitHub renders as code (fenced blocks, code
// spans, <code> elements), as CommonMark pairs them; what remains is what
// GitHub would render as Markdown and HTML.
func inertMarkdown(s string) string {
	var kept []string
	fence := ""
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimLeft(l, " ")
		switch {
		case fence != "":
			if strings.TrimRight(t, " ") == fence {
				fence = ""
			}
			continue
		case strings.HasPrefix(t, "```"):
			n := 0
			for n < len(t) && t[n] == '`' {
				n++
			}
			if strings.Contains(t[n:], "`") {
				break // an info string holds no backtick: a code span, not a fence
			}
			fence = t[:n]
			continue
		}
		kept = append(kept, l)
	}
	text := strings.Join(kept, "\n")
	for {
		a := strings.Index(text, "<code>")
		if a < 0 {
			break
		}
		b := strings.Index(text[a:], "</code>")
		if b < 0 {
			break
		}
		text = text[:a] + text[a+b+len("</code>"):]
	}
	var out strings.Builder
	for i := 0; i < len(text); {
		if text[i] == '\\' && i+1 < len(text) {
			out.WriteString(text[i : i+2])
			i += 2
			continue
		}
		if text[i] != '`' {
			out.WriteByte(text[i])
			i++
			continue
		}
		n := 0
		for i+n < len(text) && text[i+n] == '`' {
			n++
		}
		// the closing run: exactly n backticks
		end := -1
		for j := i + n; j < len(text); {
			if text[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(text) && text[j+m] == '`' {
				m++
			}
			if m == n {
				end = j + m
				break
			}
			j += m
		}
		if end < 0 {
			out.WriteString(text[i : i+n])
			i += n
			continue
		}
		i = end
	}
	return out.String()
}

func checkMarkdown(t *rapid.T, what, out string) {
	checkText(t, what, out)
	if rest := inertMarkdown(out); strings.Contains(rest, "EVIL") {
		t.Fatalf("%s: outside text renders as Markdown:\n%s\n--- outside code:\n%s", what, out, rest)
	}
}

var _ = Describe("every writer against hostile outside strings (issue 21: safe to read)", func() {
	It("text and Markdown show no raw control, bidi or format character and no active Markdown; JSON and JUnit parse", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			run := hostileRun(t, rapid.Bool().Draw(t, "fault"))
			var b bytes.Buffer
			if err := report.WriteRunText(&b, run, report.RunText{Verbose: true}); err != nil {
				t.Fatal(err)
			}
			checkText(t, "run text", b.String())
			b.Reset()
			if err := report.WriteRunMarkdown(&b, run); err != nil {
				t.Fatal(err)
			}
			checkMarkdown(t, "run markdown", b.String())
			b.Reset()
			if err := report.WriteRunJSON(&b, run); err != nil {
				t.Fatal(err)
			}
			if _, err := jsonjs.Parse(b.Bytes()); err != nil {
				t.Fatalf("run json: %v", err)
			}
			b.Reset()
			if err := report.WriteRunJUnit(&b, run); err != nil {
				t.Fatal(err)
			}
			if _, err := report.ReadJUnit(&b); err != nil {
				t.Fatalf("run junit: %v", err)
			}

			m, err := matrix.Build([]matrix.Input{{File: "r.json", Report: run}})
			if err != nil {
				t.Fatal(err)
			}
			b.Reset()
			if err := matrix.WriteMarkdown(&b, m); err != nil {
				t.Fatal(err)
			}
			checkMarkdown(t, "matrix markdown", b.String())

			// Every model in every format, through the one writer of each.
			for _, model := range []*report.Model{{Run: run, Text: report.RunText{Verbose: true}}, {CheckLog: hostileCheckLog(t)}, {Fuzz: hostileFuzz(t)}} {
				for _, format := range report.Formats {
					what := model.Command() + " " + format
					b.Reset()
					if err := report.Write(&b, format, model); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
					switch format {
					case "text":
						checkText(t, what, b.String())
					case "markdown":
						checkMarkdown(t, what, b.String())
					case "json":
						if _, err := jsonjs.Parse(b.Bytes()); err != nil {
							t.Fatalf("%s: %v", what, err)
						}
					case "junit":
						if _, err := report.ReadJUnit(&b); err != nil {
							t.Fatalf("%s: %v", what, err)
						}
					}
				}
				if model.CheckLog != nil {
					for _, p := range report.CheckLogProblems(model.CheckLog) {
						checkText(t, "check-log problem", p)
					}
				}
			}
		})
	})

	It("the reproductions of issue 21 stay inert", func() {
		member := "k\x1b]52;c;cm0gLXJmIH4=\a\x1b[2K\rPASS retain.items/gen-001\nFORGED LINE"
		d := report.DiffText(runner.Diff{Field: "meta", Comparator: "json", Path: "$.meta." + member, Message: "unexpected member"})
		Expect(d).To(Equal(`- meta [json] $.meta.k\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2K\rPASS retain.items/gen-001\nFORGED LINE (no requirement of its own): unexpected member`))
		Expect(report.Text("impl \u202eSSAP\u202c")).To(Equal(`impl \u202eSSAP\u202c`))
		Expect(report.MDCode("a `` b")).To(Equal("```a `` b```"))
		Expect(report.MDCode("`x")).To(Equal("`` `x ``"))
		Expect(report.MDFence("", "```\nx")).To(Equal("````\n```\nx\n````\n"))
	})
})
