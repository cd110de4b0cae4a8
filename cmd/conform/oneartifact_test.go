package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

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

	It("fuzz: writes each --out FORMAT=FILE of one campaign, the text report to stdout", func() {
		dir := GinkgoT().TempDir()
		file := func(n string) string { return filepath.Join(dir, n) }
		r := conform("", "fuzz", "--op", "retain.items", "--cases", "20", "--seed", "7", "-j", "1",
			"--out", "json="+file("f.json"), "--out", "junit="+file("f.xml"), "--out", "markdown="+file("f.md"))
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(HavePrefix("conform fuzz: conform reference 0.1.0 (go), in process\n"))
		Expect(r.stdout).To(HaveSuffix("\nOK: no mismatch in 20 cases\n"))
		data, err := os.ReadFile(file("f.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(fzDecode(string(data)).Cases).To(Equal(20))
		for name, prefix := range map[string]string{"f.xml": "<?xml", "f.md": "## conform fuzz: ✅ no mismatch"} {
			data, err := os.ReadFile(file(name))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(data)).To(HavePrefix(prefix), name)
		}
	})

	It("check-log: writes each --out FORMAT=FILE of one check, streamed or (with junit) from the whole summary, to the same bytes", func() {
		dir := GinkgoT().TempDir()
		file := func(n string) string { return filepath.Join(dir, n) }
		read := func(n string) string {
			GinkgoHelper()
			data, err := os.ReadFile(file(n))
			Expect(err).NotTo(HaveOccurred())
			return string(data)
		}
		logs := filepath.Join(dir, "logs")
		writeFile(logs, "a.jsonl", badLog)
		writeFile(logs, "b.jsonl", cleanLog)
		// elapsed times differ between runs
		timeless := regexp.MustCompile(`elapsed: [^\n]*|"elapsedSeconds": [0-9.e-]+|time="[0-9.]+"`)
		same := func(a, b string) {
			GinkgoHelper()
			Expect(timeless.ReplaceAllString(a, "T")).To(Equal(timeless.ReplaceAllString(b, "T")))
		}

		streamed := conform("", "check-log", "--out", "json="+file("s.json"), "--out", "markdown="+file("s.md"), logs)
		Expect(streamed.code).To(Equal(1), streamed.stderr)
		Expect(streamed.stdout).To(ContainSubstring("result: FAIL"))
		kept := conform("", "check-log", "--out", "json="+file("k.json"), "--out", "markdown="+file("k.md"), "--out", "junit="+file("k.xml"), "--out", "text="+file("k.txt"), logs)
		Expect(kept.code).To(Equal(1), kept.stderr)
		Expect(kept.stdout).To(BeEmpty(), "the text report went to its file")
		same(read("k.txt"), streamed.stdout)
		same(read("k.json"), read("s.json"))
		Expect(read("k.md")).To(Equal(read("s.md")))
		for format, name := range map[string]string{"json": "s.json", "markdown": "s.md", "junit": "k.xml"} {
			one := conform("", "check-log", "--format", format, logs)
			Expect(one.code).To(Equal(1), one.stderr)
			same(one.stdout, read(name))
		}
	})

	It("fuzz and check-log refuse an --out that names one of their inputs, or two reports to one file", func() {
		dir := GinkgoT().TempDir()
		logs := filepath.Join(dir, "logs")
		log := writeFile(logs, "a.jsonl", badLog)
		bl := writeFile(dir, "b.yaml", "[]\n")
		for _, args := range [][]string{
			{"check-log", "--out", "json=" + log, log},
			{"check-log", "--out", log, logs},
			{"check-log", "--baseline", bl, "--out", "junit=" + bl, log},
			{"check-log", "--out", "json=" + filepath.Join(logs, "report.jsonl"), logs},
			{"check-log", "--out", "json=" + filepath.Join(dir, "r"), "--out", "junit=" + filepath.Join(dir, "r"), log},
			{"fuzz", "--cases", "1", "--out", "json=" + filepath.Join(dir, "r"), "--out", filepath.Join(dir, "r")},
		} {
			r := conform("", args...)
			Expect(r.code).To(Equal(exitUsage), "%v: %s", args, r.stderr)
			Expect(r.stderr).To(Or(ContainSubstring("the report would"), ContainSubstring("write one file twice")), "%v", args)
		}
		adapter := script(strings.Replace(errorAll, "error-all", "x", 1))
		before, err := os.ReadFile(adapter)
		Expect(err).NotTo(HaveOccurred())
		r := conform("", "fuzz", "--cases", "1", "--out", "json="+adapter, "--", adapter)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("is the adapter command's file"))
		after, err := os.ReadFile(adapter)
		Expect(err).NotTo(HaveOccurred())
		Expect(after).To(Equal(before))
		Expect(os.ReadFile(log)).To(Equal([]byte(badLog)))
	})
})
