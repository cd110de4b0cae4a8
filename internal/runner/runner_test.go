package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing/fstest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// runOne runs one case through a harness that alters its output.
func runOne(id string, alter func(out jsonjs.Value) jsonjs.Value) runner.CaseResult {
	c := caseByID(id)
	rep := run([]runner.Case{c}, funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value { return alter(out) }})
	Expect(rep.Cases).To(HaveLen(1))
	return rep.Cases[0]
}

// diffAt returns the diff at a path (and comparator).
func diffAt(r runner.CaseResult, path, comparator string) *runner.Diff {
	for i, d := range r.Diffs {
		if d.Path == path && d.Comparator == comparator {
			return &r.Diffs[i]
		}
	}
	return nil
}

// replyRun runs cases through sessions that answer with reply.
func replyRun(cs []runner.Case, opt runner.Options, reply func(id, op string) (adapter.Reply, error)) *runner.Report {
	opt.NewSession = func(context.Context) (adapter.Session, error) {
		return &session{h: adapter.Reference(), reply: reply}, nil
	}
	rep, err := runner.Run(context.Background(), cs, opt)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

var _ = Describe("comparison", func() {
	It("reports an exact difference with its byte offset and visible whitespace", func() {
		// golden content: "Found 1 match\n\n.hidden/v1/x\u2028y.txt\nLine 1: 😀😀"
		r := runOne("grep.result/gen-002", func(out jsonjs.Value) jsonjs.Value {
			s, _ := get(out, "content").Str()
			return out.With("content", jsonjs.StringValue(s[:15]+"X"+s[16:]))
		})
		Expect(r.Verdict).To(Equal(verdict.Fail))
		d := diffAt(r, "$.content", runner.CmpExact)
		Expect(d).NotTo(BeNil())
		Expect(d.Field).To(Equal("content"))
		Expect(d.Offset).To(Equal(15))
		Expect(d.Message).To(ContainSubstring("byte 15 (line 3, column 1)"))
		Expect(d.Want).To(Equal(`Found 1 match\n\n.hidden/v1/x\u2028y.txt\nLine 1: 😀😀⟨end⟩`))
		Expect(d.Got).To(Equal(`Found 1 match\n\nXhidden/v1/x\u2028y.txt\nLine 1: 😀😀⟨end⟩`))
		// a path in the body is the grouping: the case's other requirements pass
		Expect(d.Requirements).To(Equal([]string{"SEARCH-GREP-3"}))
		Expect(r.Broken).To(Equal([]string{"SEARCH-GREP-3", "SEARCH-META-6"}), "the meta is no longer a prefix of the text")
	})

	It("reports an exact difference where one text is a prefix of the other", func() {
		r := runOne("grep.result/gen-002", func(out jsonjs.Value) jsonjs.Value {
			s, _ := get(out, "content").Str()
			return out.With("content", jsonjs.StringValue(s+"  "))
		})
		d := diffAt(r, "$.content", runner.CmpExact)
		Expect(d).NotTo(BeNil())
		Expect(d.Offset).To(Equal(len("Found 1 match\n\n.hidden/v1/x\u2028y.txt\nLine 1: 😀😀")))
		Expect(d.Message).To(ContainSubstring("want ends there, got has 2 more bytes"))
		Expect(d.Got).To(HaveSuffix(`😀😀\u0020\u0020⟨end⟩`))
	})

	It("compares null and strings exactly (null only equals null)", func() {
		r := runOne("grep.result/gen-002", func(out jsonjs.Value) jsonjs.Value {
			return out.With("spillText", jsonjs.StringValue(""))
		})
		d := diffAt(r, "$.spillText", runner.CmpExact)
		Expect(d).NotTo(BeNil())
		Expect(d.Message).To(Equal("want null, got a string of 0 bytes"))
	})

	It("reports JSON differences by path, and the properties they break", func() {
		r := runOne("grep.result/gen-002", func(out jsonjs.Value) jsonjs.Value {
			meta := get(out, "meta")
			files, _ := get(meta, "files").Items()
			f0 := files[0].With("path", jsonjs.StringValue("other.txt"))
			return out.With("meta", meta.With("files", jsonjs.ArrayValue(f0)))
		})
		Expect(r.Verdict).To(Equal(verdict.Fail))
		d := diffAt(r, "$.meta.files[0].path", runner.CmpJSON)
		Expect(d).NotTo(BeNil())
		Expect(d.Field).To(Equal("meta"))
		Expect(d.Want).To(Equal("\".hidden/v1/x\u2028y.txt\""))
		Expect(d.Got).To(Equal(`"other.txt"`))
		Expect(diffAt(r, "$.view", runner.CmpProperty).Requirements).To(Equal([]string{"SEARCH-NARROW-7"}))
		prop := diffAt(r, "$.meta", runner.CmpProperty)
		Expect(prop.Requirements).To(Equal([]string{"SEARCH-META-6"}))
		// issue 20: a property diff carries what it looked at and what must hold
		Expect(string(prop.GotJSON)).To(ContainSubstring(`"path":"other.txt"`))
		Expect(prop.Want).NotTo(BeEmpty())
		Expect(d.Requirements).To(Equal([]string{"SEARCH-META-2"}), "a group's path is the meta's shape")
		Expect(r.Broken).To(ConsistOf("SEARCH-META-2", "SEARCH-NARROW-7", "SEARCH-META-6"))
	})

	It("reports at most 10 JSON paths per field", func() {
		r := runOne("retain.items/gen-001", func(out jsonjs.Value) jsonjs.Value {
			items, _ := get(out, "pushes").Items()
			flipped := make([]jsonjs.Value, len(items))
			for i := range items {
				flipped[i] = jsonjs.ObjectValue(jsonjs.Member{Key: "kept", Value: jsonjs.StringValue("?")}, jsonjs.Member{Key: "truncated", Value: jsonjs.StringValue("?")})
			}
			return out.With("pushes", jsonjs.ArrayValue(flipped...))
		})
		n := 0
		for _, d := range r.Diffs {
			if d.Field == "pushes" && d.Comparator == runner.CmpJSON {
				n++
			}
		}
		Expect(n).To(BeNumerically(">", 0))
		Expect(n).To(BeNumerically("<=", 10))
	})

	It("reports missing and extra output fields", func() {
		r := runOne("grep.result/gen-002", func(out jsonjs.Value) jsonjs.Value {
			return del(out, "spillText").With("extra", jsonjs.BoolValue(true))
		})
		Expect(r.Verdict).To(Equal(verdict.Fail))
		missing := diffAt(r, "$.spillText", runner.CmpExact)
		Expect(missing).NotTo(BeNil())
		Expect(missing.Message).To(ContainSubstring(`"spillText" is missing`))
		extra := diffAt(r, "$.extra", runner.CmpJSON)
		Expect(extra).NotTo(BeNil())
		Expect(extra.Message).To(ContainSubstring(`unexpected output field "extra"`))
	})

	It("compares error messages exactly", func() {
		id := "grep.result/grep-config-max-matches-zero"
		Expect(caseByID(id).Want.Error).NotTo(BeNil())
		rep := replyRun([]runner.Case{caseByID(id)}, runner.Options{}, func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Error: str("tool-fs-search: grepMaxMatches must be positive")}, nil
		})
		r := rep.Cases[0]
		Expect(r.Verdict).To(Equal(verdict.Fail))
		d := diffAt(r, "$.error.message", runner.CmpExact)
		Expect(d).NotTo(BeNil())
		Expect(d.Field).To(Equal(runner.ErrorField))
		Expect(d.Offset).To(Equal(len("tool-fs-search: grepMaxMatches must be ")))
		Expect(r.Message).To(Equal("tool-fs-search: grepMaxMatches must be positive"))
	})

	It("fails an output where the golden has an error, and the reverse, with a whole-answer diff", func() {
		errCase, outCase := caseByID("grep.result/grep-config-max-matches-zero"), caseByID("grep.result/gen-002")
		rep := replyRun([]runner.Case{errCase, outCase}, runner.Options{}, func(id, _ string) (adapter.Reply, error) {
			if id == errCase.ID {
				return adapter.Reply{Output: json.RawMessage(`{"isError":false}`)}, nil
			}
			return adapter.Reply{Error: str("boom")}, nil
		})
		for _, r := range rep.Cases {
			Expect(r.Verdict).To(Equal(verdict.Fail), r.ID)
			for _, d := range r.Diffs[1:] {
				Expect(d.Comparator).To(Equal(runner.CmpProperty)) // checks on the wrong output itself
			}
			Expect(r.Diffs[0].Field).To(BeEmpty())
			Expect(r.Diffs[0].Path).To(Equal("$"))
		}
		Expect(rep.Cases[0].Diffs[0].Message).To(Equal("want an error answer, got an output"))
		Expect(rep.Cases[1].Diffs[0].Message).To(Equal("want an output, got an error answer"))
		Expect(string(rep.Cases[1].Diffs[0].GotJSON)).To(Equal(`{"error":"boom"}`))
		Expect(rep.Cases[1].Broken).To(Equal(outCase.Requirements))
	})

	It("judges an output that is not JSON an error", func() {
		rep := replyRun([]runner.Case{caseByID("grep.result/gen-002")}, runner.Options{}, func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Output: json.RawMessage(`{"isError":`)}, nil
		})
		Expect(rep.Cases[0].Verdict).To(Equal(verdict.Error))
		Expect(rep.Cases[0].Message).To(ContainSubstring("not JSON"))
	})
})

var _ = Describe("Visible and Excerpt", func() {
	It("make whitespace and invisible characters visible", func() {
		Expect(runner.Visible("a\tb \n\r\n \u2028\u2029\ufeff\u200b\u00a0\\x\x01 ")).
			To(Equal(`a\tb\u0020\n\r\n \u2028\u2029\uFEFF\u200B\u00A0\\x\u0001\u0020`))
		Expect(runner.Visible("ok é 😀")).To(Equal("ok é 😀"))
		Expect(runner.Visible("\xff\xed\xa0\x80")).To(Equal(`\xFF\uD800`))
	})
	It("cut around the offset on code point boundaries", func() {
		s := strings.Repeat("é", 50) + "X" + strings.Repeat("é", 50)
		e := runner.Excerpt(s, 100)
		Expect(e).To(HavePrefix("…é"))
		Expect(e).To(HaveSuffix("é…"))
		Expect(e).To(ContainSubstring("X"))
	})
})

var _ = Describe("verdicts", func() {
	It("marks ops the adapter does not list unsupported", func() {
		cs := runner.Select(cases(), runner.Selection{Op: "retain.text,retain.items"})
		rep := run(cs, funcHarness{ops: []string{"retain.items"}})
		for _, r := range rep.Cases {
			if r.Op == "retain.text" {
				Expect(r.Verdict).To(Equal(verdict.Unsupported))
				Expect(r.Message).To(ContainSubstring("retain.text"))
			} else {
				Expect(r.Verdict).To(Equal(verdict.Pass))
			}
		}
		Expect(rep.Totals[verdict.Unsupported]).To(BeNumerically(">", 0))
		Expect(rep.Conformant()).To(BeTrue())
	})

	It("marks skip answers skipped, with the reason", func() {
		cs := cases()[:3]
		rep := replyRun(cs, runner.Options{}, func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Skip: str("not in this build")}, nil
		})
		for _, r := range rep.Cases {
			Expect(r.Verdict).To(Equal(verdict.Skipped))
			Expect(r.Message).To(Equal("not in this build"))
		}
		Expect(rep.Totals[verdict.Skipped]).To(Equal(3))
	})

	It("turns faults into timeout, crash and error verdicts with the stderr tail", func() {
		cs := cases()[:4]
		kinds := map[string]adapter.FaultKind{
			cs[0].ID: adapter.FaultTimeout, cs[1].ID: adapter.FaultCrash, cs[2].ID: adapter.FaultProtocol, cs[3].ID: adapter.FaultStart,
		}
		rep := replyRun(cs, runner.Options{Jobs: 2}, func(id, _ string) (adapter.Reply, error) {
			return adapter.Reply{}, &adapter.Fault{Kind: kinds[id], Message: "m-" + string(kinds[id]), Stderr: "trace"}
		})
		Expect(rep.Cases[0].Verdict).To(Equal(verdict.Timeout))
		Expect(rep.Cases[1].Verdict).To(Equal(verdict.Crash))
		Expect(rep.Cases[2].Verdict).To(Equal(verdict.Error))
		Expect(rep.Cases[3].Verdict).To(Equal(verdict.Error))
		Expect(rep.Cases[1].Message).To(Equal("m-crash"))
		Expect(rep.Cases[1].Stderr).To(Equal("trace"))
		Expect(rep.Cases[3].Message).To(Equal("m-start"))
		Expect(rep.Conformant()).To(BeFalse())
	})

	It("times a case out with Options.Timeout when the session honours its context", func() {
		rep, err := runner.Run(context.Background(), cases()[:2], runner.Options{
			Timeout:    20 * time.Millisecond,
			NewSession: func(context.Context) (adapter.Session, error) { return blockingSession{}, nil },
		})
		Expect(err).NotTo(HaveOccurred())
		for _, r := range rep.Cases {
			Expect(r.Verdict).To(Equal(verdict.Timeout))
			Expect(r.Message).To(Equal("no answer within the case timeout"))
		}
	})

	It("refuses to run when a session cannot start", func() {
		_, err := runner.Run(context.Background(), cases()[:2], runner.Options{Jobs: 2, NewSession: func(context.Context) (adapter.Session, error) {
			return nil, &adapter.Fault{Kind: adapter.FaultStart, Message: "exec: no such file"}
		}})
		var se *runner.StartError
		Expect(errors.As(err, &se)).To(BeTrue())
		var f *adapter.Fault
		Expect(errors.As(err, &f)).To(BeTrue())
		Expect(f.Kind).To(Equal(adapter.FaultStart))
	})

	It("starts Jobs sessions, reports progress and keeps case order", func() {
		var started, progress atomic.Int32
		cs := cases()[:40]
		rep, err := runner.Run(context.Background(), cs, runner.Options{
			Jobs:     5,
			Progress: func(done, total int) { progress.Add(1); Expect(total).To(Equal(40)) },
			NewSession: func(context.Context) (adapter.Session, error) {
				started.Add(1)
				return &session{h: adapter.Reference()}, nil
			},
			Adapter: []string{"node", "adapter.js"},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(started.Load()).To(Equal(int32(5)))
		Expect(progress.Load()).To(Equal(int32(40)))
		for i, r := range rep.Cases {
			Expect(r.ID).To(Equal(cs[i].ID))
		}
		Expect(rep.Adapter).To(Equal([]string{"node", "adapter.js"}))
		Expect(rep.DurationMS).To(BeNumerically(">", 0))
	})

	It("returns the finished cases with the context's error when cancelled", func() {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		rep, err := runner.Run(ctx, cases()[:50], runner.Options{Jobs: 1, NewSession: func(context.Context) (adapter.Session, error) {
			return &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
				n++
				if n == 5 {
					cancel()
					return adapter.Reply{}, context.Canceled // cut short: no verdict
				}
				return adapter.Reply{Skip: str("x")}, nil
			}}, nil
		}})
		Expect(err).To(MatchError(context.Canceled))
		Expect(rep.Cases).To(HaveLen(4))
		for _, r := range rep.Cases {
			Expect(r.Verdict).To(Equal(verdict.Skipped))
		}
		Expect(rep.Totals[verdict.Skipped]).To(Equal(4))
	})
})

// blockingSession answers nothing until its context ends.
type blockingSession struct{}

func (blockingSession) Hello() adapter.Hello { return (&session{h: adapter.Reference()}).Hello() }
func (blockingSession) Run(ctx context.Context, _, _ string, _ []byte) (adapter.Reply, error) {
	<-ctx.Done()
	return adapter.Reply{}, ctx.Err()
}
func (blockingSession) Close() error { return nil }

var _ = Describe("properties", func() {
	// Each mutation of the reference's outputs of one op must break the
	// named property on some case.
	type mutation struct {
		op, req string
		alter   func(input []byte, out jsonjs.Value) jsonjs.Value
	}
	withMeta := func(f func(m jsonjs.Value) jsonjs.Value) func([]byte, jsonjs.Value) jsonjs.Value {
		return func(_ []byte, out jsonjs.Value) jsonjs.Value {
			if m := get(out, "meta"); !m.IsNull() {
				return out.With("meta", f(m))
			}
			return out
		}
	}
	var mutations []mutation
	for _, s := range []struct{ op, present, listKey, shape, other, wellFormed string }{
		{"grep.result", "SEARCH-PRESENT-1", "files", "SEARCH-NARROW-5", `{"shape":"paths","paths":[],"truncated":false,"total":0}`, `[{"path":"p","matches":[{"lineNumber":1,"line":"l"}]}]`},
		{"glob.result", "SEARCH-PRESENT-2", "paths", "SEARCH-NARROW-6", `{"shape":"matches","files":[],"truncated":false,"total":0}`, `["p"]`},
	} {
		nested := func(in []byte) bool { return strings.Contains(string(in), `"nested":true`) }
		mutations = append(mutations,
			mutation{s.op, "SEARCH-META-1", func(_ []byte, out jsonjs.Value) jsonjs.Value { return out.With("isError", jsonjs.BoolValue(true)) }},
			mutation{s.op, s.present, func(_ []byte, out jsonjs.Value) jsonjs.Value { return out.With("isError", jsonjs.BoolValue(true)) }},
			mutation{s.op, s.present, withMeta(func(jsonjs.Value) jsonjs.Value { return parse(s.other) })},
			mutation{s.op, "CODE-DISPATCH-6", func(in []byte, out jsonjs.Value) jsonjs.Value {
				if nested(in) {
					return out.With("meta", parse(`{"shape":"paths","paths":[],"truncated":false,"total":0}`))
				}
				return out
			}},
			mutation{s.op, "CODE-PRESENT-4", func(in []byte, out jsonjs.Value) jsonjs.Value {
				if nested(in) {
					return out.With("callView", parse(`{"card":"generic","title":"t","kind":"search","rawInput":"x"}`))
				}
				return out
			}},
			mutation{s.op, "SEARCH-NARROW-2", withMeta(func(m jsonjs.Value) jsonjs.Value { return m.With("total", jsonjs.StringValue("3")) })},
			mutation{s.op, "SEARCH-NARROW-4", withMeta(func(m jsonjs.Value) jsonjs.Value { return m.With("shape", jsonjs.StringValue("Files")) })},
			mutation{s.op, s.shape, withMeta(func(m jsonjs.Value) jsonjs.Value { return m.With(s.listKey, parse(`[{"path":1,"matches":[]}]`)) })},
			mutation{s.op, "SEARCH-NARROW-7", func(_ []byte, out jsonjs.Value) jsonjs.Value {
				if v := get(out, "view"); !v.IsNull() {
					return out.With("view", v.With("truncated", jsonjs.StringValue("no")))
				}
				return out
			}},
			mutation{s.op, "SEARCH-CAP-5", withMeta(func(m jsonjs.Value) jsonjs.Value {
				list := parse(s.wellFormed)
				items, _ := list.Items()
				return m.With(s.listKey, jsonjs.ArrayValue(append(items, jsonjs.StringValue(strings.Repeat("p", 70000)))...))
			})},
			mutation{s.op, "SEARCH-CAP-4", withMeta(func(m jsonjs.Value) jsonjs.Value { return m.With("total", jsonjs.IntValue(-1)) })},
			mutation{s.op, "SEARCH-CAP-3", withMeta(func(m jsonjs.Value) jsonjs.Value { return m.With("truncated", jsonjs.BoolValue(false)) })},
			mutation{s.op, "SEARCH-META-6", withMeta(func(m jsonjs.Value) jsonjs.Value { return m.With(s.listKey, parse(s.wellFormed)) })},
		)
	}
	mutations = append(mutations, []mutation{
		{"search.present", "SEARCH-PRESENT-1", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			return out.With("view", parse(`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":0}`))
		}},
		{"search.present", "SEARCH-PRESENT-2", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			return out.With("view", parse(`{"card":"search","shape":"matches","files":[],"truncated":false,"total":0}`))
		}},
		{"search.present", "SEARCH-NARROW-7", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			if v := get(out, "view"); !v.IsNull() {
				return out.With("view", v.With("total", jsonjs.IntValue(-7)))
			}
			return out
		}},
		{"run_code.result", "CODE-PRESENT-3", func(_ []byte, out jsonjs.Value) jsonjs.Value { return out.With("meta", parse(`{}`)) }},
		{"run_code.result", "CODE-PRESENT-2", func(_ []byte, out jsonjs.Value) jsonjs.Value { return out.With("view", parse(`{}`)) }},
		{"run_code.result", "CODE-RENDER-1", func(_ []byte, out jsonjs.Value) jsonjs.Value { return out.With("content", jsonjs.StringValue("")) }},
		{"spill.preview", "SPILL-CAP-1", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			if c, ok := get(out, "content").Str(); ok {
				return out.With("content", jsonjs.StringValue(c+strings.Repeat("x", 100000)))
			}
			return out
		}},
		{"retain.items", "RET-ITEM-3", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			s, _ := get(out, "seen").Float()
			return out.With("seen", jsonjs.NumberValue(s+1))
		}},
		{"retain.items", "RET-ITEM-2", func(_ []byte, out jsonjs.Value) jsonjs.Value { return out.With("pushes", parse(`[]`)) }},
		{"retain.text", "RET-TEXT-7", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			t, _ := get(out, "truncated").Bool()
			return out.With("truncated", jsonjs.BoolValue(!t))
		}},
		{"retain.text", "RET-TEXT-3", func(_ []byte, out jsonjs.Value) jsonjs.Value {
			ps, _ := get(out, "pushes").Items()
			return out.With("pushes", jsonjs.ArrayValue(append(ps, parse(`{"kept":true,"truncated":false}`))...))
		}},
	}...)
	covered := map[string]bool{}
	for _, m := range mutations {
		covered[m.op+" "+m.req] = true
		It(m.op+" "+m.req, func() {
			cs := runner.Select(cases(), runner.Selection{Op: m.op})
			rep := run(cs, funcHarness{alter: func(_ string, in []byte, out jsonjs.Value) jsonjs.Value { return m.alter(in, out) }})
			hits := 0
			for _, r := range rep.Cases {
				for _, d := range r.Diffs {
					if d.Comparator == runner.CmpProperty && len(d.Requirements) == 1 && d.Requirements[0] == m.req {
						hits++
						Expect(r.Broken).To(ContainElement(m.req))
						Expect(r.Verdict).To(Equal(verdict.Fail))
						Expect(d.Message).NotTo(BeEmpty())
						Expect(d.Path).To(HavePrefix("$."))
					}
				}
			}
			Expect(hits).To(BeNumerically(">", 0), "no case broke %s", m.req)
		})
	}
	It("has a mutation for every property", func() {
		for _, p := range runner.Properties {
			Expect(covered).To(HaveKey(p.Op+" "+p.Requirement), "no mutation test breaks %s %s", p.Op, p.Requirement)
		}
	})
})

var _ = Describe("Select", func() {
	It("selects by ID regexp, op, requirement and ID set", func() {
		all := cases()
		got := runner.Select(all, runner.Selection{Run: regexp.MustCompile(`^grep\.result/gen-00[12]$`)})
		Expect(got).To(HaveLen(2))
		Expect(got[0].ID).To(Equal("grep.result/gen-001"))

		byOp := runner.Select(all, runner.Selection{Op: "retain.items"})
		Expect(byOp).NotTo(BeEmpty())
		for _, c := range byOp {
			Expect(c.Op).To(Equal("retain.items"))
		}
		two := runner.Select(all, runner.Selection{Op: "retain.items, retain.text"})
		Expect(len(two)).To(BeNumerically(">", len(byOp)))

		byReq := runner.Select(all, runner.Selection{Requirement: "SEARCH-CAP-4"})
		Expect(byReq).NotTo(BeEmpty())
		for _, c := range byReq {
			Expect(c.Requirements).To(ContainElement("SEARCH-CAP-4"))
		}
		prefix := runner.Select(all, runner.Selection{Requirement: "SEARCH-CAP-*"})
		Expect(len(prefix)).To(BeNumerically(">", len(byReq)))

		ids := runner.Select(all, runner.Selection{IDs: map[string]bool{"retain.text/gen-003": true, "nope": true}})
		Expect(ids).To(HaveLen(1))
		Expect(runner.Select(all, runner.Selection{IDs: map[string]bool{}})).To(BeEmpty())
		Expect(runner.Select(all, runner.Selection{})).To(HaveLen(len(all)))

		both := runner.Select(all, runner.Selection{Op: "grep.result", Requirement: "SEARCH-CAP-4", Run: regexp.MustCompile("gen-")})
		for _, c := range both {
			Expect(c.Op).To(Equal("grep.result"))
			Expect(c.ID).To(ContainSubstring("gen-"))
		}
	})

	It("reruns the failed cases of an earlier report", func() {
		cs := runner.Select(cases(), runner.Selection{Op: "retain.items"})
		rep := run(cs, funcHarness{alter: func(_ string, in []byte, out jsonjs.Value) jsonjs.Value {
			if strings.Contains(string(in), `"maxItems":0`) {
				return out.With("truncated", jsonjs.StringValue("?"))
			}
			return out
		}})
		data, err := json.Marshal(rep)
		Expect(err).NotTo(HaveOccurred())
		failed, err := runner.FailedIDs(data)
		Expect(err).NotTo(HaveOccurred())
		want := map[string]bool{}
		for _, r := range rep.Cases {
			if r.Verdict == verdict.Fail {
				want[r.ID] = true
			}
		}
		Expect(want).NotTo(BeEmpty())
		Expect(failed).To(Equal(want))
		Expect(runner.Select(cs, runner.Selection{IDs: failed})).To(HaveLen(len(want)))
	})

	It("refuses reports that are not conform run reports", func() {
		_, err := runner.FailedIDs([]byte(`not json`))
		Expect(err).To(MatchError(ContainSubstring("earlier report: not a JSON run report")))
		_, err = runner.FailedIDs([]byte(`{"format":"conform-check-log","version":1,"cases":[]}`))
		Expect(err).To(MatchError(ContainSubstring(`format "conform-check-log", want "conform-run"`)))
		_, err = runner.FailedIDs([]byte(`{"format":"conform-run","version":2,"cases":[]}`))
		Expect(err).To(MatchError(ContainSubstring("version 2")))
		_, err = runner.FailedIDs([]byte(`{"version":1}`))
		Expect(err).To(MatchError(ContainSubstring(`no "format"`)))
		_, err = runner.FailedIDs([]byte(`{"format":"conform-run","version":1,"cases":[{"id":"a/b","verdict":"bad"}]}`))
		Expect(err).To(MatchError(ContainSubstring(`case a/b: unknown verdict "bad"`)))
		ids, err := runner.FailedIDs([]byte(`{"format":"conform-run","version":1,"cases":[{"id":"a/b","verdict":"pass"},{"id":"a/c","verdict":"xpass"},{"id":"a/d","verdict":"crash"},{"id":"a/e","verdict":"xfail"}]}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(ids).To(Equal(map[string]bool{"a/c": true, "a/d": true}))
	})
})

var _ = Describe("baseline", func() {
	parseBaseline := func(yaml string) *baseline.Baseline {
		b, err := baseline.Parse("baseline.yaml", []byte(yaml))
		Expect(err).NotTo(HaveOccurred())
		return b
	}
	var cs []runner.Case
	var h funcHarness
	BeforeEach(func() {
		cs = runner.Select(cases(), runner.Selection{Op: "retain.items"})
		// a harness failing retain.items/gen-001 and gen-002 only
		bad := map[string]bool{string(caseByID("retain.items/gen-001").Input): true, string(caseByID("retain.items/gen-002").Input): true}
		h = funcHarness{alter: func(_ string, in []byte, out jsonjs.Value) jsonjs.Value {
			if bad[string(in)] {
				s, _ := get(out, "seen").Float()
				return out.With("seen", jsonjs.NumberValue(s+1))
			}
			return out
		}}
	})
	runWith := func(b *baseline.Baseline, all []runner.Case) (*runner.Report, error) {
		return runner.Run(context.Background(), cs, runner.Options{Jobs: 2, NewSession: sessionsOf(h), Baseline: b, AllCases: all})
	}
	verdictOf := func(rep *runner.Report, id string) runner.CaseResult {
		for _, r := range rep.Cases {
			if r.ID == id {
				return r
			}
		}
		Fail("no result for " + id)
		return runner.CaseResult{}
	}

	It("turns a listed failing case into xfail with the reason", func() {
		rep, err := runWith(parseBaseline(`
- id: retain.items/gen-001
  reason: off by one upstream
  issue: HARNESS-7
- requirement: RET-ITEM-3
  reason: seen counts the sentinel
`), nil)
		Expect(err).NotTo(HaveOccurred())
		r1 := verdictOf(rep, "retain.items/gen-001")
		Expect(r1.Verdict).To(Equal(verdict.XFail))
		Expect(r1.Baseline).To(Equal("off by one upstream (HARNESS-7)"))
		Expect(r1.Diffs).NotTo(BeEmpty())
		// a requirement entry matches the broken requirement
		r2 := verdictOf(rep, "retain.items/gen-002")
		Expect(r2.Verdict).To(Equal(verdict.XFail))
		Expect(r2.Baseline).To(Equal("seen counts the sentinel"))
		Expect(rep.Totals[verdict.XFail]).To(Equal(2))
		Expect(rep.Totals[verdict.Fail]).To(Equal(0))
		Expect(rep.Conformant()).To(BeTrue())
	})

	It("turns a listed passing case into xpass, which fails the run", func() {
		rep, err := runWith(parseBaseline(`
- id: retain.items/gen-003
  reason: fixed since
- requirement: RET-ITEM-1
  reason: requirement entries never make xpass
`), nil)
		Expect(err).NotTo(HaveOccurred())
		r := verdictOf(rep, "retain.items/gen-003")
		Expect(r.Verdict).To(Equal(verdict.XPass))
		Expect(r.Baseline).To(Equal("fixed since"))
		Expect(rep.Totals[verdict.XPass]).To(Equal(1))
		Expect(rep.Totals[verdict.Fail]).To(Equal(2))
		Expect(rep.Conformant()).To(BeFalse())
	})

	It("refuses entries naming unknown cases or requirements before running", func() {
		started := false
		_, err := runner.Run(context.Background(), cs, runner.Options{NewSession: func(context.Context) (adapter.Session, error) {
			started = true
			return &session{h: adapter.Reference()}, nil
		}, Baseline: parseBaseline(`
- id: retain.items/no-such-case
  reason: r
- requirement: NO-SUCH-1
  reason: r
`)})
		Expect(err).To(MatchError(ContainSubstring(`baseline.yaml:2: unknown case id "retain.items/no-such-case"`)))
		Expect(err).To(MatchError(ContainSubstring(`baseline.yaml:4: unknown requirement "NO-SUCH-1"`)))
		Expect(started).To(BeFalse())
	})

	It("validates case ids against AllCases when running a selection", func() {
		b := parseBaseline(`
- id: grep.result/gen-001
  reason: not selected
`)
		_, err := runWith(b, nil)
		Expect(err).To(MatchError(ContainSubstring("unknown case id")))
		rep, err := runWith(b, cases())
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Totals[verdict.XPass]).To(Equal(0))
	})
})

var _ = Describe("LoadCases", func() {
	read := func(p string) []byte {
		b, err := os.ReadFile(root + "/" + p)
		Expect(err).NotTo(HaveOccurred())
		return b
	}
	It("loads fixtures with their goldens, keeping the input text", func() {
		c := caseByID("grep.result/gen-002")
		Expect(c.Op).To(Equal("grep.result"))
		Expect(c.File).To(Equal("fixtures/grep.result/gen-002.json"))
		Expect(json.Valid(c.Input)).To(BeTrue())
		Expect(c.Want.Output).NotTo(BeNil())
		Expect(c.Want.Error).To(BeNil())
	})
	It("names the golden file that is missing or broken", func() {
		fsys := fstest.MapFS{"fixtures/grep.result/gen-001.json": {Data: read("fixtures/grep.result/gen-001.json")}}
		_, err := runner.LoadCases(fsys)
		Expect(err).To(MatchError(ContainSubstring("golden/grep.result/gen-001.json")))

		fsys["golden/grep.result/gen-001.json"] = &fstest.MapFile{Data: []byte(`{"id":"grep.result/gen-001","op":"grep.result"}`)}
		_, err = runner.LoadCases(fsys)
		Expect(err).To(MatchError(ContainSubstring("golden/grep.result/gen-001.json")))

		fsys["golden/grep.result/gen-001.json"] = &fstest.MapFile{Data: []byte(`{"id":"grep.result/gen-009","op":"grep.result","output":{}}`)}
		_, err = runner.LoadCases(fsys)
		Expect(err).To(MatchError(ContainSubstring("golden/grep.result/gen-001.json: id \"grep.result/gen-009\"")))
	})
	It("names the fixture file that is broken", func() {
		fsys := fstest.MapFS{"fixtures/grep.result/gen-001.json": {Data: []byte(`{"id":1}`)}}
		_, err := runner.LoadCases(fsys)
		Expect(err).To(MatchError(ContainSubstring("fixtures/grep.result/gen-001.json")))
		_, err = runner.LoadCases(fstest.MapFS{})
		Expect(err).To(HaveOccurred())
	})
})
