package logcheck_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// followPoll is a poll no spec waits for: Follow reads a quiet log again
// only at its next tick (FollowOptions.Poll), so a spec that ends before
// it sees what Follow does without waiting, and a Follow that waits for
// it runs until its context ends (Interrupted).
const followPoll = time.Hour

// followBase is valid-base.jsonl: one complete turn, no finding.
func followBase() string {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	Expect(string(b)).To(HaveSuffix(`"reason":{"kind":"completed"}}}` + "\n"))
	return string(b)
}

// followWrite writes a log to a new file and returns its path.
func followWrite(name, log string) string {
	GinkgoHelper()
	path := filepath.Join(GinkgoT().TempDir(), name)
	Expect(os.WriteFile(path, []byte(log), 0o644)).To(Succeed())
	return path
}

// followRun follows paths until they are over or ctx ends (bounded by
// within), recording each FollowOptions.Read call and each finding; read,
// when set, runs inside the Read call, before Follow reads again.
type followRun struct {
	s        *logcheck.Summary
	err      error
	reads    []int64
	findings []string
	done     []string // RunOptions.Done, when set
}

func followPaths(ctx context.Context, within time.Duration, paths []string, fo logcheck.FollowOptions, withDone bool, read func(n int64)) followRun {
	GinkgoHelper()
	var r followRun
	fctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	fo.Read = func(_ string, n int64) {
		r.reads = append(r.reads, n)
		if read != nil {
			read(n)
		}
	}
	opt := logcheck.RunOptions{Options: logcheck.Defaults(), Listed: func(f *logcheck.RunFinding) {
		r.findings = append(r.findings, f.Requirement)
	}}
	if withDone {
		opt.Done = func(f *logcheck.FileResult) { r.done = append(r.done, filepath.Base(f.Name)) }
	}
	r.s, r.err = logcheck.Follow(fctx, paths, opt, fo)
	Expect(r.s).NotTo(BeNil())
	return r
}

// Follow's loop (issue 22, survivors of follow.go): a log is read on at
// once while reads get bytes, and again only at the next poll when they
// do not; FollowOptions.Read is called after each read that got bytes; an
// interrupted log notes a last line without its LF, however short.
var _ = Describe("Follow's loop (issue 22)", func() {
	It("reads a quiet log again only at the next poll, so a log quiet for less than Idle waits for it", func(ctx SpecContext) {
		// The first read takes the whole log; the second finds nothing and
		// starts the quiet time, 0 then, below Idle: the log is not over,
		// and nothing is read again before the next tick, an hour away. The
		// run ends when its context does (follow.go:83:12 and 90:23 made
		// the loop read on without a tick, 98:6 after a read of nothing).
		log := followBase()
		r := followPaths(ctx, 300*time.Millisecond, []string{followWrite("quiet.jsonl", log)}, logcheck.FollowOptions{Idle: time.Millisecond, Poll: followPoll}, false, nil)
		Expect(r.err).To(MatchError(context.DeadlineExceeded))
		Expect(r.s.Interrupted).To(BeTrue(), "the log was over before the poll")
		f := r.s.Files[0]
		Expect(f.Partial).To(BeTrue())
		Expect(f.Notes).To(BeEmpty(), "no line was left incomplete (follow.go:108:14)")
		Expect(f.Stats.Bytes).To(Equal(int64(len(log))))
		Expect(r.reads).To(Equal([]int64{int64(len(log))}))
		Expect(r.findings).To(BeEmpty())
	}, SpecTimeout(time.Minute))

	It("returns as soon as every log is over, without waiting for the next poll", func(ctx SpecContext) {
		// "Following ends when every log is over": the loop waited for the
		// next tick after the round in which the last log ended, so with
		// a long Poll it ran on until its context ended and called itself
		// Interrupted, the logs complete (bug fixed: follow.go:98).
		log := followBase()
		r := followPaths(ctx, 10*time.Second, []string{followWrite("over.jsonl", log)}, logcheck.FollowOptions{Poll: followPoll}, false, nil)
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.s.Interrupted).To(BeFalse())
		Expect(r.s.Files[0].Partial).To(BeFalse())
		Expect(r.reads).To(Equal([]int64{int64(len(log))}))
	}, SpecTimeout(time.Minute))

	It("reads a log longer than one read on without waiting for the poll, calling Read after each read", func(ctx SpecContext) {
		// Three reads of at most 64 KiB (followChunk) take a log of
		// 150,000 bytes, one after another (follow.go:90:18 waited for the
		// tick after every read, 90:23 `>` -> `<=` after those that got
		// bytes); then a read of nothing ends it (Idle 0). Read is called
		// after the three reads that got bytes, not the last
		// (follow.go:87:9 `>` -> `<=`).
		const chunk = 64 << 10
		base := followBase()
		Expect(strings.Count(base, `"text":"find x"`)).To(Equal(1))
		log := strings.Replace(base, `"text":"find x"`, `"text":"find x`+strings.Repeat("-", 150000-len(base))+`"`, 1)
		Expect(log).To(HaveLen(150000))
		r := followPaths(ctx, 10*time.Second, []string{followWrite("long.jsonl", log)}, logcheck.FollowOptions{Poll: followPoll}, false, nil)
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.s.Interrupted).To(BeFalse(), "Follow waited for the poll between reads")
		Expect(r.reads).To(Equal([]int64{chunk, 2 * chunk, 150000}))
		f := r.s.Files[0]
		Expect(f.Partial).To(BeFalse())
		Expect(f.Stats.Bytes).To(Equal(int64(150000)))
		Expect(r.findings).To(BeEmpty())
	}, SpecTimeout(time.Minute))

	It("takes a read of one byte as data: the LF that ends the session", func(ctx SpecContext) {
		// The log lacks its last LF; Read's first call appends it, so the
		// next read gets exactly that byte. It completes the turn/end line
		// and the log is over at the read after (Idle 0). follow.go:160:9
		// (`n > 1`) dropped the byte, 87:11 called no Read for it, 90:25
		// waited for the poll after it.
		log := followBase()
		path := followWrite("lf.jsonl", strings.TrimSuffix(log, "\n"))
		appended := false
		r := followPaths(ctx, 10*time.Second, []string{path}, logcheck.FollowOptions{Poll: followPoll}, false, func(n int64) {
			if appended {
				return
			}
			appended = true
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			Expect(err).NotTo(HaveOccurred())
			_, err = f.WriteString("\n")
			Expect(err).NotTo(HaveOccurred())
			Expect(f.Close()).To(Succeed())
		})
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.s.Interrupted).To(BeFalse(), "the session's last line never ended")
		Expect(r.reads).To(Equal([]int64{int64(len(log) - 1), int64(len(log))}))
		f := r.s.Files[0]
		Expect(f.Partial).To(BeFalse())
		Expect(f.Notes).To(BeEmpty())
		Expect(f.Stats.Bytes).To(Equal(int64(len(log))))
		Expect(f.Stats.Lines).To(Equal(strings.Count(log, "\n")))
		Expect(r.findings).To(BeEmpty())
	}, SpecTimeout(time.Minute))

	It("steps the next log in the same round when one ends", func(ctx SpecContext) {
		// Two complete logs: the first round reads both, the second finds
		// each over (Idle 0). When the first leaves the list the second
		// takes its place and must still be stepped in that round, or the
		// loop, having read nothing, waits for the poll (follow.go:95:6).
		log := followBase()
		paths := []string{followWrite("one.jsonl", log), followWrite("two.jsonl", log)}
		r := followPaths(ctx, 10*time.Second, paths, logcheck.FollowOptions{Poll: followPoll}, false, nil)
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.s.Interrupted).To(BeFalse())
		Expect(r.s.Files).To(HaveLen(2))
		for _, f := range r.s.Files {
			Expect(f.Partial).To(BeFalse(), f.Name)
			Expect(f.Stats.Bytes).To(Equal(int64(len(log))), f.Name)
		}
	}, SpecTimeout(time.Minute))

	It("notes a last line of one byte without its LF when interrupted", func(ctx SpecContext) {
		// A byte after the turn/end line: the log is never over (a line is
		// pending), so the context ends it, noting the byte
		// (follow.go:108:16 `fw.size > 1`).
		log := followBase() + "{"
		r := followPaths(ctx, 300*time.Millisecond, []string{followWrite("byte.jsonl", log)}, logcheck.FollowOptions{Poll: followPoll}, false, nil)
		Expect(r.s.Interrupted).To(BeTrue())
		f := r.s.Files[0]
		Expect(f.Partial).To(BeTrue())
		Expect(f.Notes).To(Equal([]string{"stopped with its last line incomplete: 1 bytes without an LF yet, not checked"}))
		Expect(f.Stats.Bytes).To(Equal(int64(len(log))))
	}, SpecTimeout(time.Minute))

	It("keeps in Files, with RunOptions.Done, only the logs with an error, a note or an interruption", func(ctx SpecContext) {
		// Summary.Files: "with RunOptions.Done only those with an error, a
		// note or an interruption" (follow.go:124:6 kept the others and
		// forgot these).
		log := followBase()
		r := followPaths(ctx, 10*time.Second, []string{followWrite("clean.jsonl", log)}, logcheck.FollowOptions{Poll: followPoll}, true, nil)
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.done).To(Equal([]string{"clean.jsonl"}))
		Expect(r.s.Files).To(BeEmpty(), "a clean log finished is handed to Done and forgotten")
		Expect(r.s.FileCount()).To(Equal(1))

		r = followPaths(ctx, 300*time.Millisecond, []string{followWrite("cut.jsonl", log+"{")}, logcheck.FollowOptions{Poll: followPoll}, true, nil)
		Expect(r.s.Interrupted).To(BeTrue())
		Expect(r.done).To(Equal([]string{"cut.jsonl"}))
		Expect(r.s.Files).To(HaveLen(1), "an interrupted log with a note is kept")
		Expect(r.s.Files[0].Partial).To(BeTrue())
		Expect(r.s.FileCount()).To(Equal(1))
	}, SpecTimeout(time.Minute))
})
