package adapter_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// The misbehaving adapters of issue 11 (Time, Processes, Reports and
// exits), run through the runner as `conform run` runs them: each spec
// asserts the verdicts, the messages, a report that the schema accepts, and
// that no process is left behind. Where the bug would be a wait, the wait is
// made to last minutes (a long Timeout) and the wall time is held to the
// watchdog, so the machine's load cannot fail a correct run.

// embeddedCases are the embedded case set, or its first n cases.
func embeddedCases(n int) []runner.Case {
	GinkgoHelper()
	cs, err := runner.LoadCases(conform.Files)
	Expect(err).NotTo(HaveOccurred())
	if n > 0 && n < len(cs) {
		cs = cs[:n]
	}
	return cs
}

// runThrough runs cases through cfg with jobs sessions and returns the
// report, already checked against the schema, and the wall time.
func runThrough(cfg adapter.Config, jobs int, cases []runner.Case) (*runner.Report, time.Duration) {
	GinkgoHelper()
	began := time.Now()
	rep, err := runner.Run(context.Background(), cases, runner.Options{
		Jobs:       jobs,
		Timeout:    cfg.Timeout, // as fuzz passes it: the deadline rule must keep the session's fault
		NewSession: func(ctx context.Context) (adapter.Session, error) { return adapter.Start(ctx, cfg) },
		Adapter:    cfg.Argv,
	})
	wall := time.Since(began)
	Expect(err).NotTo(HaveOccurred())
	Expect(rep.Cases).To(HaveLen(len(cases)))
	expectValidReport(rep)
	return rep, wall
}

func expectValidReport(rep *runner.Report) {
	GinkgoHelper()
	var js, text bytes.Buffer
	Expect(report.WriteRunJSON(&js, rep)).To(Succeed())
	Expect(spec.ValidateJSON("report-run", js.Bytes())).To(Succeed())
	Expect(report.WriteRunText(&text, rep, report.RunText{})).To(Succeed())
	for _, n := range rep.Notes {
		Expect(text.String()).To(ContainSubstring("note (" + n.Kind + "): " + n.Message))
	}
}

// tokenPrefix is the CONFORM_ADAPTER_TOKEN prefix of the adapters a
// process with this pid started (docs/protocol.md, The process).
func tokenPrefix(pid int) string { return "CONFORM_ADAPTER_TOKEN=" + strconv.Itoa(pid) + "." }

// alive lists the running processes whose environment has an entry with
// the prefix.
func alive(prefix string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || processGone(pid) {
			continue
		}
		for _, kv := range strings.Split(string(env), "\x00") {
			if strings.HasPrefix(kv, prefix) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// expectNothingLeft checks that no process this test binary started as an
// adapter, or that one of them started, still runs.
func expectNothingLeft() {
	GinkgoHelper()
	Eventually(func() []int { return alive(tokenPrefix(os.Getpid())) }).WithTimeout(2 * time.Second).Should(BeEmpty())
}

// verdicts counts the cases of each verdict, and of messages with prefix.
func countPrefix(rep *runner.Report, v verdict.Verdict, prefix string) int {
	n := 0
	for _, c := range rep.Cases {
		if c.Verdict == v && strings.HasPrefix(c.Message, prefix) {
			n++
		}
	}
	return n
}

var _ = Describe("misbehaving adapters (issue 11)", func() {
	BeforeEach(func() {
		if _, err := os.Stat("/proc/self/environ"); err != nil {
			Skip("needs /proc")
		}
	})

	It("close-stdout: the end of stdout is a crash at once, and the circuit breaker fails the rest of the case set", func() {
		cases := embeddedCases(0)
		rep, wall := runThrough(adapter.Config{Argv: []string{bin("close-stdout")}}, 2, cases)
		AddReportEntry("close-stdout, whole case set, -j2", wall.String())
		Expect(rep.Totals[verdict.Crash]).To(Equal(len(cases)))
		crashed := countPrefix(rep, verdict.Crash, "adapter closed its stdout before answering case ")
		Expect(crashed).To(BeNumerically(">=", 10))
		Expect(crashed).To(BeNumerically("<=", 20), "at most 10 per job before the breaker opens")
		Expect(countPrefix(rep, verdict.Crash, "not run: the adapter failed 10 cases in a row; last: adapter closed its stdout")).To(Equal(len(cases) - crashed))
		Expect(rep.Cases[0].Message).To(HaveSuffix("; adapter killed"))
		Expect(rep.Cases[0].Stderr).To(Equal("close-stdout: stdout closed, still reading\n"))
		expectNothingLeft()
	})

	It("close-stdout with MaxFaults -1 (fuzz): no breaker, every case is really run", func() {
		cases := embeddedCases(15)
		rep, _ := runThrough(adapter.Config{Argv: []string{bin("close-stdout")}, MaxFaults: -1}, 1, cases)
		Expect(countPrefix(rep, verdict.Crash, "adapter closed its stdout before answering case ")).To(Equal(15))
		expectNothingLeft()
	})

	It("restart-hang: restarts have their own handshake deadline, their faults count, and three failures stop the restarts", func() {
		marker := filepath.Join(GinkgoT().TempDir(), "started")
		cfg := adapter.Config{Argv: []string{bin("restart-hang"), marker, "2"}, RestartTimeout: time.Second}
		cases := embeddedCases(0)
		rep, wall := runThrough(cfg, 2, cases)
		AddReportEntry("restart-hang, whole case set, -j2, 1s restart deadline", wall.String())
		Expect(countPrefix(rep, verdict.Crash, "adapter exited (exit status 3) before answering case ")).To(Equal(2))
		// The verdict of a failed restart is error (docs/protocol.md, Faults).
		failed := countPrefix(rep, verdict.Error, "restarting the adapter: no answer to the restart's handshake within 1s; adapter killed")
		Expect(failed).To(Equal(6), "three per job")
		Expect(countPrefix(rep, verdict.Error, "not run: 3 restarts of the adapter failed in a row; last: restarting the adapter: no answer")).To(Equal(len(cases) - 8))
		for _, c := range rep.Cases {
			if c.Verdict == verdict.Error {
				Expect(c.Stderr).To(Equal("restart-hang: stuck loading the harness\n"), c.ID)
			}
		}
		Expect(rep.Totals[verdict.Timeout]).To(BeZero(), "no case was sent to a hanging restart")
		expectNothingLeft()
	})

	It("orphan exit: an exit is a crash though a setsid() grandchild holds stdout, and the grandchild is killed and named", func() {
		cases := embeddedCases(12)
		rep, wall := runThrough(adapter.Config{Argv: []string{bin("orphan"), "exit"}, Timeout: longWait}, 1, cases)
		Expect(wall).To(BeNumerically("<", watchdog), "no case waited for its timeout")
		Expect(rep.Totals[verdict.Crash]).To(Equal(12))
		for _, c := range rep.Cases[:10] {
			Expect(c.Message).To(MatchRegexp(`^adapter exited \(exit status 0\) before answering case \S+; killed 1 process it left behind: \d+ \(orphan\)$`), c.ID)
			Expect(c.Stderr).To(MatchRegexp(`^orphan \d+\n$`))
		}
		Expect(rep.Cases[11].Message).To(HavePrefix("not run: the adapter failed 10 cases in a row; last: adapter exited (exit status 0)"))
		Expect(rep.Notes).To(ConsistOf(HaveField("Kind", "leftover")))
		Expect(rep.Notes[0].Message).To(HavePrefix("the adapter's processes exited but conform killed 10 processes it left behind: "))
		expectNothingLeft()
	})

	It("orphan exit scrub: a grandchild that escapes the sweep still cannot turn the exit into a timeout", func() {
		cases := embeddedCases(3)
		rep, wall := runThrough(adapter.Config{Argv: []string{bin("orphan"), "exit", "scrub"}, Timeout: longWait}, 1, cases)
		var escaped []int
		for _, c := range rep.Cases {
			m := regexp.MustCompile(`^orphan (\d+)\n$`).FindStringSubmatch(c.Stderr)
			Expect(m).NotTo(BeNil(), c.ID)
			pid, _ := strconv.Atoi(m[1])
			escaped = append(escaped, pid)
		}
		DeferCleanup(func() { // the documented gap: conform cannot find them
			for _, pid := range escaped {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		})
		Expect(wall).To(BeNumerically("<", watchdog), "the 1 s exit window a case, not the timeout")
		Expect(rep.Totals[verdict.Crash]).To(Equal(3))
		for _, c := range rep.Cases {
			Expect(c.Message).To(Equal("adapter exited (exit status 0) before answering case "+c.ID), c.ID)
		}
		expectNothingLeft()
	})

	It("orphan in exec mode: no drain wait per case, no leaked grandchild, and a note names what was killed", func() {
		cases := embeddedCases(20)
		rep, wall := runThrough(adapter.Config{Argv: []string{bin("orphan")}, Exec: true}, 1, cases)
		AddReportEntry("orphan, exec mode, 20 cases", wall.String())
		Expect(wall).To(BeNumerically("<", 20*200*time.Millisecond), "under 0.2 s a case")
		Expect(rep.Totals[verdict.Pass]).To(Equal(20))
		Expect(rep.Notes).To(HaveLen(1))
		Expect(rep.Notes[0].Kind).To(Equal("leftover"))
		// 21: the handshake's process left one too.
		Expect(rep.Notes[0].Message).To(MatchRegexp(`^the adapter's processes exited but conform killed 21 processes it left behind: \d+ \(orphan\), `))
		expectNothingLeft()
	})

	It("ignore-bye at -j8: sessions close in parallel, the kills are notes, and the wall time is true", func() {
		cases := embeddedCases(16)
		rep, wall := runThrough(adapter.Config{Argv: []string{bin("ignore-bye")}}, 8, cases)
		Expect(wall).To(BeNumerically("<", 2*time.Second+2*time.Second), "one 2 s grace, not eight")
		Expect(rep.Totals[verdict.Pass]).To(Equal(16))
		Expect(rep.DurationMS).To(BeNumerically(">=", 2000))
		Expect(rep.DurationMS).To(BeNumerically("<=", float64(wall.Milliseconds())+1))
		Expect(rep.Notes).To(HaveLen(8))
		for _, n := range rep.Notes {
			Expect(n.Kind).To(Equal("timeout"))
			Expect(n.Message).To(Equal("adapter did not exit within 2s of bye; killed"))
			Expect(n.Stderr).To(Equal("ignore-bye: not leaving\n"))
		}
		expectNothingLeft()
	})

	It("exit-three: a failing exit after a correct answer is a crash in exec mode, and a note after bye", func() {
		cases := embeddedCases(3)
		rep, wall := runThrough(adapter.Config{Argv: []string{bin("exit-three")}, Exec: true}, 1, cases)
		Expect(wall).To(BeNumerically("<", 3*time.Second))
		Expect(rep.Totals[verdict.Crash]).To(Equal(3))
		for _, c := range rep.Cases {
			Expect(c.Message).To(Equal("adapter answered case " + c.ID + ", then exited with exit status 3"))
			Expect(c.Stderr).To(Equal("exit-three: failing after the answer\n"))
		}
		rep, _ = runThrough(adapter.Config{Argv: []string{bin("exit-three")}}, 1, cases)
		Expect(rep.Totals[verdict.Pass]).To(Equal(3))
		Expect(rep.Notes).To(ConsistOf(runner.Note{Kind: "crash", Message: "adapter exited with exit status 3 after bye", Stderr: "exit-three: failing after the answer\n"}))
		expectNothingLeft()
	})

	It("hang under fuzz's deadline: a timeout keeps the adapter's stderr every time", func() {
		// fuzz calls RunCase with the session's own timeout: the same
		// instant, unless RunCase keeps the backstop behind it.
		cfg := adapter.Config{Argv: []string{bin("hang")}, Timeout: 300 * time.Millisecond}
		s := start(cfg)
		c := embeddedCases(1)[0]
		began := time.Now()
		for i := range 4 {
			r := runner.RunCase(context.Background(), s, c, cfg.Timeout)
			Expect(r.Verdict).To(Equal(verdict.Timeout), "attempt %d", i)
			Expect(r.Message).To(HavePrefix("no answer to case " + c.ID + " within 300ms; adapter killed; killed 1 process it left behind"))
			Expect(r.Stderr).To(MatchRegexp(`^child \d+\n$`), "attempt %d", i)
		}
		Expect(time.Since(began)).To(BeNumerically("<", watchdog))
		Expect(s.Close()).To(MatchError(ContainSubstring("conform killed 4 processes it left behind: ")))
		expectNothingLeft()
	})
})

var _ = Describe("conform's own process (issue 11)", func() {
	BeforeEach(func() {
		if _, err := os.Stat("/proc/self/environ"); err != nil {
			Skip("needs /proc")
		}
	})

	It("SIGKILL to conform takes its adapters, and what they started, with it", func() {
		cmd := exec.Command(bin("conform"), "run", "-j", "2", "--", bin("hang"))
		Expect(cmd.Start()).To(Succeed())
		prefix := tokenPrefix(cmd.Process.Pid)
		// Two hang adapters, each with its sleeping child.
		Eventually(func() []int { return alive(prefix) }).WithTimeout(20 * time.Second).Should(HaveLen(4))
		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_ = cmd.Wait()
		Eventually(func() []int { return alive(prefix) }).WithTimeout(5*time.Second).Should(BeEmpty(),
			"adapters or their children outlived conform")
		Eventually(func() []int { return alive("CONFORM_ADAPTER_GUARDIAN=" + strconv.Itoa(cmd.Process.Pid)) }).WithTimeout(5 * time.Second).Should(BeEmpty())
	})

	It("-j beyond the descriptor limit blames conform's limit, not the adapter", func() {
		began := time.Now()
		cmd := exec.Command("sh", "-c", `ulimit -n 40 && exec "$0" run -j 30 -- "$0" adapter`, bin("conform"))
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		Expect(errors.As(err, &exit)).To(BeTrue(), "%v: %s", err, out)
		Expect(exit.ExitCode()).To(Equal(3))
		Expect(string(out)).To(MatchRegexp(`cannot start \S+: conform ran out of file descriptors \(.*(too many open files|bad file descriptor); its limit of 40 \(RLIMIT_NOFILE\)\): this is conform's limit, not the adapter's fault; lower --jobs`))
		Expect(time.Since(began)).To(BeNumerically("<", watchdog))
		Eventually(func() []int { return alive(tokenPrefix(cmd.Process.Pid)) }).WithTimeout(2 * time.Second).Should(BeEmpty())
	})
})
