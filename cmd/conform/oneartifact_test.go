package main

import (
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("one run, every artifact (issue 21)", func() {
	It("writes each --out FORMAT=FILE of one run, the text report to stdout, and report --format converts the JSON one to the same bytes", func() {
		dir := GinkgoT().TempDir()
		file := func(n string) string { return filepath.Join(dir, n) }
		read := func(n string) string {
			GinkgoHelper()
			data, err := os.ReadFile(file(n))
			Expect(err).NotTo(HaveOccurred())
			return string(data)
		}
		r := conform("", "run", "--out", "json="+file("r.json"), "--out", "junit="+file("r.xml"), "--out", "markdown="+file("r.md"), "--", script(errorAll))
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		Expect(r.stdout).To(HavePrefix("conform run: error-all 1 (sh), protocol 1\n"))
		all := rtCount("")
		Expect(r.stdout).To(HaveSuffix(fmt.Sprintf("\n0 passed, %d failed\n", all)))
		Expect(rtReadReport(file("r.json")).Cases).To(HaveLen(all))
		Expect(read("r.xml")).To(HavePrefix("<?xml"))
		Expect(read("r.md")).To(HavePrefix("### conform run — `error-all 1`"))

		for format, name := range map[string]string{"junit": "r.xml", "markdown": "r.md"} {
			c := conform("", "report", "--format", format, file("r.json"))
			Expect(c.code).To(Equal(exitOK), c.stderr)
			Expect(c.stdout).To(Equal(read(name)), format)
		}
		c := conform("", "report", "--out", "text="+file("t.txt"), "--out", "json="+file("again.json"), file("r.json"))
		Expect(c.code).To(Equal(exitOK), c.stderr)
		Expect(read("t.txt")).To(Equal(r.stdout))
		Expect(read("again.json")).To(Equal(read("r.json")))
	})

	It("refuses two reports to one file and a conversion over its own input", func() {
		dir := GinkgoT().TempDir()
		p := filepath.Join(dir, "r.json")
		r := conform("", "run", "--op", "retain.items", "--out", "json="+p, "--out", "junit="+p)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("write one file twice"))
		r = conform("", "run", "--op", "retain.items", "--out", "json="+p)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		r = conform("", "report", "--format", "json", "--out", p, p)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("is the report file"))
	})
})
