package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

var _ = Describe("the reference", func() {
	It("passes every fixture, with no property violation", func() {
		cs := cases()
		Expect(len(cs)).To(BeNumerically(">", 600))
		rep := run(cs, adapter.Reference())
		Expect(rep.Cases).To(HaveLen(len(cs)))
		var failures []string
		for i, r := range rep.Cases {
			Expect(r.ID).To(Equal(cs[i].ID), "results are in case order")
			if r.Verdict != verdict.Pass {
				failures = append(failures, fmt.Sprintf("%s: %s %s %+v", r.ID, r.Verdict, r.Message, r.Diffs))
			}
		}
		Expect(failures).To(BeEmpty())
		Expect(rep.Totals[verdict.Pass]).To(Equal(len(cs)))
		Expect(rep.Totals).To(HaveLen(len(verdict.All)))
		Expect(rep.Conformant()).To(BeTrue())
		Expect(rep.Format).To(Equal(runner.ReportFormat))
		Expect(rep.Version).To(Equal(runner.ReportVersion))
		Expect(rep.Implementation.Name).To(Equal("test"))
	})

	It("never breaks a property on its own outputs, over every fixture", func() {
		checked := map[string]int{}
		for _, c := range cases() {
			out, err := reference.Run(c.Op, c.Input)
			if err != nil {
				continue // a thrown error has no output to check
			}
			v, err := jsonjs.Parse(out)
			Expect(err).NotTo(HaveOccurred())
			Expect(runner.CheckProperties(c.Op, c.InputValue, v)).To(BeEmpty(), "case %s", c.ID)
			checked[c.Op]++
		}
		for _, p := range runner.Properties {
			Expect(checked[p.Op]).To(BeNumerically(">", 0), "property %s of %s was never checked", p.Requirement, p.Op)
		}
	})

	It("every property names a catalogue requirement and an op with fixtures", func() {
		ops := map[string]bool{}
		for _, op := range reference.Ops() {
			ops[op] = true
		}
		for _, p := range runner.Properties {
			_, ok := spec.Lookup(p.Requirement)
			Expect(ok).To(BeTrue(), "property requirement %s", p.Requirement)
			Expect(ops).To(HaveKey(p.Op))
			Expect(p.Doc).NotTo(BeEmpty())
			Expect(p.Field).NotTo(BeEmpty())
		}
	})

	It("writes a JSON report that the report-run schema accepts", func() {
		cs := runner.Select(cases(), runner.Selection{Op: "grep.result,retain.text"})
		rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 2, NewSession: sessionsOf(funcHarness{
			ops: []string{"grep.result"},
			alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
				return out.With("content", jsonjs.StringValue("x"))
			},
		})})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Totals[verdict.Fail]).To(BeNumerically(">", 0))
		Expect(rep.Totals[verdict.Unsupported]).To(BeNumerically(">", 0))
		data, err := json.Marshal(rep)
		Expect(err).NotTo(HaveOccurred())
		Expect(spec.ValidateJSON("report-run", data)).To(Succeed())

		pass := run(cs[:3], adapter.Reference())
		data, err = json.Marshal(pass)
		Expect(err).NotTo(HaveOccurred())
		Expect(spec.ValidateJSON("report-run", data)).To(Succeed())
	})

	It("has a comparator for every field of every golden output", func() {
		for _, c := range cases() {
			Expect(c.Want.Output == nil).NotTo(Equal(c.Want.Error == nil), "case %s", c.ID)
			if c.Want.Output == nil {
				continue
			}
			ms, ok := c.Want.Output.Members()
			Expect(ok).To(BeTrue(), "case %s: output is an object", c.ID)
			for _, m := range ms {
				cmp, ok := runner.ComparatorFor(c.Op, m.Key)
				Expect(ok).To(BeTrue(), "case %s: no comparator for %s", c.ID, m.Key)
				Expect(cmp).To(BeElementOf(runner.CmpExact, runner.CmpJSON))
			}
		}
	})
})

var _ = Describe("a process adapter serving the reference", func() {
	It("passes every fixture over protocol v1, with persistent sessions", func() {
		exe, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		argv := []string{exe}
		cs := cases()
		rep, err := runner.Run(context.Background(), cs, runner.Options{
			Jobs: 3,
			NewSession: func(ctx context.Context) (adapter.Session, error) {
				return adapter.Start(ctx, adapter.Config{Argv: argv, Env: append(os.Environ(), adapterEnv+"=1")})
			},
			Adapter: argv,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Totals[verdict.Pass]).To(Equal(len(cs)), "%v", rep.Totals)
		Expect(rep.Implementation).To(Equal(adapter.ReferenceImplementation()))
		Expect(rep.Protocol).To(Equal(adapter.Protocol))
		data, err := json.Marshal(rep)
		Expect(err).NotTo(HaveOccurred())
		Expect(spec.ValidateJSON("report-run", data)).To(Succeed())
	})

	It("returns a StartError when the adapter cannot start", func() {
		_, err := runner.Run(context.Background(), cases()[:1], runner.Options{
			NewSession: func(ctx context.Context) (adapter.Session, error) {
				return adapter.Start(ctx, adapter.Config{Argv: []string{"/nonexistent/adapter"}})
			},
		})
		var se *runner.StartError
		Expect(errors.As(err, &se)).To(BeTrue(), "%v", err)
	})
})
