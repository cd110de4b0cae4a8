package runner_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// runWith runs cases through a wrong harness with the given options.
func runWith(cs []runner.Case, h adapter.Harness, opt runner.Options) *runner.Report {
	opt.Jobs = 2
	opt.NewSession = func(context.Context) (adapter.Session, error) {
		return adapter.InProcess(h, wrong.Implementation("test")), nil
	}
	rep, err := runner.Run(context.Background(), cs, opt)
	Expect(err).NotTo(HaveOccurred())
	return rep
}

// goldenCase is a case of input whose golden answer is the reference's.
func goldenCase(op string, input []byte) runner.Case {
	v, err := jsonjs.Parse(input)
	Expect(err).NotTo(HaveOccurred())
	out, err := reference.Run(op, input)
	Expect(err).NotTo(HaveOccurred())
	w, err := jsonjs.Parse(out)
	Expect(err).NotTo(HaveOccurred())
	return runner.Case{ID: op + "/minimal", Op: op, Input: input, InputValue: v, Want: runner.Want{Output: &w}}
}

// An ample budget: the in-process minimizations below take well under a
// second; nothing here asserts a time.
const ample = 2 * time.Minute

var _ = Describe("minimizing unexplained failures (issue 20, item 2)", func() {
	It("shrinks the input to one that still fails the same field, and narrows the blame to what it exercises", func() {
		// The fork of issue 12 drops matches inside a group where
		// SEARCH-CAP-1 drops whole groups; the case also cites SEARCH-CAP-2,
		// which the minimal input (one group of two matches) shows it does
		// not break.
		c := caseByID("grep.result/meta-cap-group-of-five-dropped-whole")
		h := wrong.MetaTrimsMatches{}
		off := runWith([]runner.Case{c}, h, runner.Options{})
		on := runWith([]runner.Case{c}, h, runner.Options{ExplainTime: ample})
		Expect(off.Cases[0].Minimized).To(BeNil())
		Expect(off.Cases[0].Broken).To(ContainElement("SEARCH-CAP-2"))

		r := on.Cases[0]
		Expect(r.Verdict).To(Equal(off.Cases[0].Verdict))
		Expect(r.Minimized).NotTo(BeNil())
		Expect(r.Minimized.Field).To(Equal("meta"))
		Expect(r.Minimized.Stopped).To(BeFalse())
		Expect(len(r.Minimized.Input)).To(BeNumerically("<", len(c.Input)))
		Expect(r.Broken).To(ConsistOf("SEARCH-CAP-1", "SEARCH-META-6"))
		Expect(r.Affected).To(ContainElement("SEARCH-CAP-2"))

		// The minimal input fails the same field when run as a case of its own.
		again := runner.RunCase(context.Background(), adapter.InProcess(h, wrong.Implementation("test")), goldenCase(c.Op, r.Minimized.Input), 0)
		Expect(again.Verdict).To(Equal(verdict.Fail))
		Expect(again.Diffs).To(ContainElement(HaveField("Field", "meta")))
		Expect(on.Notes).To(BeEmpty())
	})

	It("never changes a verdict, and minimizes every failing case no model explains", func() {
		for _, h := range []adapter.Harness{wrong.ThreeBugs{}, wrong.GrepLineShort{}} {
			off := runWith(cases(), h, runner.Options{})
			on := runWith(cases(), h, runner.Options{ExplainTime: ample})
			minimized := 0
			for i, r := range on.Cases {
				Expect(r.Verdict).To(Equal(off.Cases[i].Verdict), r.ID)
				Expect(r.Diagnosis).To(Equal(off.Cases[i].Diagnosis), r.ID)
				if r.Verdict != verdict.Fail || len(r.Diagnosis) > 0 {
					Expect(r.Minimized).To(BeNil(), r.ID)
					continue
				}
				minimized++
				Expect(r.Minimized).NotTo(BeNil(), r.ID)
				Expect(len(r.Minimized.Input)).To(BeNumerically("<=", len(cases()[i].Input)), r.ID)
				Expect(r.Minimized.Field).To(Equal(off.Cases[i].Diffs[0].Field), r.ID)
				// Minimization only narrows: what it blames the run blamed.
				for _, id := range r.Broken {
					Expect(off.Cases[i].Broken).To(ContainElement(id), r.ID)
				}
				Expect(r.Broken).NotTo(BeEmpty(), r.ID)
			}
			Expect(minimized).To(BeNumerically(">", 5))
		}
	})

	It("says when the budget ran out, and keeps the case's input as the smallest found", func() {
		cs := []runner.Case{caseByID("grep.result/meta-cap-group-of-five-dropped-whole")}
		rep := runWith(cs, wrong.MetaTrimsMatches{}, runner.Options{ExplainTime: time.Nanosecond})
		r := rep.Cases[0]
		Expect(r.Verdict).To(Equal(verdict.Fail))
		Expect(r.Minimized).NotTo(BeNil())
		Expect(r.Minimized.Stopped).To(BeTrue())
		Expect(r.Minimized.Runs).To(Equal(0))
		Expect(string(r.Minimized.Input)).To(Equal(string(cs[0].Input)))
		Expect(rep.Notes).To(HaveLen(1))
		Expect(rep.Notes[0].Kind).To(Equal(runner.NoteExplain))
		Expect(rep.Notes[0].Message).To(HavePrefix("minimization stopped at budget"))
	})

	It("leaves a case a model explains alone, and minimizes it with the models off", func() {
		var cs []runner.Case
		for _, c := range cases() {
			if c.Op == "run_code.result" {
				cs = append(cs, c)
			}
		}
		h := wrong.DropEmptyLogs{}
		on := runWith(cs, h, runner.Options{ExplainTime: ample})
		noModels := runWith(cs, h, runner.Options{ExplainTime: ample, NoDiagnosis: true})
		failing := 0
		for i, r := range on.Cases {
			if r.Verdict != verdict.Fail {
				continue
			}
			failing++
			Expect(r.Diagnosis).NotTo(BeEmpty(), r.ID)
			Expect(r.Minimized).To(BeNil(), r.ID)
			Expect(noModels.Cases[i].Verdict).To(Equal(verdict.Fail), r.ID)
			Expect(noModels.Cases[i].Diagnosis).To(BeEmpty(), r.ID)
			Expect(noModels.Cases[i].Minimized).NotTo(BeNil(), r.ID)
		}
		Expect(failing).To(BeNumerically(">", 0))
	})

	It("never takes an input the op refuses for a smaller failing one", func() {
		// The harness answers instead of throwing. Any input the reference
		// throws on fails it the same way, so an unchecked minimization
		// ends at {}; a valid candidate keeps the op's input shape.
		c := caseByID("glob.result/glob-config-max-results-fraction")
		Expect(c.Want.Error).NotTo(BeNil())
		h := funcHarness{}
		s := &session{h: h, reply: func(_, op string) (adapter.Reply, error) {
			return adapter.Reply{Output: []byte(`{"isError":false,"content":"x"}`)}, nil
		}}
		rep, err := runner.Run(context.Background(), []runner.Case{c}, runner.Options{ExplainTime: ample,
			NewSession: func(context.Context) (adapter.Session, error) { return s, nil }})
		Expect(err).NotTo(HaveOccurred())
		r := rep.Cases[0]
		Expect(r.Verdict).To(Equal(verdict.Fail))
		Expect(r.Minimized).NotTo(BeNil())
		Expect(r.Minimized.Runs).To(BeNumerically(">", 0))
		// It still makes the reference throw, and keeps the input's shape
		// (the op's input schema), which {} does not.
		_, err = reference.Run(c.Op, r.Minimized.Input)
		Expect(err).To(HaveOccurred())
		Expect(spec.ValidateJSON("op-"+c.Op+".input", c.Input)).To(Succeed())
		Expect(spec.ValidateJSON("op-"+c.Op+".input", r.Minimized.Input)).To(Succeed(), string(r.Minimized.Input))
	})

	It("keeps only candidates valid for the op: the reference answers them as it answered the case", func() {
		// Every minimized input of a run parses, passes the reference
		// without an input error, and throws exactly when the case threw.
		rep := runWith(cases(), wrong.ThreeBugs{}, runner.Options{ExplainTime: ample})
		byID := map[string]runner.Case{}
		for _, c := range cases() {
			byID[c.ID] = c
		}
		n := 0
		for _, r := range rep.Cases {
			if r.Minimized == nil {
				continue
			}
			n++
			_, err := reference.Run(r.Op, r.Minimized.Input)
			Expect(err != nil).To(Equal(byID[r.ID].Want.Error != nil), r.ID)
			Expect(strings.TrimSpace(string(r.Minimized.Input))).To(HavePrefix("{"), r.ID)
		}
		Expect(n).To(BeNumerically(">", 0))
	})
})

var _ = Describe("the explaining phase on the progress display (issue 20)", func() {
	It("says how many cases it minimizes, then how many are done, once the cases have run", func() {
		var cs []runner.Case
		for _, c := range cases() {
			if c.Op == "grep.result" && strings.Contains(c.ID, "meta-cap") {
				cs = append(cs, c)
			}
		}
		var notes []string
		caseDone := 0
		rep := runWith(cs, wrong.MetaTrimsMatches{}, runner.Options{ExplainTime: ample,
			Progress: func(done, _ int) { caseDone = done },
			Phase: func(note string) {
				Expect(caseDone).To(Equal(len(cs)), "the phase comes after the last case")
				notes = append(notes, note)
			}})
		minimized := 0
		for _, c := range rep.Cases {
			if c.Minimized != nil {
				minimized++
			}
		}
		Expect(minimized).To(BeNumerically(">", 0))
		Expect(notes).To(HaveLen(minimized + 1))
		Expect(notes[0]).To(MatchRegexp(`^explaining \d+ cases?$`))
		Expect(notes[len(notes)-1]).To(Equal(fmt.Sprintf("%s, %d minimized", notes[0], minimized)))
	})

	It("is not entered where no failing case is left to minimize", func() {
		called := false
		runWith(cases()[:20], adapter.Reference(), runner.Options{ExplainTime: ample, Phase: func(string) { called = true }})
		Expect(called).To(BeFalse())
	})
})
