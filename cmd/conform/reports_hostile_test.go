package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Hostile report, baseline and case files (issue 11): refused with the
// path named, never a hang (runBinary's watchdog) or an unbounded read.
var _ = Describe("hostile report and case files", func() {
	var dir, good string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		good = filepath.Join(dir, "good.json")
		r := rtConform("run", "--op", "retain.items", "--format", "json", "--out", good)
		Expect(r.code).To(Equal(exitOK), r.stderr)
	})
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		ExpectWithOffset(1, syscall.Mkfifo(p, 0o644)).To(Succeed())
		return p
	}
	zero := func(name string) string {
		p := filepath.Join(dir, name)
		ExpectWithOffset(1, os.Symlink("/dev/zero", p)).To(Succeed())
		return p
	}

	It("diff refuses a FIFO, a device and an oversized report, naming it", func() {
		for p, why := range map[string]string{
			fifo("fifo.json"): "not a regular file (a named pipe)",
			zero("zero.json"): "not a regular file (a character device)",
		} {
			r := rtConform("diff", good, p)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stderr).To(ContainSubstring(p + ": " + why))
		}
		st, err := os.Stat(good)
		Expect(err).NotTo(HaveOccurred())
		big := filepath.Join(dir, "big.json")
		Expect(os.WriteFile(big, []byte(`{"format":"conform-run","version":1,"pad":"`+strings.Repeat("x", int(st.Size()))+`"}`), 0o644)).To(Succeed())
		limit := strconv.FormatInt(st.Size()|1, 10) // odd: printed in bytes
		r := rtConform("diff", "--max-report-bytes", limit, good, big)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(big + ": larger than the limit of " + limit + " bytes (raise it with --max-report-bytes)"))
		r = rtConform("diff", good, big)
		Expect(r.code).To(Equal(exitUsage), "under the default bound it is read, and rejected by the schema")
		Expect(r.stderr).To(ContainSubstring(big + ": not a valid run report"))
		r = rtConform("diff", good, good)
		Expect(r.code).To(Equal(exitOK), r.stderr)
	})

	It("baseline write --from and --rerun-failed refuse them too", func() {
		p := fifo("fifo.json")
		r := rtConform("baseline", "write", "--from", p, "--out", filepath.Join(dir, "b.yaml"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(p + ": not a regular file (a named pipe)"))
		r = rtConform("baseline", "write", "--from", good, "--max-report-bytes", "10", "--out", filepath.Join(dir, "b.yaml"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(good + ": larger than the limit of 10 bytes (raise it with --max-report-bytes)"))
		z := zero("zero.json")
		r = rtConform("run", "--rerun-failed", z)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("--rerun-failed " + z + ": not a regular file (a character device)"))
	})

	It("--baseline refuses a FIFO and a symlink to /dev/zero", func() {
		for p, why := range map[string]string{
			fifo("fifo.yaml"): "not a regular file (a named pipe)",
			zero("zero.yaml"): "not a regular file (a character device)",
		} {
			r := rtConform("run", "--op", "retain.items", "--baseline", p)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stderr).To(ContainSubstring(p + ": " + why))
			r = conform("", "check-log", "--baseline", p, good)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stderr).To(ContainSubstring(p + ": " + why))
		}
	})

	It("run --fixtures refuses a FIFO fixture and a golden linked to /dev/zero", func() {
		root, err := filepath.Abs("../..")
		Expect(err).NotTo(HaveOccurred())
		tree := filepath.Join(dir, "tree")
		for _, sub := range []string{"fixtures/spill.preview", "golden/spill.preview"} {
			Expect(os.MkdirAll(filepath.Join(tree, sub), 0o755)).To(Succeed())
			entries, err := os.ReadDir(filepath.Join(root, sub))
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries[:2] {
				data, err := os.ReadFile(filepath.Join(root, sub, e.Name()))
				Expect(err).NotTo(HaveOccurred())
				Expect(os.WriteFile(filepath.Join(tree, sub, e.Name()), data, 0o644)).To(Succeed())
			}
		}
		r := rtConform("run", "--fixtures", tree)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		entries, _ := os.ReadDir(filepath.Join(tree, "golden/spill.preview"))
		victim := filepath.Join(tree, "golden/spill.preview", entries[0].Name())
		Expect(os.Remove(victim)).To(Succeed())
		Expect(os.Symlink("/dev/zero", victim)).To(Succeed())
		r = rtConform("run", "--fixtures", tree)
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(r.stderr).To(ContainSubstring("golden/spill.preview/" + entries[0].Name() + ": not a regular file (a character device)"))

		Expect(syscall.Mkfifo(filepath.Join(tree, "fixtures/spill.preview/zz-fifo.json"), 0o644)).To(Succeed())
		r = rtConform("run", "--fixtures", tree)
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(r.stderr).To(ContainSubstring("fixtures/spill.preview/zz-fifo.json: not a regular file (a named pipe)"))
	})
})
