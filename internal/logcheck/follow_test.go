package logcheck_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// Follow (check-log --follow): a log checked as a harness appends it. The
// specs synchronise on what Follow reads and reports; SpecTimeout is only
// the watchdog.
var _ = Describe("Follow", func() {
	var (
		dir      string
		path     string
		w        *os.File
		written  int64
		read     atomic.Int64
		findings chan *logcheck.RunFinding
	)
	appendText := func(s string) {
		_, err := w.WriteString(s)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		written += int64(len(s))
	}
	// readAll waits until Follow has read everything written so far.
	readAll := func() {
		EventuallyWithOffset(1, read.Load).WithTimeout(time.Minute).Should(Equal(written))
	}
	follow := func(ctx context.Context, opt logcheck.Options, fo logcheck.FollowOptions) chan *logcheck.Summary {
		fo.Read = func(_ string, n int64) { read.Store(n) }
		fo.Poll = 5 * time.Millisecond
		done := make(chan *logcheck.Summary, 1)
		go func() {
			defer GinkgoRecover()
			s, _ := logcheck.Follow(ctx, []string{path}, logcheck.RunOptions{Options: opt, Listed: func(f *logcheck.RunFinding) { findings <- f }}, fo)
			done <- s
		}()
		return done
	}
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		path = filepath.Join(dir, "live.jsonl")
		var err error
		w, err = os.Create(path)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(w.Close)
		written = 0
		read.Store(0)
		findings = make(chan *logcheck.RunFinding, 100)
	})

	It("reports each finding as its line arrives, pairs dispatches and seqs across lines, and ends with the session", func(ctx SpecContext) {
		// A real session with the settle of its first sub-call taken out:
		// the next line's seq jumps (LOG-5, reported with that line) and
		// the start never settles (LOG-CHECK-CODE-6, reported when the
		// parent's result arrives, naming the start's line).
		data, err := os.ReadFile("testdata/sessions/code-mode-turn.jsonl")
		Expect(err).NotTo(HaveOccurred())
		lines := strings.SplitAfter(string(data), "\n")
		lines = append(lines[:21:21], lines[22:]...) // line 22 of 38, the first tool/code-dispatch
		Expect(lines[21]).To(ContainSubstring(`"type":"tool/code-dispatch-start","seq":192`))
		Expect(lines[23]).To(ContainSubstring(`"type":"tool/result"`))
		Expect(lines[36]).To(HavePrefix(`{"type":"turn/end"`))
		whole := filepath.Join(dir, "whole.jsonl")
		Expect(os.WriteFile(whole, []byte(strings.Join(lines, "")), 0o644)).To(Succeed())
		offline, err := logcheck.Run(ctx, []string{whole}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).NotTo(HaveOccurred())
		Expect(offline.Files[0].Listed).To(HaveLen(2))

		appendText(lines[0])
		done := follow(ctx, logcheck.Defaults(), logcheck.FollowOptions{})
		var got []*logcheck.RunFinding
		for i, l := range lines[1:37] {
			n := i + 2 // 1-based line number
			if n == 22 {
				// Half a line is waited for, not judged: the first finding
				// is the whole line's.
				appendText(l[:100])
				readAll()
				appendText(l[100:])
			} else {
				appendText(l)
			}
			switch n {
			case 22:
				var fd *logcheck.RunFinding
				Eventually(findings).WithContext(ctx).Should(Receive(&fd))
				Expect(fd.Line).To(Equal(22))
				Expect(fd.Requirement).To(Equal("LOG-5"))
				got = append(got, fd)
			case 24:
				var fd *logcheck.RunFinding
				Eventually(findings).WithContext(ctx).Should(Receive(&fd))
				Expect(fd.Line).To(Equal(21))
				Expect(fd.Requirement).To(Equal("LOG-CHECK-CODE-6"))
				got = append(got, fd)
			}
		}
		var s *logcheck.Summary
		Eventually(done).WithContext(ctx).Should(Receive(&s), "the session ended with its turn")
		Expect(findings).To(BeEmpty())
		Expect(s.Interrupted).To(BeFalse())
		Expect(s.Result()).To(Equal(logcheck.ResultFail))
		f := s.Files[0]
		Expect(f.Partial).To(BeFalse())
		Expect(f.Notes).To(BeEmpty())
		Expect(f.Stats.Lines).To(Equal(37))
		Expect(f.Stats.Bytes).To(Equal(written))
		Expect(f.Stats.Events).To(Equal(offline.Files[0].Stats.Events))
		for i, fd := range got {
			want := offline.Files[0].Listed[i]
			Expect(fd.Requirement).To(Equal(want.Requirement))
			Expect(fd.Line).To(Equal(want.Line))
			Expect(fd.Message).To(Equal(want.Message))
			Expect(fd.File).To(Equal(path))
		}
	}, SpecTimeout(time.Minute))

	It("goes on after a turn while the log is not quiet for --idle, and stops at an interruption with a line incomplete", func(ctx SpecContext) {
		const header = `{"type":"session","version":0,"id":"4428b809-66d5-4ea2-9a03-89de742fcda1","createdAt":1785591986068,"cwd":"/tmp","delegationDepth":0}` + "\n"
		appendText(header + `{"type":"turn/start","seq":0,"time":1785591986069,"data":{"turn":1}}` + "\n" +
			`{"type":"turn/end","seq":1,"time":1785591986070,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n")
		fctx, cancel := context.WithCancel(ctx)
		defer cancel()
		done := follow(fctx, logcheck.Defaults(), logcheck.FollowOptions{Idle: time.Hour})
		readAll()
		appendText(`{"type":"turn/start","seq":3,"time":1785591986071,"data":{"turn":2}}` + "\n")
		var fd *logcheck.RunFinding
		Eventually(findings).WithContext(ctx).Should(Receive(&fd), "the second turn is checked: a session goes on after a turn/end")
		Expect(fd.Requirement).To(Equal("LOG-5"))
		const partial = `{"type":"turn/end","seq":4,`
		appendText(partial)
		readAll()
		cancel()
		var s *logcheck.Summary
		Eventually(done).WithContext(ctx).Should(Receive(&s))
		Expect(s.Interrupted).To(BeTrue())
		Expect(s.Result()).To(Equal(logcheck.ResultInterrupted))
		f := s.Files[0]
		Expect(f.Partial).To(BeTrue())
		Expect(f.Stats.Lines).To(Equal(4))
		Expect(f.Notes).To(ConsistOf(fmt.Sprintf("stopped with its last line incomplete: %d bytes without an LF yet, not checked", len(partial))))
		Expect(findings).To(BeEmpty(), "the incomplete line is not judged")
	}, SpecTimeout(time.Minute))

	It("holds at most --max-line-bytes of a line, skipping a longer one as it arrives", func(ctx SpecContext) {
		const header = `{"type":"session","version":0,"id":"4428b809-66d5-4ea2-9a03-89de742fcda1","createdAt":1785591986068,"cwd":"/tmp","delegationDepth":0}` + "\n"
		appendText(header)
		opt := logcheck.Defaults()
		opt.MaxLineBytes = 1000
		fctx, cancel := context.WithCancel(ctx)
		defer cancel()
		done := follow(fctx, opt, logcheck.FollowOptions{})
		long := `{"type":"session/title","seq":0,"time":1785591986069,"data":{"title":"` + string(bytes.Repeat([]byte("x"), 5000)) + `"}}` + "\n"
		for i := 0; i < len(long); i += 700 {
			appendText(long[i:min(i+700, len(long))])
			readAll()
		}
		var fd *logcheck.RunFinding
		Eventually(findings).WithContext(ctx).Should(Receive(&fd))
		Expect(fd.Requirement).To(Equal("LOG-1"))
		Expect(fd.Message).To(Equal(fmt.Sprintf("line 2 is longer than 1000 bytes; skipped (%d bytes)", len(long)-1)))
		cancel()
		var s *logcheck.Summary
		Eventually(done).WithContext(ctx).Should(Receive(&s))
		Expect(s.Files[0].Stats.MalformedLines).To(Equal(1))
	}, SpecTimeout(time.Minute))

	It("refuses stdin and directories", func() {
		_, err := logcheck.Follow(context.Background(), []string{"-"}, logcheck.RunOptions{Options: logcheck.Defaults()}, logcheck.FollowOptions{})
		Expect(err).To(MatchError("--follow reads files, not stdin (-)"))
		_, err = logcheck.Follow(context.Background(), []string{dir}, logcheck.RunOptions{Options: logcheck.Defaults()}, logcheck.FollowOptions{})
		Expect(err).To(MatchError("path " + dir + ": --follow reads files, not directories"))
	})
})
