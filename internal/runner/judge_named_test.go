package runner_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// Issue 22 item 3: the judge's surviving mutants. Each test states what a
// user of the runner relies on; the mutant it kills is named beside it.

// refCase is a case whose golden answer is the reference's own.
func refCase(id, op, input string, reqs ...string) runner.Case {
	GinkgoHelper()
	in, err := jsonjs.Parse([]byte(input))
	Expect(err).NotTo(HaveOccurred())
	out, err := reference.Run(op, []byte(input))
	Expect(err).NotTo(HaveOccurred())
	want, err := jsonjs.Parse(out)
	Expect(err).NotTo(HaveOccurred())
	return runner.Case{ID: id, Op: op, Requirements: reqs, Input: []byte(input), InputValue: in, Want: runner.Want{Output: &want}}
}

var _ = Describe("the judge's named survivors (issue 22)", func() {
	// properties.go retainProperties: `exact && count <= 0` -> `< 0`.
	It("RET-ITEM-3 rejects truncated:true with an exact omission of 0 items", func() {
		input := `{"strategy":{"kind":"head","maxItems":5},"items":[1,2,3]}`
		out, err := reference.Run("retain.items", []byte(input))
		Expect(err).NotTo(HaveOccurred())
		good, err := jsonjs.Parse(out)
		Expect(err).NotTo(HaveOccurred())
		in, err := jsonjs.Parse([]byte(input))
		Expect(err).NotTo(HaveOccurred())
		Expect(runner.CheckProperties("retain.items", in, good)).To(BeEmpty())

		// Nothing was dropped, yet the answer says it truncated zero items:
		// every count adds up, only the flag and the omission lie.
		bad := good.With("truncated", jsonjs.BoolValue(true)).
			With("omitted", jsonjs.ObjectValue(
				jsonjs.Member{Key: "kind", Value: jsonjs.StringValue("exact")},
				jsonjs.Member{Key: "count", Value: jsonjs.IntValue(0)}))
		diffs := runner.CheckProperties("retain.items", in, bad)
		Expect(diffs).To(HaveLen(1))
		Expect(diffs[0].Requirements).To(Equal([]string{"RET-ITEM-3"}))
		Expect(diffs[0].Message).To(ContainSubstring("truncated true"))
	})

	// blame.go searchTextPart: `tr >= 0` -> `tr >= 1`. A glob whose first
	// kept path is "" renders "\n\n(Showing …)": the footer starts at 0.
	It("blames a footer that starts the text on the footer's requirements", func() {
		c := refCase("glob.result/judge-empty-path", "glob.result",
			`{"args":{"pattern":"*"},"value":{"root":".","paths":["","b","c"]},"config":{"maxResults":1,"sampleOverCap":false}}`,
			"SEARCH-GLOB-2", "SEARCH-GLOB-5")
		want, _ := get(*c.Want.Output, "content").Str()
		Expect(want).To(HavePrefix("\n\n(Showing 1 of 3 paths."))
		rep := run([]runner.Case{c}, funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
			s, _ := get(out, "content").Str()
			return out.With("content", jsonjs.StringValue(strings.Replace(s, "narrow pattern or path", "narrow the pattern", 1)))
		}})
		Expect(rep.Cases).To(HaveLen(1))
		r := rep.Cases[0]
		Expect(r.Verdict).To(Equal(verdict.Fail))
		d := diffAt(r, "$.content", runner.CmpExact)
		Expect(d).NotTo(BeNil(), "%+v", r.Diffs)
		Expect(d.Requirements).To(Equal([]string{"SEARCH-GLOB-5"}))
	})

	// blame.go searchTextPart (179:58): `at >= start+colon+2` -> `>`. A grep row's
	// preview starts right after "Line N: "; a difference in its first
	// byte is the preview's, not the row layout's.
	It("blames the first byte of a grep line preview on the preview", func() {
		c := refCase("grep.result/judge-preview-first-byte", "grep.result",
			`{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xyz"}]}}`,
			"SEARCH-GREP-3", "SEARCH-PREVIEW-1")
		rep := run([]runner.Case{c}, funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
			s, _ := get(out, "content").Str()
			Expect(s).To(ContainSubstring("Line 1: xyz"))
			return out.With("content", jsonjs.StringValue(strings.Replace(s, "Line 1: xyz", "Line 1: Xyz", 1)))
		}})
		d := diffAt(rep.Cases[0], "$.content", runner.CmpExact)
		Expect(d).NotTo(BeNil(), "%+v", rep.Cases[0].Diffs)
		Expect(d.Requirements).To(Equal([]string{"SEARCH-PREVIEW-1"}))
	})

	// blame.go codeTextPart: `start := 0` -> `1`. Without logs the result
	// starts the text: a difference in its first byte is the result's.
	It("blames the first byte of a run's text on the result when there are no logs", func() {
		c := refCase("run_code.result/judge-result-first-byte", "run_code.result",
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":{"a":1}}}`,
			"CODE-RENDER-1", "CODE-JSON-2")
		rep := run([]runner.Case{c}, funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
			s, _ := get(out, "content").Str()
			Expect(s).To(HavePrefix("{"))
			return out.With("content", jsonjs.StringValue("["+s[1:]))
		}})
		d := diffAt(rep.Cases[0], "$.content", runner.CmpExact)
		Expect(d).NotTo(BeNil(), "%+v", rep.Cases[0].Diffs)
		Expect(d.Requirements).To(Equal([]string{"CODE-JSON-2"}))
	})

	// summary.go sortByCatalogue: `oi != 0 && oj != 0` -> `||`.
	It("lists the catalogue's requirements in catalogue order before a case set's own IDs", func() {
		known := spec.IDs()
		Expect(len(known)).To(BeNumerically(">", 10))
		a, b := known[3], known[9] // catalogue order: a before b
		rep := &runner.Report{Cases: []runner.CaseResult{
			{ID: "x/1", Op: "grep.result", Verdict: verdict.Pass, Requirements: []string{"LOCAL-2", b, "LOCAL-1", a}},
		}}
		var ids []string
		for _, row := range runner.Summarize(rep) {
			ids = append(ids, row.ID)
		}
		Expect(ids).To(Equal([]string{a, b, "LOCAL-1", "LOCAL-2"}))
	})

	// compare.go isIdentifier: `c <= 'z'` -> `c < 'z'`. The runner writes a
	// member's path as jsonjs.Differences does, so a path in a report, a
	// baseline or a diff is one string for one member.
	It("writes an output member's path the way jsonjs writes paths", func() {
		for _, key := range []string{"zone", "Zeta", "_z$9", "az", "9z", "a-z", "", "é"} {
			r := runOne("grep.result/gen-002", func(out jsonjs.Value) jsonjs.Value {
				return out.With(key, jsonjs.IntValue(1))
			})
			ds := jsonjs.Differences(jsonjs.ObjectValue(jsonjs.Member{Key: key, Value: jsonjs.IntValue(0)}),
				jsonjs.ObjectValue(jsonjs.Member{Key: key, Value: jsonjs.IntValue(1)}), 1)
			Expect(ds).To(HaveLen(1))
			var paths []string
			for _, d := range r.Diffs {
				if d.Field == key {
					paths = append(paths, d.Path)
				}
			}
			Expect(paths).To(Equal([]string{ds[0].Path}), "key %q", key)
		}
	})

	// summary.go shellQuote: `c >= 'A' && c <= 'Z'` -> `c > 'Z'`. A
	// reproduction is pasted into a shell: plain words stay bare, and a
	// word with a shell metacharacter is quoted.
	It("quotes exactly the reproduction words a shell would alter", func() {
		rep := &runner.Report{Adapter: []string{"./bin/MyAdapter", "--mode=a|b", "x`id`", "{A,B}", "~/Z", `a\b`, "ünï"}}
		Expect(runner.Reproduction(rep, "grep.result/gen-001", nil)).To(Equal(
			`conform run --run '^grep\.result/gen-001$' -- ./bin/MyAdapter '--mode=a|b' 'x` + "`id`" + `' '{A,B}' '~/Z' 'a\b' 'ünï'`))
	})
})
