package logcheck_test

import (
	"os"
	"path/filepath"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// Issue 22: the type lookup (events.go) and the proof table (proof.go).

var _ = Describe("check-log's judge, event types of any length (issue 22)", func() {
	// A type is looked up by its name, whatever its length: an empty type is
	// an envelope violation (LOG-3), a one-byte unknown type warns (LOG-6),
	// and an ignorable one is only counted; the known types around them
	// keep their meaning.
	after := func(lines ...string) []byte {
		GinkgoHelper()
		b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		for _, l := range lines {
			b = append(b, l+"\n"...)
		}
		return b
	}
	It("reports an empty type as an envelope violation", func() {
		log := after(`{"type":"","seq":16,"time":1785591990014,"data":{}}`)
		got := findings(log)
		Expect(requirements(log)).To(Equal([]string{v("LOG-3")}), "%q", got)
		Expect(got[0]).To(ContainSubstring("type is missing or not a non-empty string"))
	})
	It("warns on a one-byte unknown type and counts an ignorable one", func() {
		log := after(
			`{"type":"x","seq":16,"time":1785591990014,"data":{}}`,
			`{"type":"y","seq":17,"time":1785591990015,"data":{},"ignorable":true}`)
		Expect(requirements(log)).To(Equal([]string{w("LOG-6")}), "%q", findings(log))
		r := checkBytes(log, logcheck.Defaults())
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.stats.UnknownTypes).To(Equal(map[string]int{"x": 1, "y": 1}))
	})
})

var _ = Describe("check-log's judge, Proof (issue 22)", func() {
	// Proof's table against a model built here: each rule fixture, checked
	// with the default options, proves every requirement its findings name,
	// once per fixture; a clean valid-* fixture may be listed besides as an
	// acceptance case. Each list is sorted.
	It("lists each fixture under each requirement it proves, once, sorted", func() {
		got, err := logcheck.Proof()
		Expect(err).NotTo(HaveOccurred())

		names, err := filepath.Glob(filepath.Join("testdata", "rules", "*.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(names).NotTo(BeEmpty())
		model := map[string]map[string]bool{}
		clean := map[string]bool{}
		repeats := 0
		for _, p := range names {
			r := checkFile(p, logcheck.Defaults())
			Expect(r.err).NotTo(HaveOccurred())
			base := filepath.Base(p)
			clean[base] = len(r.findings) == 0 && base[:6] == "valid-"
			per := map[string]int{}
			for _, f := range r.findings {
				if per[f.Requirement]++; per[f.Requirement] == 2 {
					repeats++
				}
				if model[f.Requirement] == nil {
					model[f.Requirement] = map[string]bool{}
				}
				model[f.Requirement]["log-check "+base] = true
			}
		}
		for req, files := range model {
			for f := range files {
				Expect(got[req]).To(ContainElement(f), "%s", req)
			}
		}
		for req, list := range got {
			Expect(sort.StringsAreSorted(list)).To(BeTrue(), "%s: %q", req, list)
			seen := map[string]bool{}
			for _, e := range list {
				Expect(seen[e]).To(BeFalse(), "%s lists %s twice", req, e)
				seen[e] = true
				if !model[req][e] {
					name := e[len("log-check "):]
					Expect(clean[name]).To(BeTrue(), "%s lists %s, which neither names it nor is a clean valid fixture", req, e)
				}
			}
		}
		// The acceptance cases its doc names: rules that allow something.
		Expect(got["LOG-7"]).To(ContainElement("log-check valid-member-order.jsonl"))
		Expect(got["LOG-RES-4"]).To(ContainElement("log-check valid-crash-closers.jsonl"))
		Expect(got["LOG-DISP-2"]).To(ContainElement("log-check valid-legacy-settle-only.jsonl"))
		// Some fixture names one rule twice, so "once" is tested.
		Expect(repeats).To(BeNumerically(">", 0))
	})
})
