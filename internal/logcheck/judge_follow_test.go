package logcheck_test

import (
	"os"
	"path/filepath"
	"strings"
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
			var reads []int64 // FollowOptions.Read: after each read that got bytes, the bytes read so far
			Expect(func() {
				s, err = logcheck.Follow(ctx, []string{path}, logcheck.RunOptions{Options: logcheck.Defaults()}, logcheck.FollowOptions{Poll: poll, Read: func(_ string, n int64) { reads = append(reads, n) }})
			}).NotTo(Panic())
			Expect(reads).NotTo(BeEmpty())
			for i := 1; i < len(reads); i++ {
				Expect(reads[i]).To(BeNumerically(">", reads[i-1]), "a Read call after a read that got no bytes")
			}
			Expect(reads[len(reads)-1]).To(Equal(int64(len(b))))
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Interrupted).To(BeFalse())
			Expect(s.Files).To(HaveLen(1))
			Expect(s.Files[0].Err).NotTo(HaveOccurred())
			Expect(s.Files[0].Partial).To(BeFalse())
			Expect(s.Files[0].Stats.Bytes).To(Equal(int64(len(b))))
		}, SpecTimeout(time.Minute))
	}

	// A line Follow checks is a view of its read buffer, which may end
	// right after the line. plainObj (plain.go:81) cuts a member's key to
	// the data it reads: with `len(r)-k.i` -> `len(r)+k.i` it sliced past
	// the buffer for a tool/call whose last key is shorter than the one it
	// looks for, on a line ending at the end of Follow's read.
	It("checks a tool/call line that ends its read's buffer", func(ctx SpecContext) {
		b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		const args = `"name":"grep","arguments":"{\"pattern\": \"x\"}"}}` + "\n"
		log := string(b)
		Expect(strings.Count(log, args)).To(Equal(1))
		log = strings.Replace(log, args, `"name":"grep","":1}}`+"\n", 1)
		end := strings.Index(log, `"name":"grep","":1}}`+"\n") + len(`"name":"grep","":1}}`+"\n")
		const chunk = 64 << 10 // followChunk: one read of the file
		Expect(strings.Count(log, `"text":"find x"`)).To(Equal(1))
		log = strings.Replace(log, `"text":"find x"`, `"text":"find x`+strings.Repeat("-", chunk-end)+`"`, 1)
		Expect(log[chunk-1]).To(Equal(byte('\n')))
		Expect(log[chunk-21 : chunk]).To(Equal(`"name":"grep","":1}}` + "\n"))
		path := filepath.Join(GinkgoT().TempDir(), "edge.jsonl")
		Expect(os.WriteFile(path, []byte(log), 0o644)).To(Succeed())
		var got []string
		s, err := logcheck.Follow(ctx, []string{path}, logcheck.RunOptions{Options: logcheck.Defaults(), Listed: func(f *logcheck.RunFinding) {
			got = append(got, f.Requirement)
		}}, logcheck.FollowOptions{Poll: time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Files[0].Err).NotTo(HaveOccurred())
		Expect(got).To(ContainElement("LOG-CALL-1"))
	}, SpecTimeout(time.Minute))
})
