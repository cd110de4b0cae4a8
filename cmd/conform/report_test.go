package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// untimed blanks what a shard cannot reproduce: durations and the start.
func untimed(data []byte) string {
	s := regexp.MustCompile(`"durationMs": [-0-9.e+]+`).ReplaceAllString(string(data), `"durationMs": 0`)
	return regexp.MustCompile(`"started": "[^"]*"`).ReplaceAllString(s, `"started": ""`)
}

var _ = Describe("conform run --shard and conform report", Ordered, func() {
	var dir, wrong string
	BeforeAll(func() {
		dir = GinkgoT().TempDir()
		wrong = filepath.Join(dir, "number-go")
		out, err := exec.Command("go", "build", "-o", wrong, "../../internal/fuzz/testdata/number-go").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
	})
	file := func(name string) string { return filepath.Join(dir, name) }

	It("merges the shard reports into the unsharded run's report, timings aside", func() {
		r := conform("", "run", "-j", "2", "--format", "json", "--out", file("full.json"), "--", wrong)
		Expect(r.code).To(Equal(1), r.stderr)
		var shards []string
		for _, k := range []string{"2", "0", "1"} { // any order
			r = conform("", "run", "-j", "2", "--shard", k+"/3", "--format", "json", "--out", file("s"+k+".json"), "--", wrong)
			Expect(r.code).To(BeNumerically("<=", 1), r.stderr)
			shards = append(shards, file("s"+k+".json"))
		}
		r = conform("", append([]string{"report", "--merge", file("merged.json")}, shards...)...)
		Expect(r.code).To(Equal(0), r.stderr)
		full, err := os.ReadFile(file("full.json"))
		Expect(err).NotTo(HaveOccurred())
		merged, err := os.ReadFile(file("merged.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(untimed(merged)).To(Equal(untimed(full)))

		r = conform("", "report", "--merge", file("twice.json"), shards[0], shards[0])
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring("two shards overlap"))
		r = conform("", "report", "--merge", file("part.json"), shards[0], shards[2])
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring("shard 0/3 missing: a merge needs all 3 shards of the run"))
		r = conform("", "report", "--merge", file("whole.json"), file("full.json"), shards[0])
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring("not a shard report"))
		r = conform("", "run", "--shard", "3/3")
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring(`--shard "3/3": want K/N with 0 <= K < N`))
	})

	It("writes the page, the Markdown and a badge per implementation", func() {
		r := conform("", "run", "--format", "json", "--out", file("ref.json"))
		Expect(r.code).To(Equal(0), r.stderr)
		r = conform("", "report", "--html", file("m.html"), "--markdown", file("m.md"), "--badge", file("badges"), file("ref.json"), file("full.json"))
		Expect(r.code).To(Equal(0), r.stderr)
		page, err := os.ReadFile(file("m.html"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(page)).To(ContainSubstring(`<td class="s-failed" data-col="c1" data-status="failed">`))
		md, err := os.ReadFile(file("m.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(md)).To(MatchRegexp("\\| `CODE-NUM-1` MUST \\| ✓ passed \\| ✗ failed \\([1-9][0-9]*\\) \\|"))
		badges, err := filepath.Glob(file("badges/*.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(badges).To(HaveLen(2))

		r = conform("", "report", file("ref.json"))
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring("nothing to write"))
		Expect(os.WriteFile(file("bad.json"), []byte(`{"format":"conform-run","version":1}`), 0o644)).To(Succeed())
		r = conform("", "report", "--html", file("x.html"), file("bad.json"))
		Expect(r.code).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring(file("bad.json") + ": not a valid run report"))
	})
})
