package baseline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/baseline"
)

// Hostile baselines (issue 11): bounded reads and bounded error output.
var _ = Describe("hostile baselines", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("refuses a file over MaxFileBytes before parsing it, naming it", func() {
		p := filepath.Join(dir, "huge.yaml")
		entry := "- requirement: LOG-1\n  reason: x\n"
		Expect(os.WriteFile(p, []byte(strings.Repeat(entry, baseline.MaxFileBytes/len(entry)+1)), 0o644)).To(Succeed())
		_, err := baseline.Load(p)
		Expect(err).To(MatchError("baseline: " + p + ": larger than the limit of 1 MiB"))
	})

	It("refuses a FIFO without blocking", func() {
		p := filepath.Join(dir, "fifo.yaml")
		Expect(syscall.Mkfifo(p, 0o644)).To(Succeed())
		done := make(chan struct{})
		go func() {
			defer GinkgoRecover()
			defer close(done)
			_, err := baseline.Load(p)
			Expect(err).To(MatchError("baseline: " + p + ": not a regular file (a named pipe)"))
		}()
		Eventually(done, "1m").Should(BeClosed(), "blocked")
	})

	It("lists the first MaxErrors problems and counts the rest", func() {
		var b strings.Builder
		for i := range 1000 {
			fmt.Fprintf(&b, "- requirement: NOPE-%d\n  reason: x\n", i)
		}
		bl, err := baseline.Parse("b.yaml", []byte(b.String()))
		Expect(err).NotTo(HaveOccurred())
		err = bl.Validate(baseline.Known{Requirement: func(string) bool { return false }})
		lines := strings.Split(err.Error(), "\n")
		Expect(lines).To(HaveLen(baseline.MaxErrors + 1))
		Expect(lines[0]).To(Equal(`b.yaml:1: unknown requirement "NOPE-0"`))
		Expect(lines[baseline.MaxErrors]).To(Equal("… and 980 more problems (the first 20 are listed)"))

		_, err = baseline.Parse("b.yaml", []byte(strings.Repeat("- reason: x\n", 500)))
		Expect(strings.Split(err.Error(), "\n")).To(HaveLen(baseline.MaxErrors + 1))
		Expect(err).To(MatchError(HaveSuffix("… and 480 more problems (the first 20 are listed)")))
	})
})
