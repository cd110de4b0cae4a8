package logcheck_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/logcheck"
)

// The streaming driver of `conform check-log` (the end-to-end specs are in
// cmd/conform).
var _ = Describe("Run", func() {
	const (
		cleanLog = `{"type":"session","version":0,"id":"4428b809-66d5-4ea2-9a03-89de742fcda1","createdAt":1785591986068,"cwd":"/tmp","delegationDepth":0}` + "\n"
		badLog   = `{"type":"session","version":7,"id":"x","createdAt":-5}` + "\n" +
			"this is not json\n" +
			`{"type":"tool/result","seq":0,"time":1785591986069,"data":{"turn":1,"step":1,"callId":"nope","content":[],"isError":false},"surfaceOp":"append","sourceEventSeqs":[42]}` + "\n"
	)
	var dir string
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		ExpectWithOffset(1, os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		ExpectWithOffset(1, os.WriteFile(p, []byte(text), 0o644)).To(Succeed())
		return p
	}
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("expands directories to their *.jsonl in sorted order, files and - as given", func() {
		write("logs/b.jsonl", cleanLog)
		write("logs/a.jsonl", cleanLog)
		write("logs/sub/c.jsonl", cleanLog)
		write("logs/notes.txt", "x")
		one := write("one.log", cleanLog)
		got, err := logcheck.ExpandPaths([]string{one, filepath.Join(dir, "logs"), "-"})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal([]logcheck.Log{{Path: one}, {Path: filepath.Join(dir, "logs", "a.jsonl")}, {Path: filepath.Join(dir, "logs", "b.jsonl")}, {Path: filepath.Join(dir, "logs", "sub", "c.jsonl")}, {Path: "-"}}))

		_, err = logcheck.ExpandPaths([]string{filepath.Join(dir, "gone.jsonl")})
		Expect(err).To(MatchError("path " + filepath.Join(dir, "gone.jsonl") + ": no such file or directory"))
		Expect(os.Mkdir(filepath.Join(dir, "empty"), 0o755)).To(Succeed())
		s, err := logcheck.Run(context.Background(), []string{filepath.Join(dir, "empty")}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).To(MatchError(ContainSubstring("holds no *.jsonl file")))
		Expect(s).To(BeNil())
	})

	It("walks a tree in the sorted order of its full paths, one directory at a time", func() {
		var want []string
		for _, n := range []string{"t/a/b.jsonl", "t/a.b/c.jsonl", "t/a.jsonl", "t/ab.jsonl", "t/a-/d.jsonl", "t/a/a/e.jsonl", "t/a0.jsonl", "t/Z/f.jsonl"} {
			want = append(want, write(n, cleanLog))
		}
		write("t/a/skip.txt", "x")
		sort.Strings(want)
		var got []string
		Expect(logcheck.WalkPaths([]string{filepath.Join(dir, "t")}, func(l logcheck.Log) error {
			Expect(l.Err).NotTo(HaveOccurred())
			got = append(got, l.Path)
			return nil
		})).To(Succeed())
		Expect(got).To(Equal(want))
		stop := errors.New("stop")
		n := 0
		Expect(logcheck.WalkPaths([]string{filepath.Join(dir, "t")}, func(logcheck.Log) error { n++; return stop })).To(MatchError(stop))
		Expect(n).To(Equal(1), "an error of visit ends the walk")
	})

	It("finds in each of many logs what Check finds in it alone (the scratch one log hands the next holds nothing of it)", func() {
		var names []string
		huge := `{"type":"session/title","seq":0,"time":1785591986069,"data":{"title":"` + strings.Repeat("é", 40000) + `"}}` + "\n"
		write("t/000-huge.jsonl", cleanLog+huge)
		names = append(names, "t/000-huge.jsonl")
		for i, m := range sessionlog.Mutations() {
			for seed := range 3 {
				l, ok := m.Apply(sessionlog.Valid(seed))
				if !ok {
					continue
				}
				name := fmt.Sprintf("t/%03d-%d.jsonl", i+1, seed)
				write(name, string(l.Bytes()))
				names = append(names, name)
			}
		}
		s, err := logcheck.Run(context.Background(), []string{filepath.Join(dir, "t")}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Files).To(HaveLen(len(names)))
		total := 0
		for i, f := range s.Files {
			alone := checkFile(filepath.Join(dir, names[i]), logcheck.Defaults())
			Expect(alone.err).NotTo(HaveOccurred())
			var got []string
			for _, fd := range f.Listed {
				got = append(got, fmt.Sprintf("%d %s %s %s", fd.Line, fd.Requirement, fd.Level, fd.Message))
			}
			var want []string
			for _, fd := range alone.findings {
				want = append(want, fmt.Sprintf("%d %s %s %s", fd.Line, fd.Requirement, fd.Level, fd.Message))
			}
			Expect(got).To(Equal(want), names[i])
			Expect(f.Stats).To(Equal(alone.stats), names[i])
			total += len(want)
		}
		Expect(total).To(BeNumerically(">", len(names)), "the mutated logs have findings")
	})

	It("allocates a few KiB per small log, not buffers per log (issue 23)", func() {
		// Allocation, not time: what a run over many small logs costs the
		// GC, which a loaded machine runs late.
		const n = 400
		for i := range n {
			write(fmt.Sprintf("t/%04d.jsonl", i), cleanLog)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		s, err := logcheck.Run(context.Background(), []string{filepath.Join(dir, "t")}, logcheck.RunOptions{Options: logcheck.Defaults(), Listed: func(*logcheck.RunFinding) {}, Done: func(*logcheck.FileResult) {}})
		runtime.ReadMemStats(&m1)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.FileCount()).To(Equal(n))
		Expect((m1.TotalAlloc-m0.TotalAlloc)/n).To(BeNumerically("<", 8<<10), "bytes allocated per log")
	})

	It("checks every log, stdin included, and reports progress", func() {
		clean := write("clean.jsonl", cleanLog)
		var progress []string
		s, err := logcheck.Run(context.Background(), []string{clean, "-"}, logcheck.RunOptions{
			Options:  logcheck.Defaults(),
			Stdin:    strings.NewReader(badLog),
			Progress: func(n, total int, path string) { progress = append(progress, fmt.Sprintf("%d %d %s", n, total, path)) },
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(progress).To(Equal([]string{"1 2 " + clean, "2 2 -"}))
		Expect(s.FailOn).To(Equal(logcheck.Violation), "the default")
		Expect(s.Files).To(HaveLen(2))
		Expect(s.Files[0].Name).To(Equal(clean))
		Expect(s.Files[0].Listed).To(BeEmpty())
		Expect(s.Files[1].Name).To(Equal(logcheck.StdinName))
		Expect(s.Files[1].Stats.Bytes).To(BeNumerically("==", len(badLog)))
		Expect(s.Files[1].Listed).NotTo(BeEmpty())
		for _, f := range s.Files[1].Listed {
			Expect(f.File).To(Equal(logcheck.StdinName))
		}
		_, counts, _ := s.Totals()
		Expect(counts[logcheck.Violation]).To(BeNumerically(">", 0))
		Expect(s.Failing()).To(Equal(counts[logcheck.Violation]))
		Expect(s.Result()).To(Equal(logcheck.ResultFail))
	})

	It("keeps counting past MaxFindings", func() {
		bad := write("bad.jsonl", badLog)
		all, err := logcheck.Run(context.Background(), []string{bad}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).NotTo(HaveOccurred())
		Expect(all.Listed).To(BeNumerically(">=", 2))
		s, err := logcheck.Run(context.Background(), []string{bad, bad}, logcheck.RunOptions{Options: logcheck.Defaults(), MaxFindings: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Listed).To(Equal(1))
		Expect(s.Dropped).To(Equal(2*all.Listed - 1))
		Expect(s.Files[0].Dropped).To(Equal(all.Listed - 1))
		Expect(s.Files[1].Dropped).To(Equal(all.Listed))
		Expect(s.Failing()).To(Equal(2 * all.Failing()))
		total := 0
		for _, t := range s.ByReq {
			total += t.Total()
		}
		Expect(total).To(Equal(2 * all.Listed))
	})

	It("streams listed findings to Listed and keeps none of them", func() {
		bad := write("bad.jsonl", badLog)
		kept, err := logcheck.Run(context.Background(), []string{bad, bad}, logcheck.RunOptions{Options: logcheck.Defaults(), MaxFindings: 3})
		Expect(err).NotTo(HaveOccurred())
		var got []*logcheck.RunFinding
		var done []string
		s, err := logcheck.Run(context.Background(), []string{bad, bad}, logcheck.RunOptions{
			Options: logcheck.Defaults(), MaxFindings: 3,
			Listed: func(f *logcheck.RunFinding) { got = append(got, f) },
			Done:   func(f *logcheck.FileResult) { done = append(done, fmt.Sprintf("%s %d %d", f.Name, f.Shown, f.Dropped)) },
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(append(kept.Files[0].Listed, kept.Files[1].Listed...)))
		Expect(done).To(Equal([]string{
			fmt.Sprintf("%s %d %d", bad, kept.Files[0].Shown, kept.Files[0].Dropped),
			fmt.Sprintf("%s %d %d", bad, kept.Files[1].Shown, kept.Files[1].Dropped),
		}))
		for _, f := range s.Files {
			Expect(f.Listed).To(BeEmpty())
		}
		for _, t := range s.ByReq {
			Expect(t.Listed).To(BeEmpty())
			Expect(t.First).NotTo(BeNil())
		}
		Expect(s.Listed).To(Equal(3))
		Expect(s.Dropped).To(Equal(kept.Dropped))
	})

	It("records an unreadable or irregular log and checks the rest", func() {
		clean := write("clean.jsonl", cleanLog)
		sub := filepath.Join(dir, "fifo.jsonl")
		Expect(syscall.Mkfifo(sub, 0o644)).To(Succeed())
		s, err := logcheck.Run(context.Background(), []string{sub, filepath.Join(dir, "gone.jsonl"), clean}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).To(MatchError("path "+filepath.Join(dir, "gone.jsonl")+": no such file or directory"), "a missing argument is a usage error")
		Expect(s).To(BeNil())
		s, err = logcheck.Run(context.Background(), []string{sub, clean}, logcheck.RunOptions{Options: logcheck.Defaults()})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Files).To(HaveLen(2))
		Expect(s.Files[0].Err).To(MatchError("skipped: not a regular file (a named pipe)"))
		Expect(s.Files[1].Err).NotTo(HaveOccurred())
		Expect(s.Files[1].Stats.Lines).To(Equal(1))
		Expect(s.Result()).To(Equal(logcheck.ResultError))
	})

	It("applies the baseline and finds the stale entries", func() {
		bad := write("bad.jsonl", badLog)
		all, err := logcheck.Run(context.Background(), []string{bad}, logcheck.RunOptions{Options: logcheck.Defaults(), FailOn: logcheck.Warning})
		Expect(err).NotTo(HaveOccurred())
		var b strings.Builder
		for id := range all.ByReq {
			b.WriteString("- requirement: " + id + "\n  reason: known\n")
		}
		b.WriteString("- requirement: LOG-CHECK-3\n  file: elsewhere.jsonl\n  reason: old\n")
		bl, err := baseline.Parse("bl.yaml", []byte(b.String()))
		Expect(err).NotTo(HaveOccurred())
		s, err := logcheck.Run(context.Background(), []string{bad}, logcheck.RunOptions{Options: logcheck.Defaults(), FailOn: logcheck.Warning, Baseline: bl})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Failing()).To(Equal(0))
		Expect(s.Files[0].Baseline).To(Equal(all.Listed))
		for _, f := range s.Files[0].Listed {
			Expect(f.Baseline).NotTo(BeNil())
		}
		Expect(s.Stale).To(HaveLen(1))
		Expect(s.Stale[0].Requirement).To(Equal("LOG-CHECK-3"))
		Expect(s.Result()).To(Equal(logcheck.ResultFail), "a stale entry fails the run")
		Expect(s.Requirement("NOT-NAMED").Total()).To(Equal(0))
	})

	It("prefers a finding that is not baselined as a requirement's first", func() {
		bl, err := baseline.Parse("bl.yaml", []byte("- requirement: LOG-5\n  file: a.jsonl\n  reason: known\n"))
		Expect(err).NotTo(HaveOccurred())
		s := logcheck.NewSummary(logcheck.Violation, 0, bl)
		a, b := s.AddFile("a.jsonl"), s.AddFile("b.jsonl")
		s.Add(a, logcheck.Finding{Line: 1, Requirement: "LOG-5", Level: logcheck.Violation, Message: "one"})
		s.Add(b, logcheck.Finding{Line: 2, Requirement: "LOG-5", Level: logcheck.Warning, Message: "two"})
		s.Finish()
		t := s.Requirement("LOG-5")
		Expect(t.First.Message).To(Equal("two"))
		Expect(t.Baselined).To(Equal(1))
		Expect(t.Open).To(Equal(map[logcheck.Level]int{logcheck.Warning: 1}))
		Expect(t.Failing(logcheck.Violation)).To(Equal(0))
		Expect(t.Failing(logcheck.Warning)).To(Equal(1))
		Expect(a.Listed[0].File).To(Equal("a.jsonl"), "a finding without a file gets the log's name")
		Expect(s.Result()).To(Equal(logcheck.ResultPass))
	})

	It("stops when the context ends, returning what it checked", func() {
		clean := write("clean.jsonl", cleanLog)
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		s, err := logcheck.Run(ctx, []string{clean, clean, clean}, logcheck.RunOptions{
			Options:  logcheck.Defaults(),
			Progress: func(int, int, string) { n++; cancel() },
		})
		Expect(err).To(MatchError(context.Canceled))
		Expect(n).To(Equal(1))
		Expect(s.Files).To(HaveLen(1))
		Expect(s.Files[0].Err).NotTo(HaveOccurred())
		Expect(s.Files[0].Partial).To(BeTrue())
		Expect(s.Interrupted).To(BeTrue())
		Expect(s.Total).To(Equal(3))
		Expect(s.Result()).To(Equal(logcheck.ResultInterrupted))
	})

	Describe("a log that grows while it is checked (issue 23)", func() {
		AfterEach(func() { logcheck.SetAfterOpen(nil) })

		It("is read up to its size at open and noted, while a writer keeps appending", func(ctx SpecContext) {
			var log bytes.Buffer
			_, err := sessionlog.Big(&log, 4<<20, 3)
			Expect(err).NotTo(HaveOccurred())
			path := write("live.jsonl", log.String())
			// The writer appends whole lines, 64 KiB at a time, until the
			// check is over (at most 256 MiB, so that a reader that never
			// stops is caught by the byte count, not the disk).
			chunk := bytes.Repeat([]byte(cleanLog), 64<<10/len(cleanLog))
			stop, stopped := make(chan struct{}), make(chan int64)
			var atOpen int64 = -1
			defer logcheck.SetAfterOpen(func(string) {
				st, err := os.Stat(path)
				Expect(err).NotTo(HaveOccurred())
				atOpen = st.Size()
				go func() {
					w, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
					if err != nil {
						panic(err)
					}
					defer w.Close()
					n := int64(0)
					for ; n < 256<<20; n += int64(len(chunk)) {
						select {
						case <-stop:
							stopped <- n
							return
						default:
						}
						if _, err := w.Write(chunk); err != nil {
							panic(err)
						}
					}
					<-stop
					stopped <- n
				}()
			})()
			s, err := logcheck.Run(ctx, []string{path}, logcheck.RunOptions{Options: logcheck.Defaults()})
			close(stop)
			appended := <-stopped
			Expect(err).NotTo(HaveOccurred())
			Expect(atOpen).To(BeNumerically("==", log.Len()))
			Expect(appended).To(BeNumerically(">", 0), "the writer appended during the check")
			f := s.Files[0]
			Expect(f.Stats.Bytes).To(Equal(atOpen))
			Expect(f.Listed).To(BeEmpty(), "only the clean log was checked")
			Expect(f.Notes).To(HaveLen(1))
			Expect(f.Notes[0]).To(HavePrefix(fmt.Sprintf("grew from %d to at least ", atOpen)))
			Expect(f.Notes[0]).To(ContainSubstring(fmt.Sprintf("only the %d bytes it had when opened were checked", atOpen)))
			Expect(s.Result()).To(Equal(logcheck.ResultPass), "a note does not fail the run")
		}, SpecTimeout(2*time.Minute))

		It("leaves a last line being written unread, and judges an incomplete last line of a log that stays so", func(ctx SpecContext) {
			const partial = `{"type":"session/title","seq":0,"time":1785591986069,"da`
			const rest = `ta":{"title":"x"}}` + "\n"
			path := write("cut.jsonl", cleanLog+partial)
			defer logcheck.SetAfterOpen(func(string) {
				w, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				Expect(err).NotTo(HaveOccurred())
				_, err = w.WriteString(rest)
				Expect(err).NotTo(HaveOccurred())
				Expect(w.Close()).To(Succeed())
			})()
			s, err := logcheck.Run(ctx, []string{path}, logcheck.RunOptions{Options: logcheck.Defaults()})
			Expect(err).NotTo(HaveOccurred())
			f := s.Files[0]
			Expect(f.Stats.Bytes).To(BeNumerically("==", len(cleanLog)))
			Expect(f.Stats.Lines).To(Equal(1))
			Expect(f.Listed).To(BeEmpty(), "the line being written is not judged")
			Expect(f.Notes).To(ConsistOf(fmt.Sprintf("grew from %d to at least %d bytes while it was checked; only its first %d bytes were checked (the %d bytes after its last LF at open were the start of a line being written); check it again once it is complete, or follow it (--follow)",
				len(cleanLog)+len(partial), len(cleanLog)+len(partial)+len(rest), len(cleanLog), len(partial))))

			logcheck.SetAfterOpen(nil)
			still := write("still.jsonl", cleanLog+partial)
			s, err = logcheck.Run(ctx, []string{still}, logcheck.RunOptions{Options: logcheck.Defaults()})
			Expect(err).NotTo(HaveOccurred())
			f = s.Files[0]
			Expect(f.Stats.Bytes).To(BeNumerically("==", len(cleanLog)+len(partial)))
			Expect(f.Notes).To(BeEmpty())
			Expect(f.Listed).To(ContainElement(HaveField("Message", "line 2: the final line has no terminating LF (truncated write?)")))
		}, SpecTimeout(time.Minute))
	})
})
