package logcheck_test

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// Follow's options as documented (issue 22, survivors of follow.go).
var _ = Describe("Follow's options (issue 22)", func() {
	// FollowOptions.Poll: "0: 100ms". A Poll of 0 (or below) must not
	// reach the ticker as is (time.NewTicker panics on a non-positive
	// interval): follow.go:61 `fo.Poll <= 0` negated, or `<=` -> `<`.
	for _, poll := range []time.Duration{0, -time.Millisecond} {
		It("follows with a Poll of "+poll.String()+" as with the default", func(ctx SpecContext) {
			b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
			Expect(err).NotTo(HaveOccurred())
			path := filepath.Join(GinkgoT().TempDir(), "done.jsonl")
			Expect(os.WriteFile(path, b, 0o644)).To(Succeed())
			var s *logcheck.Summary
			Expect(func() {
				s, err = logcheck.Follow(ctx, []string{path}, logcheck.RunOptions{Options: logcheck.Defaults()}, logcheck.FollowOptions{Poll: poll})
			}).NotTo(Panic())
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Interrupted).To(BeFalse())
			Expect(s.Files).To(HaveLen(1))
			Expect(s.Files[0].Err).NotTo(HaveOccurred())
			Expect(s.Files[0].Partial).To(BeFalse())
			Expect(s.Files[0].Stats.Bytes).To(Equal(int64(len(b))))
		}, SpecTimeout(time.Minute))
	}
})
