package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
)

// script writes an executable shell adapter into a temp directory.
func script(body string) string {
	GinkgoHelper()
	p := filepath.Join(GinkgoT().TempDir(), "adapter.sh")
	Expect(os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755)).To(Succeed())
	return p
}

// skipAll answers the handshake listing every op, then skips every case.
const skipAll = `read -r hello
echo '{"protocol":1,"implementation":{"name":"skip-all","version":"1","language":"sh"},"ops":["grep.result","glob.result","search.present","run_code.result","retain.items","retain.text","spill.preview"]}'
while read -r line; do
  id=$(printf '%s' "$line" | sed 's/^{"cmd":"run","id":"\([^"]*\)".*/\1/')
  case "$line" in *'"cmd":"bye"'*) exit 0;; esac
  printf '{"id":"%s","skip":"not implemented"}\n' "$id"
done
`

// junitFailures reads a JUnit report and returns its failing testcases'
// names.
func junitFailures(path string) []string {
	GinkgoHelper()
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred(), "the JUnit report must be written")
	defer f.Close()
	ju, err := report.ReadJUnit(f)
	Expect(err).NotTo(HaveOccurred())
	var names []string
	for _, s := range ju.Suites {
		for _, tc := range s.Cases {
			if tc.Failure != nil || tc.Error != nil {
				names = append(names, tc.Name)
			}
		}
	}
	Expect(ju.Failures + ju.Errors).To(Equal(len(names)))
	return names
}

var _ = Describe("no false green (issue 12)", func() {
	It("an empty --adapter (an unset $CONFORM_ADAPTER) is a usage error, with a failing JUnit report", func() {
		out := filepath.Join(GinkgoT().TempDir(), "j.xml")
		r := rtConform("run", "--adapter", "", "--format", "junit", "--out", out)
		Expect(r.code).To(Equal(exitUsage), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring("--adapter is empty"))
		Expect(strings.Count(r.stderr, "\n")).To(BeNumerically("<=", 3), "the error and a hint, not the whole help")
		// kong rejects the flag before any command runs: no report.
		_, err := os.Stat(out)
		Expect(os.IsNotExist(err)).To(BeTrue())
	})

	It("an adapter that skips every case is nonconformant, and JUnit says why", func() {
		out := filepath.Join(GinkgoT().TempDir(), "j.xml")
		r := rtConform("run", "--format", "junit", "--out", out, "--", script(skipAll))
		Expect(r.code).To(Equal(exitNonconform), r.stdout+r.stderr)
		names := junitFailures(out)
		Expect(names).To(ContainElement("required-op-never-passed grep.result"))
		Expect(names).To(ContainElement("required-op-never-passed run_code.result"))
		Expect(names).To(ContainElement("requirement-never-passed SEARCH-CAP-1"))

		r = rtConform("run", "--op", "grep.result", "--", script(skipAll))
		Expect(r.code).To(Equal(exitNonconform))
		Expect(r.stdout).To(ContainSubstring("NONCONFORMANT:\n  - no case of the required op grep.result ran to a verdict"))
		Expect(r.stdout).To(ContainSubstring("MUST requirement SEARCH-GREP-2 (header) never passed"))
	})

	It("a rerun that selects nothing is a usage error, and its JUnit report fails", func() {
		dir := GinkgoT().TempDir()
		earlier, out := filepath.Join(dir, "earlier.json"), filepath.Join(dir, "j.xml")
		Expect(rtConform("run", "--op", "retain.items", "--format", "json", "--out", earlier).code).To(Equal(exitOK))
		r := rtConform("run", "--rerun-failed", earlier, "--format", "junit", "--out", out)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(junitFailures(out)).To(Equal([]string{"start-fault usage"}))
	})

	It("an unknown op in a fixture is a BUG IN TEST CASE (exit 3), never unsupported", func() {
		dir := GinkgoT().TempDir()
		for _, sub := range []string{"fixtures/nope.op", "golden/nope.op"} {
			Expect(os.MkdirAll(filepath.Join(dir, sub), 0o755)).To(Succeed())
		}
		Expect(os.WriteFile(filepath.Join(dir, "fixtures/nope.op/a.json"), []byte(`{"id":"nope.op/a","op":"nope.op","requirements":[],"description":"x","input":{}}`), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "golden/nope.op/a.json"), []byte(`{"id":"nope.op/a","op":"nope.op","output":{}}`), 0o644)).To(Succeed())
		out := filepath.Join(dir, "j.xml")
		r := rtConform("run", "--fixtures", dir, "--format", "junit", "--out", out)
		Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
		Expect(r.stderr).To(ContainSubstring(`BUG IN TEST CASE`))
		Expect(r.stderr).To(ContainSubstring(`unknown op "nope.op"`))
		Expect(junitFailures(out)).To(Equal([]string{"start-fault cases"}))
	})

	It("unsupported required ops fail the JUnit view too, not only the exit status", func() {
		out := filepath.Join(GinkgoT().TempDir(), "j.xml")
		r := rtConform("run", "--format", "junit", "--out", out, "--", rtAdapter("no-ops"))
		Expect(r.code).To(Equal(exitNonconform))
		Expect(junitFailures(out)).To(ContainElements("unsupported-required-op grep.result", "unsupported-required-op run_code.result"))
	})

	It("escapes adapter text in every format: a newline in the name cannot forge a line", func() {
		inject := `read -r hello
printf '%s\n' '{"protocol":1,"implementation":{"name":"evil\nFAKE: 662 passed","version":"1\n0 failed","language":"sh"},"ops":[]}'
while read -r line; do case "$line" in *bye*) exit 0;; esac; done
`
		for _, format := range []string{"text", "markdown", "junit", "json"} {
			r := rtConform("run", "--op", "retain.items", "--format", format, "--", script(inject))
			Expect(r.stdout).NotTo(MatchRegexp(`(?m)^FAKE`), format)
			Expect(r.stdout).NotTo(MatchRegexp(`(?m)^0 failed`), format)
		}
	})
})
