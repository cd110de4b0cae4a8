package runner_test

import (
	"bytes"
	"context"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// inDialect is the reference computing with another language's primitives,
// as a port using that language's library does.
type inDialect struct{ d reference.Dialect }

func (inDialect) Ops() []string { return reference.Ops() }

func (h inDialect) Run(op string, input []byte) ([]byte, error) {
	return reference.RunWith(op, input, h.d)
}

// spillsRead is the reference without the result arm's read exemption
// (SPILL-RES-2): a port that forgot one of the policy's conditions.
type spillsRead struct{}

func (spillsRead) Ops() []string { return reference.Ops() }

func (spillsRead) Run(op string, input []byte) ([]byte, error) {
	if op != reference.OpSpillPreview || !bytes.Contains(input, []byte(`"toolName":"read"`)) {
		return reference.Run(op, input)
	}
	out, err := reference.Run(op, bytes.Replace(input, []byte(`"toolName":"read"`), []byte(`"toolName":"rea_"`), 1))
	return bytes.ReplaceAll(out, []byte(`"rea_.txt"`), []byte(`"read.txt"`)), err
}

// runAs runs the cases through h and returns the failing ones.
func runAs(h adapter.Harness, language string, ids ...string) []runner.CaseResult {
	cs := cases()
	if ids != nil {
		cs = nil
		for _, id := range ids {
			cs = append(cs, caseByID(id))
		}
	}
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 2,
		NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(h, adapter.Implementation{Name: "port", Language: language}), nil
		}})
	Expect(err).NotTo(HaveOccurred())
	var failing []runner.CaseResult
	for _, c := range rep.Cases {
		if c.Verdict == verdict.Fail {
			failing = append(failing, c)
		}
	}
	return failing
}

var _ = Describe("the dialect models in a run (issue 20)", func() {
	It("blame a decoder that keeps a leading BOM on the op's decoding rule alone, in every failing case", func() {
		failing := runAs(inDialect{reference.Dialect{Decode: jsonjs.DecodeUTF8}}, "rust")
		Expect(len(failing)).To(BeNumerically(">=", 10))
		rule := map[string]string{"retain.text": "RET-UTF8-3", "grep.result": "SEARCH-PREVIEW-3", "spill.preview": "SPILL-PREV-3"}
		for _, c := range failing {
			Expect(c.Diagnosis).NotTo(BeEmpty(), c.ID)
			Expect(c.Diagnosis[0].Model).To(Equal("utf8-bom-kept"), c.ID)
			Expect(c.Broken).To(Equal([]string{rule[c.Op]}), c.ID)
		}
	})

	It("count a requirement only affected by the BOM kept as no requirement that never passed (RET-UTF8-4: the cause is RET-UTF8-3)", func() {
		var cs []runner.Case
		for _, c := range cases() {
			if slices.Contains(c.Requirements, "RET-UTF8-4") {
				cs = append(cs, c)
			}
		}
		rep, err := runner.Run(context.Background(), cs, runner.Options{
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(inDialect{reference.Dialect{Decode: jsonjs.DecodeUTF8}}, adapter.Implementation{Name: "port", Language: "rust"}), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		failing := 0
		for _, c := range rep.Cases {
			if c.Verdict == verdict.Fail {
				failing++
				Expect(c.Broken).NotTo(ContainElement("RET-UTF8-4"), c.ID)
			}
		}
		Expect(failing).To(Equal(len(cs)), "every case of RET-UTF8-4 keeps a BOM")
		for _, reason := range runner.Reasons(rep) {
			Expect(reason.Kind).NotTo(Equal(runner.ReasonReqNeverPassed), reason.Message)
		}
	})

	It("blame a line number written without an exponent on SEARCH-GREP-3 alone, the meta property it breaks too", func() {
		plain := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
		failing := runAs(inDialect{reference.Dialect{GrepNumber: plain}}, "go")
		Expect(failing).NotTo(BeEmpty())
		for _, c := range failing {
			Expect(c.Diagnosis).NotTo(BeEmpty(), c.ID)
			Expect(c.Diagnosis[0].Model).To(Equal("number-plain"), c.ID)
			Expect(c.Broken).To(Equal([]string{"SEARCH-GREP-3"}), c.ID)
		}
	})
})

var _ = Describe("the spill decision (issue 20, item 3)", func() {
	It("blames SPILL-RES-2 alone where the harness saves a text the reference keeps", func() {
		failing := runAs(spillsRead{}, "python")
		Expect(len(failing)).To(BeNumerically(">=", 2))
		for _, c := range failing {
			Expect(c.Broken).To(Equal([]string{"SPILL-RES-2"}), c.ID)
		}
	})
})
