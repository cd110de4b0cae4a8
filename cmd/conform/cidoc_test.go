package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// docBlock is the first fenced block of lang after heading in a doc.
func docBlock(doc, heading, lang string) string {
	GinkgoHelper()
	data, err := os.ReadFile(doc)
	Expect(err).NotTo(HaveOccurred())
	_, rest, ok := strings.Cut(string(data), "\n"+heading+"\n")
	Expect(ok).To(BeTrue(), "%s has %q", doc, heading)
	_, rest, ok = strings.Cut(rest, "```"+lang+"\n")
	Expect(ok).To(BeTrue(), "a ```%s block after %q", lang, heading)
	block, _, ok := strings.Cut(rest, "\n```")
	Expect(ok).To(BeTrue())
	return block + "\n"
}

var _ = Describe("docs/ci.md's shell script (issue 21)", func() {
	It("runs the cases once and writes every artifact, exit 0 for the reference", func() {
		if _, err := exec.LookPath("jq"); err != nil {
			Skip("jq is not installed (.ci/run installs it)")
		}
		dir := GinkgoT().TempDir()
		gate := filepath.Join(dir, "conform-gate.sh")
		Expect(os.WriteFile(gate, []byte(docBlock("../../docs/ci.md", "## The same as a shell script", "bash")), 0o755)).To(Succeed())
		baseline := filepath.Join(dir, "known.yaml")
		Expect(os.WriteFile(baseline, []byte("[]\n"), 0o644)).To(Succeed())
		out := filepath.Join(dir, "out")
		cmd := exec.Command("bash", gate)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "CONFORM_ADAPTER="+bin+" adapter",
			"CONFORM_BASELINE="+baseline, "OUT="+out)
		cmd.Dir = dir
		log, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(log))
		for _, f := range []string{"report.json", "conform.xml", "summary.md", "report.txt"} {
			st, err := os.Stat(filepath.Join(out, f))
			Expect(err).NotTo(HaveOccurred(), f)
			Expect(st.Size()).To(BeNumerically(">", 0), f)
		}
		Expect(strings.Count(string(docBlock("../../docs/ci.md", "## The same as a shell script", "bash")), "conform run ")).To(Equal(1), "one run")
	})
})
