package runner_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

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

// blamedBy runs every case through a harness and returns the requirements
// the run fails (issue 12's requirement summary), sorted, with the cases
// that fail, for messages.
func blamedBy(h adapter.Harness) ([]string, string) {
	GinkgoHelper()
	return blamedWith(h, adapter.ReferenceImplementation(), false)
}

// blamedWith is blamedBy for a harness whose handshake says impl, with the
// deviation models off if noDiagnosis.
func blamedWith(h adapter.Harness, impl adapter.Implementation, noDiagnosis bool) ([]string, string) {
	GinkgoHelper()
	rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2, NoDiagnosis: noDiagnosis,
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(h, impl), nil
		}})
	Expect(err).NotTo(HaveOccurred())
	var failed []string
	for _, row := range runner.Summarize(rep) {
		if row.Fail > 0 {
			failed = append(failed, row.ID)
		}
	}
	sort.Strings(failed)
	var b strings.Builder
	for _, c := range rep.Cases {
		if c.Verdict != verdict.Pass {
			fmt.Fprintf(&b, "%s %s %v\n", c.ID, c.Verdict, c.Broken)
		}
	}
	return failed, b.String()
}

var _ = Describe("blame (issue 12)", func() {
	DescribeTable("a one-bug harness fails exactly the requirements its bug breaks",
		func(h adapter.Harness, want []string) {
			got, detail := blamedBy(h)
			Expect(got).To(Equal(want), detail)
		},
		// Trimming keeps a partial group: groups are not whole (CAP-1), the
		// kept count is not the closed form's (CAP-2, where a group of five
		// has room for some of its matches), and the meta is no prefix of
		// the text (META-6). The size bound (CAP-5) holds.
		Entry("the meta cap trims matches inside the last file group", wrong.MetaTrimsMatches{}, []string{"SEARCH-CAP-1", "SEARCH-CAP-2", "SEARCH-META-6"}),
		Entry("numbers formatted with Go's %g", wrong.NumberGo{}, []string{"CODE-NUM-1"}),
		// The drops-empty-strings model (issue 20) names the rule of each
		// place the logs are joined: a run's text, a failure's captured output.
		Entry("empty log lines dropped", wrong.DropEmptyLogs{}, []string{"CODE-FAIL-1", "CODE-RENDER-1"}),
		// The groups-sorted model (issue 20) names the grouping rule alone,
		// where the text, the spill text and the meta differ.
		Entry("grep groups sorted by path", wrong.GrepSortedPaths{}, []string{"SEARCH-GREP-3"}),
		Entry("a broken pushes", wrong.BrokenPushes{}, []string{"RET-ITEM-2"}),
	)
})

var _ = Describe("requirements scoped to a language (issue 20)", func() {
	It("blames SEARCH-JSON-2, about Go's encoding/json, only on a harness that says it is Go or says nothing", func() {
		// Part by part, the models off: with them, escape-ascii names
		// SEARCH-JSON-1 alone whatever the language.
		in := func(lang string) []string {
			got, _ := blamedWith(wrong.MetaASCII{}, adapter.Implementation{Name: "meta-ascii", Language: lang}, true)
			return got
		}
		for _, lang := range []string{"go", "Go", "golang", ""} {
			Expect(in(lang)).To(ContainElements("SEARCH-JSON-1", "SEARCH-JSON-2"), lang)
		}
		for _, lang := range []string{"python", "typescript", "rust", "c#"} {
			got := in(lang)
			Expect(got).To(ContainElement("SEARCH-JSON-1"), lang)
			Expect(got).NotTo(ContainElement("SEARCH-JSON-2"), lang)
		}
	})

	It("leaves every case that cites a scoped requirement a citation that binds any harness", func() {
		for _, c := range cases() {
			var scoped, open []string
			for _, id := range c.Requirements {
				if r, ok := spec.Lookup(id); ok && r.Scope != "" {
					scoped = append(scoped, id)
				} else {
					open = append(open, id)
				}
			}
			if len(scoped) > 0 {
				Expect(open).NotTo(BeEmpty(), "%s cites only %v", c.ID, scoped)
			}
		}
	})
})

// pyStrip is a port whose run_code tests its description for blankness
// with Python's str.strip (unicode.IsSpace and U+001C–U+001F), not
// ECMAScript's trim: it rejects "\u0085" and accepts "\ufeff", and shows
// the description it was given in its call view.
type pyStrip struct{}

func (pyStrip) Ops() []string { return reference.Ops() }

func (pyStrip) Run(op string, input []byte) ([]byte, error) {
	v, err := jsonjs.Parse(input)
	if op != reference.OpRunCodeResult || err != nil {
		return reference.Run(op, input)
	}
	args, _ := v.Get("args")
	desc, ok := args.Get("description")
	s, _ := desc.Str()
	if !ok {
		return reference.Run(op, input)
	}
	py := strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1C && r <= 0x1F) }) == ""
	if py == jsonjs.IsBlank(s) {
		return reference.Run(op, input)
	}
	as := " " // blank to JavaScript too
	if !py {
		as = "kept"
	}
	am, _ := args.Members()
	for i := range am {
		if am[i].Key == "description" {
			am[i].Value = jsonjs.StringValue(as)
		}
	}
	vm, _ := v.Members()
	for i := range vm {
		if vm[i].Key == "args" {
			vm[i].Value = jsonjs.ObjectValue(am...)
		}
	}
	out, err := reference.Run(op, jsonjs.Marshal(jsonjs.ObjectValue(vm...)))
	if err != nil {
		return out, err
	}
	// Its call view shows the description it was given, as any port's does.
	orig, _ := reference.Run(op, input)
	ov, _ := jsonjs.Parse(orig)
	view, _ := ov.Get("callView")
	got, _ := jsonjs.Parse(out)
	gm, _ := got.Members()
	for i := range gm {
		if gm[i].Key == "callView" {
			gm[i].Value = view
		}
	}
	return jsonjs.Marshal(jsonjs.ObjectValue(gm...)), nil
}

var _ = Describe("diagnosis by deviation models (issue 20)", func() {
	It("blames SEARCH-ARGS-3 alone on a port with Python's whitespace set, and names the model in every failing case", func() {
		rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(pyStrip{}, adapter.Implementation{Name: "py", Language: "python"}), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		failing := 0
		for _, c := range rep.Cases {
			if c.Verdict != verdict.Fail {
				continue
			}
			failing++
			Expect(c.Broken).To(Equal([]string{"SEARCH-ARGS-3"}), c.ID)
			var models []string
			for _, e := range c.Diagnosis {
				models = append(models, e.Model)
			}
			Expect(models).To(ContainElement("trim-python"), c.ID)
			Expect(models[0]).To(Equal("trim-python"), "%s: the harness's language first", c.ID)
		}
		Expect(failing).To(BeNumerically(">=", 5))
		var failed []string
		affected := map[string]int{}
		for _, row := range runner.Summarize(rep) {
			if row.Fail > 0 {
				failed = append(failed, row.ID)
			}
			affected[row.ID] = row.Affected
		}
		Expect(failed).To(Equal([]string{"SEARCH-ARGS-3"}))
		// The rendering rules of a run the port refused are touched, not
		// failed: counted apart (issue 20, item 4).
		for _, c := range rep.Cases {
			if c.ID == "run_code.result/gen-009" {
				Expect(c.Affected).To(ContainElement("CODE-RENDER-1"))
				Expect(c.Affected).NotTo(ContainElement("SEARCH-ARGS-3"))
			}
		}
		Expect(affected["CODE-RENDER-1"]).To(BeNumerically(">", 0))
	})

	It("diagnoses every failing case of the empty-log-dropping harness as drops-empty-strings", func() {
		rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(wrong.DropEmptyLogs{}, adapter.ReferenceImplementation()), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		failing := 0
		for _, c := range rep.Cases {
			if c.Verdict == verdict.Fail {
				failing++
				Expect(c.Diagnosis).NotTo(BeEmpty(), c.ID)
				Expect(c.Diagnosis[0].Model).To(Equal("drops-empty-strings"), c.ID)
				Expect(c.Diagnosis[0].Cause).To(Equal(`drops the empty strings of "run"."logs"`), c.ID)
			}
		}
		Expect(failing).To(BeNumerically(">", 0))
	})

	It("lists first the model whose functions are of the harness's language", func() {
		rep, err := runner.Run(context.Background(), []runner.Case{caseByID("run_code.result/run-code-args-description-nel-not-blank")}, runner.Options{
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(pyStrip{}, adapter.Implementation{Name: "rs", Language: "Rust"}), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		d := rep.Cases[0].Diagnosis
		Expect(len(d)).To(BeNumerically(">=", 2), "U+0085: Python's set and Unicode's both strip it")
		Expect(d[0].Model).To(Equal("trim-unicode"))
	})

	It("explains no failure of the one-bug harnesses the models do not describe", func() {
		for _, h := range []adapter.Harness{wrong.NumberGo{}, wrong.MetaTrimsMatches{}} {
			rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
				NewSession: func(context.Context) (adapter.Session, error) {
					return adapter.InProcess(h, adapter.ReferenceImplementation()), nil
				}})
			Expect(err).NotTo(HaveOccurred())
			for _, c := range rep.Cases {
				Expect(c.Diagnosis).To(BeEmpty(), "%T %s", h, c.ID)
			}
		}
	})
})

// failsRuns answers every successful run_code call with an error result,
// and every retain.items budget the reference refuses with an empty window.
type failsRuns struct{}

func (failsRuns) Ops() []string { return reference.Ops() }

func (failsRuns) Run(op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	switch {
	case op == reference.OpRetainItems && err != nil:
		return []byte(`{"items":[],"kept":0,"seen":0,"truncated":false,"omitted":{"kind":"none"},"pushes":[]}`), nil
	case op != reference.OpRunCodeResult || err != nil || strings.Contains(string(out), `"isError":true`):
		return out, err
	}
	return []byte(`{"isError":true,"content":"Error: boom","error":null,"meta":null,"view":null,"callView":null}`), nil
}

var _ = Describe("outcome flips (issue 20)", func() {
	It("blame the check that decides failure, never the rendering rules of the outcome that did not happen", func() {
		rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(failsRuns{}, adapter.Implementation{Name: "flips"}), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		runs, budgets := 0, 0
		for _, c := range rep.Cases {
			if c.Verdict != verdict.Fail {
				continue
			}
			switch c.Op {
			case reference.OpRunCodeResult:
				runs++
				for _, id := range c.Broken {
					Expect(id).To(BeElementOf("SEARCH-ARGS-3", "CODE-ERR-1", "CODE-VALUE-1", "CODE-RENDER-1"), "%s blames %v", c.ID, c.Broken)
				}
				Expect(c.Broken).NotTo(BeEmpty(), c.ID)
			case reference.OpRetainItems:
				budgets++
				Expect(c.Broken).To(Equal([]string{"RET-ITEM-1"}), c.ID)
			}
		}
		Expect(runs).To(BeNumerically(">", 20))
		Expect(budgets).To(BeNumerically(">", 2))
	})
})

// refusesSurrogates throws, in serde_json's words, on an input holding a
// lone surrogate anywhere, as a Rust port reading it with serde_json does.
type refusesSurrogates struct{}

func (refusesSurrogates) Ops() []string { return reference.Ops() }

func (refusesSurrogates) Run(op string, input []byte) ([]byte, error) {
	v, err := jsonjs.Parse(input)
	if err == nil && holdsLone(v) {
		return nil, errors.New("lone leading surrogate in hex escape at line 1 column 9")
	}
	return reference.Run(op, input)
}

func holdsLone(v jsonjs.Value) bool {
	if s, ok := v.Str(); ok {
		return jsonjs.ToUTF8(s) != s
	}
	items, _ := v.Items()
	for _, it := range items {
		if holdsLone(it) {
			return true
		}
	}
	members, _ := v.Members()
	for _, m := range members {
		if jsonjs.ToUTF8(m.Key) != m.Key || holdsLone(m.Value) {
			return true
		}
	}
	return false
}

var _ = Describe("the lone-surrogate models in a run (issue 20)", func() {
	It("diagnose a port that refuses lone surrogates, blaming the rule of the place that holds one", func() {
		rep, err := runner.Run(context.Background(), cases(), runner.Options{Jobs: 2,
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(refusesSurrogates{}, adapter.Implementation{Name: "serde", Language: "rust"}), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		diagnosed := 0
		for _, c := range rep.Cases {
			if c.Verdict != verdict.Fail || len(c.Diagnosis) == 0 {
				continue
			}
			diagnosed++
			Expect(c.Diagnosis[0].Model).To(Equal("surrogates-refused"), c.ID)
			Expect(c.Broken).To(Equal([]string{c.Diagnosis[0].Requirement}), c.ID)
		}
		Expect(diagnosed).To(BeNumerically(">=", 10))
		Expect(caseBroken(rep, "glob.result/glob-value-lone-surrogate-top-level-entries")).To(Equal([]string{"SEARCH-JSON-1"}))
	})
})

func caseBroken(rep *runner.Report, id string) []string {
	for _, c := range rep.Cases {
		if c.ID == id {
			return c.Broken
		}
	}
	Fail("no case " + id)
	return nil
}
