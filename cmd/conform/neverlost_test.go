package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("reports are never lost (issue 21)", func() {
	var dir, prev string
	var before []byte
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		prev = filepath.Join(dir, "r.json")
		r := conform("", "run", "--op", "retain.items", "--format", "json", "--out", prev, "--", rtAdapter("wrong-meta"))
		Expect(r.code).To(BeNumerically("<=", exitNonconform), r.stderr)
		var err error
		before, err = os.ReadFile(prev)
		Expect(err).NotTo(HaveOccurred())
		Expect(before).NotTo(BeEmpty())
	})
	unchanged := func() {
		GinkgoHelper()
		after, err := os.ReadFile(prev)
		Expect(err).NotTo(HaveOccurred())
		Expect(bytes.Equal(after, before)).To(BeTrue(), "the previous report is intact (%d bytes, was %d)", len(after), len(before))
		left, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
		Expect(err).NotTo(HaveOccurred())
		Expect(left).To(BeEmpty(), "no temporary file is left behind")
	}

	It("refuses an --out naming the --rerun-failed report, by any spelling", func() {
		Expect(os.Symlink(prev, filepath.Join(dir, "link.json"))).To(Succeed())
		for _, out := range []string{prev, filepath.Join(dir, ".", "sub", "..", "r.json"), filepath.Join(dir, "link.json")} {
			r := conform("", "run", "--rerun-failed", prev, "--format", "json", "--out", out)
			Expect(r.code).To(Equal(exitUsage), r.stderr)
			Expect(r.stderr).To(ContainSubstring("is the --rerun-failed file"))
		}
		unchanged()
	})

	It("refuses an --out naming the --baseline file", func() {
		bl := filepath.Join(dir, "k.yaml")
		Expect(os.WriteFile(bl, []byte("- id: retain.items/gen-001\n  reason: known\n"), 0o644)).To(Succeed())
		r := conform("", "run", "--op", "retain.items", "--baseline", bl, "--out", bl)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("is the --baseline file"))
		data, err := os.ReadFile(bl)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(Equal("- id: retain.items/gen-001\n  reason: known\n"))
	})

	It("refuses baseline write --from R --out R", func() {
		r := conform("", "baseline", "write", "--from", prev, "--out", prev)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("is the --from file"))
		unchanged()
	})

	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGHUP} {
		It("a run killed by "+sig.String()+" leaves the previous report whole", func() {
			marker := filepath.Join(dir, "stalled")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "run", "-j", "1", "--op", "retain.items", "--format", "json", "--out", prev, "--", stallAfter(3, marker))
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the adapter goes with it
			Expect(cmd.Start()).To(Succeed())
			Eventually(func() error { _, err := os.Stat(marker); return err }).WithTimeout(time.Minute).Should(Succeed())
			Expect(syscall.Kill(-cmd.Process.Pid, sig)).To(Succeed())
			Expect(cmd.Wait()).To(HaveOccurred())
			after, err := os.ReadFile(prev)
			Expect(err).NotTo(HaveOccurred())
			Expect(bytes.Equal(after, before)).To(BeTrue(), "the previous report is intact (%d bytes, was %d)", len(after), len(before))
		})
	}
})

var _ = Describe("report sizes are bounded (issue 21)", func() {
	It("a 1 MB wrong id is neither copied by the breaker into every case nor stored whole", func() {
		dir := GinkgoT().TempDir()
		big := filepath.Join(dir, "id")
		Expect(os.WriteFile(big, bytes.Repeat([]byte("a"), 1<<20), 0o644)).To(Succeed())
		adapter := script(`read -r hello
echo '{"protocol":1,"implementation":{"name":"big-id","version":"1","language":"sh"},"ops":["retain.items"]}'
while read -r line; do
  case "$line" in *'"cmd":"bye"'*) exit 0;; esac
  printf '{"id":"%s","skip":"x"}\n' "$(cat '` + big + `')"
done
`)
		out := filepath.Join(dir, "r.json")
		r := conform("", "run", "-j", "1", "--op", "retain.items", "--format", "json", "--out", out, "--", adapter)
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		st, err := os.Stat(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Size()).To(BeNumerically("<", 1<<20), "42 cases of 1 MB answers: the report holds no copy of the id")
		rep := rtReadReport(out)
		Expect(rep.Complete).To(BeFalse())
		Expect(rep.Stopped).To(ContainSubstring("the fault that opened it: answer is for id"))
		Expect(len(rep.Stopped)).To(BeNumerically("<", 3000))
		Expect(len(r.stderr)).To(BeNumerically("<", 64<<10))
	})
})

var _ = Describe("unexpected output fields (issue 21)", func() {
	It("a million unknown members are one diff naming a few, not a million diffs", func() {
		dir := GinkgoT().TempDir()
		var members strings.Builder
		for i := range 100_000 {
			fmt.Fprintf(&members, `"k%d":0,`, i)
		}
		sedScript := filepath.Join(dir, "members.sed")
		Expect(os.WriteFile(sedScript, []byte(`1!s/^\({"id":"[^"]*","output":{\)/\1`+members.String()+"/\n"), 0o644)).To(Succeed())
		adapter := script(`'` + bin + `' adapter | sed -u -f '` + sedScript + `'
`)
		out := filepath.Join(dir, "r.json")
		r := conform("", "run", "-j", "1", "--op", "retain.items", "--run", "gen-001$", "--format", "json", "--out", out, "--", adapter)
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		rep := rtReadReport(out)
		Expect(rep.Cases).To(HaveLen(1))
		d := rep.Cases[0].Diffs
		Expect(len(d)).To(BeNumerically("<=", 12))
		Expect(d[len(d)-1].Message).To(HavePrefix("99990 more unexpected output fields: \"k10\", \"k11\""))
		Expect(d[len(d)-1].Message).To(HaveSuffix("… 99970 more"))
		st, err := os.Stat(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Size()).To(BeNumerically("<", 4<<20), "the input line holds 100,000 members; the report names 30")
	})
})
