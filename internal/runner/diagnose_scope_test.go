package runner_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
	"github.com/dsh-conform/conform/internal/runner"
)

var _ = Describe("scoped deviation models (issue 20)", func() {
	// Go's %g writes 1e20 as 1e+20, as serde_json does: on that case the
	// serde model reproduces a Go harness's answer by coincidence.
	models := func(language string) []string {
		rep, err := runner.Run(context.Background(), []runner.Case{caseByID("run_code.result/run-code-number-1e20")}, runner.Options{
			NewSession: func(context.Context) (adapter.Session, error) {
				return adapter.InProcess(wrong.NumberGo{}, adapter.Implementation{Name: "n", Language: language}), nil
			}})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Cases[0].Broken).To(Equal([]string{"CODE-NUM-1"}))
		var names []string
		for _, e := range rep.Cases[0].Diagnosis {
			names = append(names, e.Model)
		}
		return names
	}

	It("name a cause only on a harness of one of their functions' languages, or of none said", func() {
		Expect(models("go")).NotTo(ContainElement("number-serde"))
		Expect(models("Rust")).To(ContainElement("number-serde"))
		Expect(models("")).To(ContainElement("number-serde"))
	})
})
