package main

// End-to-end specs of conform run, conform diff and conform baseline write.
// The package's one RunSpecs is in checklog_test.go; the binaries these
// specs run (conform and the misbehaving adapters of
// internal/adapter/testdata) are built once, on first use, by rtBinaries.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	conformroot "github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// rtAdapters are the misbehaving adapters of internal/adapter/testdata.
var rtAdapters = []string{"crash-third", "garbage", "hang", "huge-line", "no-ops", "stderr-noise", "wrong-id", "wrong-meta"}

var rtBuild struct {
	once sync.Once
	dir  string
	err  error
	out  string
}

// rtBinaries builds the misbehaving adapters into a temporary directory,
// once, and returns the directory (conform itself is the suite's bin).
func rtBinaries() string {
	rtBuild.once.Do(func() {
		rtBuild.dir, rtBuild.err = os.MkdirTemp("", "conform-run-spec-")
		if rtBuild.err != nil {
			return
		}
		args := []string{"build", "-o", rtBuild.dir + string(os.PathSeparator)}
		for _, a := range rtAdapters {
			args = append(args, "../../internal/adapter/testdata/"+a)
		}
		cmd := exec.Command("go", args...)
		out, err := cmd.CombinedOutput()
		rtBuild.err, rtBuild.out = err, string(out)
	})
	ExpectWithOffset(1, rtBuild.err).NotTo(HaveOccurred(), "go build: "+rtBuild.out)
	return rtBuild.dir
}

// TestMain removes the binaries after the suite.
func TestMain(m *testing.M) {
	code := m.Run()
	if rtBuild.dir != "" {
		_ = os.RemoveAll(rtBuild.dir)
	}
	os.Exit(code)
}

func rtBin() string             { return bin }
func rtAdapter(n string) string { return filepath.Join(rtBinaries(), n) }

// rtConform runs the conform binary with no stdin.
func rtConform(args ...string) result {
	return runBinary(1, rtBin(), "", args...)
}

// rtDecode validates a JSON run report against its schema and decodes it.
func rtDecode(data []byte) *runner.Report {
	ExpectWithOffset(1, spec.ValidateJSON("report-run", data)).To(Succeed(), string(data))
	var rep runner.Report
	ExpectWithOffset(1, json.Unmarshal(data, &rep)).To(Succeed())
	ExpectWithOffset(1, rep.Totals).To(Equal(runner.Totals(rep.Cases)))
	return &rep
}

// rtReadReport reads and decodes a JSON report file.
func rtReadReport(path string) *runner.Report {
	data, err := os.ReadFile(path)
	ExpectWithOffset(1, err).NotTo(HaveOccurred(), "the report %s", path)
	return rtDecode(data)
}

// rtWriteReport writes a report as conform run --format json does.
func rtWriteReport(path string, rep *runner.Report) {
	var buf bytes.Buffer
	ExpectWithOffset(1, report.WriteRunJSON(&buf, rep)).To(Succeed())
	ExpectWithOffset(1, os.WriteFile(path, buf.Bytes(), 0o644)).To(Succeed())
}

var rtCases = sync.OnceValues(func() ([]runner.Case, error) { return runner.LoadCases(conformroot.Files) })

// rtCount is the number of embedded cases of op ("" all of them).
func rtCount(op string) int {
	cs, err := rtCases()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	n := 0
	for _, c := range cs {
		if op == "" || c.Op == op {
			n++
		}
	}
	return n
}

var rtSummary = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed(, .*)?$`)

var _ = Describe("conform run", func() {
	It("checks the embedded reference by default: exit 0 and N passed, 0 failed", func() {
		r := rtConform("run")
		Expect(r.code).To(Equal(exitOK), r.stdout+r.stderr)
		m := rtSummary.FindStringSubmatch(r.stdout)
		Expect(m).NotTo(BeNil(), r.stdout)
		Expect(m[1]).To(Equal(strconv.Itoa(rtCount(""))))
		Expect(m[2]).To(Equal("0"))
		Expect(strings.TrimRight(r.stdout, "\n")).To(HaveSuffix(m[0]), "the summary is the last line")
		Expect(r.stdout).To(ContainSubstring("adapter: the embedded reference"))
		Expect(r.stdout).To(MatchRegexp(`requirements: 165: \d+ passed, \d+ check-log, \d+ excluded\n`), "every requirement of the catalogue is accounted for")
		Expect(r.stdout).To(MatchRegexp(`(?m)^conform \S+, case set sha256:[0-9a-f]{16}$`))
		Expect(strings.Count(r.stdout, "\n")).To(BeNumerically("<", 30), "the default output is short")
		Expect(r.stderr).To(BeEmpty())
	})

	It("checks the reference served over the protocol by conform adapter: 100% pass", func() {
		out := filepath.Join(GinkgoT().TempDir(), "r.json")
		r := rtConform("run", "--format", "json", "--out", out, "--", rtBin(), "adapter")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		rep := rtReadReport(out)
		Expect(rep.Cases).To(HaveLen(rtCount("")))
		Expect(rep.Totals[verdict.Pass]).To(Equal(rtCount("")))
		Expect(rep.Adapter).To(Equal([]string{rtBin(), "adapter"}))
		Expect(rep.Implementation.Name).To(Equal("conform reference"))
		Expect(r.stderr).To(ContainSubstring("conform: run: %d passed, 0 failed (report: %s)", rtCount(""), out))
	})

	It("splits --adapter like a shell, and runs --exec with one process per case", func() {
		r := rtConform("run", "--format", "json", "--exec", "--op", "retain.items", "--adapter", `'`+rtBin()+`' "adapter"`)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		rep := rtDecode([]byte(r.stdout))
		Expect(rep.Totals[verdict.Pass]).To(Equal(rtCount("retain.items")))
		Expect(rep.Adapter).To(Equal([]string{rtBin(), "adapter"}))
	})

	It("reads cases from --fixtures", func() {
		root, err := filepath.Abs("../..")
		Expect(err).NotTo(HaveOccurred())
		r := rtConform("run", "--fixtures", root, "--op", "spill.preview")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(ContainSubstring("%d passed, 0 failed", rtCount("spill.preview")))
		Expect(r.stdout).To(ContainSubstring("ran %d of %d cases", rtCount("spill.preview"), rtCount("")))
	})

	It("fails the run with a stale baseline entry (a listed case that passes): exit 1, xpass", func() {
		dir := GinkgoT().TempDir()
		bl := filepath.Join(dir, "baseline.yaml")
		Expect(os.WriteFile(bl, []byte("- id: retain.items/gen-001\n  reason: thought broken\n  issue: HARNESS-9\n"), 0o644)).To(Succeed())
		r := rtConform("run", "--baseline", bl, "--op", "retain.items")
		Expect(r.code).To(Equal(exitNonconform), r.stdout+r.stderr)
		Expect(r.stdout).To(ContainSubstring("XPASS retain.items/gen-001"))
		Expect(r.stdout).To(ContainSubstring("stale baseline entry: the case passes (baseline reason: thought broken (HARNESS-9))"))
		Expect(rtSummary.FindString(r.stdout)).To(Equal(strconv.Itoa(rtCount("retain.items")-1) + " passed, 0 failed, 1 xpass"))

		out := filepath.Join(dir, "r.json")
		r = rtConform("run", "--baseline", bl, "--op", "retain.items", "--format", "json", "--out", out)
		Expect(r.code).To(Equal(exitNonconform))
		rep := rtReadReport(out)
		Expect(rep.Totals[verdict.XPass]).To(Equal(1))
		Expect(rep.Cases[0].Baseline).To(Equal("thought broken (HARNESS-9)"))
	})

	It("exits 2 for a baseline naming an unknown case id, and does not run", func() {
		bl := filepath.Join(GinkgoT().TempDir(), "baseline.yaml")
		Expect(os.WriteFile(bl, []byte("- id: grep.result/no-such-case\n  reason: x\n"), 0o644)).To(Succeed())
		r := rtConform("run", "--baseline", bl)
		Expect(r.code).To(Equal(exitUsage), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring(bl + `:1: unknown case id "grep.result/no-such-case"`))
		Expect(r.stdout).To(BeEmpty())
	})

	It("writes JUnit XML that parses back with the expected counts", func() {
		dir := GinkgoT().TempDir()
		// wrong-meta fails most grep.result cases; baseline one failing
		// case (xfail: passes in JUnit) and one passing case (xpass: a
		// failure).
		js := filepath.Join(dir, "r.json")
		r := rtConform("run", "--adapter", rtAdapter("wrong-meta"), "--op", "grep.result", "--format", "json", "--out", js)
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		plain := rtReadReport(js)
		var failID, passID string
		for _, c := range plain.Cases {
			if c.Verdict == verdict.Fail && failID == "" {
				failID = c.ID
			}
			if c.Verdict == verdict.Pass && passID == "" {
				passID = c.ID
			}
		}
		Expect(failID).NotTo(BeEmpty())
		Expect(passID).NotTo(BeEmpty())
		bl := filepath.Join(dir, "baseline.yaml")
		Expect(os.WriteFile(bl, []byte("- id: "+failID+"\n  reason: known\n- id: "+passID+"\n  reason: stale\n"), 0o644)).To(Succeed())

		xml := filepath.Join(dir, "r.xml")
		r = rtConform("run", "--adapter", rtAdapter("wrong-meta"), "--op", "grep.result", "--baseline", bl, "--format", "junit", "--out", xml)
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		f, err := os.Open(xml)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		ju, err := report.ReadJUnit(f)
		Expect(err).NotTo(HaveOccurred())
		fails := plain.Totals[verdict.Fail]
		// and one failing testcase for the stale baseline entry (suite "conform")
		Expect(ju.Tests).To(Equal(rtCount("grep.result") + 1))
		Expect(ju.Failures).To(Equal(fails - 1 + 1 + 1)) // one fail became xfail, one pass became xpass
		Expect(ju.Errors).To(Equal(0))
		Expect(ju.Skipped).To(Equal(0))
		Expect(ju.Suites).To(HaveLen(2))
		Expect(ju.Suites[1].Name).To(Equal("conform"))
		Expect(ju.Suites[1].Cases[0].Name).To(HavePrefix("stale-baseline-entry "))
		Expect(ju.Suites[0].Name).To(Equal("grep.result"))
		byName := map[string]report.TestCase{}
		for _, tc := range ju.Suites[0].Cases {
			Expect(tc.Classname).To(Equal("grep.result"))
			byName[tc.Name] = tc
		}
		xfail := byName[failID]
		Expect(xfail.Failure).To(BeNil())
		Expect(xfail.SystemOut).To(ContainSubstring("baseline (reason: known)"))
		xpass := byName[passID]
		Expect(xpass.Failure).NotTo(BeNil())
		Expect(xpass.Failure.Message).To(ContainSubstring("stale baseline entry"))
		Expect(xpass.Failure.Type).To(Equal("xpass"))
		for _, c := range plain.Cases {
			if c.Verdict == verdict.Fail && c.ID != failID {
				tc := byName[c.ID]
				Expect(tc.Failure).NotTo(BeNil(), c.ID)
				Expect(tc.Failure.Message).To(ContainSubstring("fails " + strings.Join(c.Broken, ", ")))
				Expect(tc.Failure.Text).To(ContainSubstring("fails "+c.Broken[0]+" — MUST: "), "the statement beside the ID")
				Expect(tc.Failure.Text).To(ContainSubstring("reproduce: conform run --run "))
				Expect(tc.Failure.Text).To(ContainSubstring("[" + c.Diffs[0].Comparator + "]"))
				Expect(tc.Failure.Text).To(ContainSubstring(c.Diffs[0].Message))
				break
			}
		}
	})

	It("reports crash, timeout and error as JUnit <error>, unsupported as <skipped>", func() {
		dir := GinkgoT().TempDir()
		xml := filepath.Join(dir, "crash.xml")
		r := rtConform("run", "--adapter", rtAdapter("crash-third"), "--op", "grep.result", "--jobs", "1", "--run", `/gen-00[1-6]$`, "--format", "junit", "--out", xml)
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		data, err := os.ReadFile(xml)
		Expect(err).NotTo(HaveOccurred())
		ju, err := report.ReadJUnit(bytes.NewReader(data))
		Expect(err).NotTo(HaveOccurred())
		Expect([]int{ju.Tests, ju.Failures, ju.Errors, ju.Skipped}).To(Equal([]int{6, 0, 2, 0}))
		for _, tc := range ju.Suites[0].Cases {
			if tc.Error != nil {
				Expect(tc.Error.Type).To(Equal("crash"))
				Expect(tc.Error.Text).To(ContainSubstring("crash-third: giving up on run 3"))
			}
		}

		r = rtConform("run", "--adapter", rtAdapter("no-ops"), "--op", "retain.items", "--format", "junit")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		ju, err = report.ReadJUnit(strings.NewReader(r.stdout))
		Expect(err).NotTo(HaveOccurred())
		// and the "partial selection" testcase: a run of one op is no whole pass (issue 21)
		Expect([]int{ju.Tests, ju.Failures, ju.Errors, ju.Skipped}).To(Equal([]int{rtCount("retain.items") + 1, 0, 0, rtCount("retain.items") + 1}))
	})

	It("writes a Markdown compliance table per requirement", func() {
		r := rtConform("run", "--format", "markdown", "--op", "retain.text")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(HavePrefix("### conform run — `conform reference"))
		Expect(r.stdout).To(ContainSubstring("➖ **PARTIAL** (conformant on the selected cases only)"), "one op is no whole pass (issue 21)")
		Expect(r.stdout).To(ContainSubstring("| Requirement | Level | Status | Cases | Pass | Fail | Other |\n|:---|:---|:---|---:|---:|---:|---:|\n"))
		Expect(r.stdout).To(MatchRegexp("(?m)^\\| ✅ `RET-[A-Z0-9-]+` \\| MUST \\| passed \\| \\d+ \\| \\d+ \\| 0 \\| 0 \\|$"))
		Expect(r.stdout).To(MatchRegexp("Requirements no case of this run cites: \\d+ not-selected, \\d+ excluded, \\d+ check-log"))
	})

	It("reruns only the failed cases of an earlier report", func() {
		dir := GinkgoT().TempDir()
		earlier := filepath.Join(dir, "earlier.json")
		r := rtConform("run", "--op", "retain.items", "--format", "json", "--out", earlier)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		rep := rtReadReport(earlier)
		victim := rep.Cases[3].ID
		rep.Cases[3].Verdict = verdict.Fail
		rep.Cases[3].Diffs = []runner.Diff{{Field: "content", Comparator: "exact", Message: "made up"}}
		rep.Totals = runner.Totals(rep.Cases)
		rtWriteReport(earlier, rep)

		r = rtConform("run", "--rerun-failed", earlier, "--format", "json")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		again := rtDecode([]byte(r.stdout))
		Expect(again.Cases).To(HaveLen(1))
		Expect(again.Cases[0].ID).To(Equal(victim))
		Expect(again.Cases[0].Verdict).To(Equal(verdict.Pass))

		r = rtConform("run", "--rerun-failed", filepath.Join(dir, "missing.json"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("missing.json"))
	})

	It("is a usage error when the rerun selects nothing (issue 12: no false green)", func() {
		earlier := filepath.Join(GinkgoT().TempDir(), "earlier.json")
		Expect(rtConform("run", "--op", "retain.items", "--format", "json", "--out", earlier).code).To(Equal(exitOK))
		r := rtConform("run", "--rerun-failed", earlier)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("nothing to rerun"))

		// failed ids the case set no longer has: nothing selected, even
		// against a crashing adapter
		rep := rtReadReport(earlier)
		rep.Cases[0].ID, rep.Cases[0].Verdict = "retain.items/gone", verdict.Fail
		rep.Cases[0].Diffs = []runner.Diff{{Field: "items", Comparator: "json", Message: "gone"}}
		rep.Totals = runner.Totals(rep.Cases)
		rtWriteReport(earlier, rep)
		r = rtConform("run", "--rerun-failed", earlier, "--adapter", rtAdapter("stderr-noise"))
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("retain.items/gone"))
		Expect(r.stderr).To(ContainSubstring("no case of the embedded case set matches the selection"))
	})

	It("exits 3 when the adapter command does not exist", func() {
		r := rtConform("run", "--", "conform-no-such-adapter-binary", "--flag")
		Expect(r.code).To(Equal(exitInfraFailed), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring("starting the adapter"))
		Expect(r.stderr).To(ContainSubstring("conform-no-such-adapter-binary"))
		// the report is written anyway, and says why (issue 11)
		Expect(r.stdout).To(ContainSubstring("START FAULT: the adapter could not be started\n"))
		Expect(r.stdout).To(ContainSubstring("NONCONFORMANT:\n  - the adapter could not be started: "))
	})

	It("exits 3 when the adapter fails the handshake, showing its stderr", func() {
		r := rtConform("run", "--adapter", rtAdapter("no-ops")+" missing")
		Expect(r.code).To(Equal(exitInfraFailed), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring(`no "ops" array`))
	})

	It("exits 3 when the fixtures cannot be read or the report cannot be written", func() {
		empty := GinkgoT().TempDir()
		r := rtConform("run", "--fixtures", empty)
		Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
		Expect(r.stderr).To(ContainSubstring("reading the cases from " + empty))

		r = rtConform("run", "--op", "retain.items", "--out", filepath.Join(empty, "no", "such", "dir", "r.txt"))
		Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
		Expect(r.stderr).To(ContainSubstring("--out"))

		r = rtConform("run", "--op", "retain.items", "--out", empty)
		Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
	})

	DescribeTable("usage errors exit 2",
		func(want string, args ...string) {
			r := rtConform(append([]string{"run"}, args...)...)
			Expect(r.code).To(Equal(exitUsage), r.stdout+r.stderr)
			Expect(r.stderr).To(ContainSubstring(want))
		},
		Entry("adapter twice", "either with --adapter or after --", "--adapter", "x", "--", "y"),
		Entry("exec without adapter", "--exec needs an adapter command", "--exec"),
		Entry("unterminated quote", "unterminated ' quote", "--adapter", "node 'a.mjs"),
		Entry("shell syntax", "is shell syntax", "--adapter", "node a.mjs | tee log"),
		Entry("bad regexp", "--run", "--run", "("),
		Entry("unknown op", "no case has op grep.results", "--op", "grep.results"),
		Entry("unknown requirement", "unknown requirement SEARCH-NOPE-1", "--requirement", "SEARCH-NOPE-1"),
		Entry("empty selection", "matches the selection", "--run", "no-such-case-anywhere"),
		Entry("bad format", "--format must be one of", "--format", "xml"),
		Entry("bad timeout", "--timeout must be positive", "--timeout", "0s"),
		Entry("negative jobs", "--jobs must be at least 0", "--jobs=-1"),
		Entry("missing baseline", "no such file", "--baseline", "/nonexistent/baseline.yaml"),
		Entry("missing fixtures", "--fixtures /nonexistent/dir", "--fixtures", "/nonexistent/dir"),
	)

	Describe("with misbehaving adapters", func() {
		type want struct {
			code   int
			totals func(n int) map[verdict.Verdict]int // n: the selected cases
			sel    string                              // --run, "" all grep.result cases
		}
		DescribeTable("finishes, writes its report and counts the verdicts",
			func(name string, w want) {
				out := filepath.Join(GinkgoT().TempDir(), "r.json")
				args := []string{"run", "--adapter", rtAdapter(name), "--timeout", "2s", "--op", "grep.result", "--jobs", "1", "--format", "json", "--out", out}
				if w.sel != "" {
					args = append(args, "--run", w.sel)
				}
				start := time.Now()
				r := rtConform(args...)
				Expect(r.code).To(Equal(w.code), r.stderr)
				rep := rtReadReport(out)
				n := len(rep.Cases)
				if w.sel == "" {
					Expect(n).To(Equal(rtCount("grep.result")))
				}
				wantTotals := runner.Totals(nil)
				for v, k := range w.totals(n) {
					wantTotals[v] = k
				}
				if name == "wrong-meta" { // the split depends on the fixtures
					Expect(rep.Totals[verdict.Fail]).To(BeNumerically(">", 0))
					Expect(rep.Totals[verdict.Pass]).To(BeNumerically(">", 0))
					Expect(rep.Totals[verdict.Fail] + rep.Totals[verdict.Pass]).To(Equal(n))
				} else {
					Expect(rep.Totals).To(Equal(wantTotals))
				}
				Expect(rep.Implementation.Name).To(Equal(name))
				Expect(time.Since(start)).To(BeNumerically("<", 2*time.Minute), "a watchdog: the bug it catches is a hang")
				switch name {
				case "stderr-noise":
					for _, c := range rep.Cases {
						Expect(c.Stderr).To(HaveSuffix("stderr-noise: fatal: the last words\n"))
						Expect(len(c.Stderr)).To(BeNumerically("<=", 4096))
					}
				case "hang":
					for _, c := range rep.Cases {
						Expect(c.Message).To(ContainSubstring("within 2s"))
					}
				}
			},
			Entry("crash-third: every third run crashes, the adapter restarts", "crash-third", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Crash: n / 3, verdict.Pass: n - n/3}
			}}),
			Entry("hang: every case times out", "hang", want{code: exitNonconform, sel: `/gen-00[12]$`, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Timeout: n}
			}}),
			Entry("garbage: a non-JSON line before every answer", "garbage", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Error: n}
			}}),
			Entry("wrong-id: every answer under another id", "wrong-id", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Error: n}
			}}),
			Entry("wrong-meta: well-formed but wrong answers", "wrong-meta", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return nil
			}}),
			Entry("huge-line: one 100 MB answer line", "huge-line", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Error: 1, verdict.Pass: n - 1}
			}}),
			Entry("no-ops: no op supported (an unsupported required op fails the run)", "no-ops", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Unsupported: n}
			}}),
			Entry("stderr-noise: crashes after 16 KiB of stderr", "stderr-noise", want{code: exitNonconform, totals: func(n int) map[verdict.Verdict]int {
				return map[verdict.Verdict]int{verdict.Crash: n}
			}}),
		)

		It("lists faults in the text report with the adapter's last stderr lines", func() {
			r := rtConform("run", "--adapter", rtAdapter("stderr-noise"), "--op", "grep.result", "--run", "/gen-001$")
			Expect(r.code).To(Equal(exitNonconform), r.stderr)
			Expect(r.stdout).To(ContainSubstring("CRASH grep.result/gen-001\n  cites "))
			Expect(r.stdout).To(ContainSubstring("  message: \"adapter exited"))
			Expect(r.stdout).To(ContainSubstring("  reproduce: conform run --run '^grep\\.result/gen-001$' -- "))
			Expect(r.stdout).To(ContainSubstring("adapter stderr (last 10 lines):\n"))
			Expect(r.stdout).To(ContainSubstring("  | stderr-noise: fatal: the last words\n"))
			Expect(rtSummary.FindString(r.stdout)).To(Equal("0 passed, 0 failed, 1 crash"))
		})

		It("lists failures in the text report with their diffs and broken requirements", func() {
			r := rtConform("run", "--adapter", rtAdapter("wrong-meta"), "--op", "grep.result", "--max-failures", "3", "-v")
			Expect(r.code).To(Equal(exitNonconform), r.stderr)
			Expect(strings.Count(r.stdout, "\nFAIL grep.result/")).To(Equal(3))
			Expect(r.stdout).To(ContainSubstring("  fails SEARCH-CAP-4 — MUST: The cap MUST NOT change `total`.\n"))
			Expect(r.stdout).To(MatchRegexp(`(?m)^  - meta \[json\] \$\.meta\.total \(SEARCH-[A-Z0-9-]+\): .*\n      want \(whole\): \d+\n      got \(whole\):  \d+$`))
			Expect(r.stdout).To(ContainSubstring("more failing cases (all of them: --max-failures 0"))
			Expect(r.stdout).To(MatchRegexp(`(?m)^  SEARCH-CAP-4 +MUST +failed +\d+ +\d+ +\d+ +total preserved$`))
			Expect(r.stdout).To(MatchRegexp(`(?m)^  SEARCH-ERR-1 +MUST +passed +\d+ +\d+ +0 +failure envelope$`), "-v lists passing requirements too")
			Expect(r.stdout).To(ContainSubstring("  reproduce: conform run --run "))
			Expect(r.stdout).To(MatchRegexp(`(?m)^\d+ passed, \d+ failed$`))
		})
	})
})

var _ = Describe("conform diff", func() {
	var dir, oldPath, newPath string
	var victim, fixed, removed, added string

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		base := filepath.Join(dir, "base.json")
		r := rtConform("run", "--op", "retain.items", "--format", "json", "--out", base)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		old := rtReadReport(base)
		cur := rtReadReport(base)
		victim, fixed, removed = old.Cases[0].ID, old.Cases[1].ID, old.Cases[2].ID
		// old: fixed fails, removed exists; new: victim fails, fixed
		// passes, removed is gone, added is new.
		old.Cases[1].Verdict = verdict.Fail
		old.Cases[1].Diffs = []runner.Diff{{Field: "content", Comparator: "exact", Message: "was broken"}}
		cur.Cases[0].Verdict = verdict.Crash
		cur.Cases[0].Message = "adapter exited (exit status 3)"
		added = "retain.items/zz-new-case"
		extra := cur.Cases[3]
		extra.ID = added
		cur.Cases = append(append(cur.Cases[:2:2], cur.Cases[3:]...), extra)
		old.Totals, cur.Totals = runner.Totals(old.Cases), runner.Totals(cur.Cases)
		oldPath, newPath = filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
		rtWriteReport(oldPath, old)
		rtWriteReport(newPath, cur)
	})

	It("lists newly failing, fixed, new and removed cases; exit 1 when something newly fails", func() {
		r := rtConform("diff", oldPath, newPath)
		Expect(r.code).To(Equal(exitNonconform), r.stdout+r.stderr)
		Expect(r.stdout).To(MatchRegexp(`(?m)^newly failing \(1\):\n  ` + regexp.QuoteMeta(victim) + ` +pass → crash +adapter exited \(exit status 3\)$`))
		Expect(r.stdout).To(MatchRegexp(`(?m)^fixed \(1\):\n  ` + regexp.QuoteMeta(fixed) + ` +fail → pass$`))
		Expect(r.stdout).To(MatchRegexp(`(?m)^new cases \(1\):\n  ` + regexp.QuoteMeta(added) + ` +pass$`))
		Expect(r.stdout).To(MatchRegexp(`(?m)^removed cases \(1\):\n  ` + regexp.QuoteMeta(removed) + ` +pass$`))
		Expect(r.stdout).To(ContainSubstring("1 newly failing, 1 fixed, 0 other changes, 1 new, 1 removed"))

		r = rtConform("diff", "--format", "json", oldPath, newPath)
		Expect(r.code).To(Equal(exitNonconform))
		var d report.RunDiff
		Expect(json.Unmarshal([]byte(r.stdout), &d)).To(Succeed())
		Expect(d.NewlyFailing).To(HaveLen(1))
		Expect(d.NewlyFailing[0].ID).To(Equal(victim))
	})

	It("exits 0 when nothing newly fails", func() {
		r := rtConform("diff", newPath, oldPath) // the reverse: the fixed case fails again
		Expect(r.code).To(Equal(exitNonconform))
		r = rtConform("diff", oldPath, oldPath)
		Expect(r.code).To(Equal(exitOK), r.stdout+r.stderr)
		Expect(r.stdout).To(ContainSubstring("0 newly failing, 0 fixed, 0 other changes, 0 new, 0 removed"))
	})

	It("refuses files that are not version-1 run reports, naming the file", func() {
		other := filepath.Join(dir, "checklog.json")
		Expect(os.WriteFile(other, []byte(`{"format":"conform-check-log","version":1}`), 0o644)).To(Succeed())
		r := rtConform("diff", oldPath, other)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(other + `: format "conform-check-log", want "conform-run"`))

		v2 := filepath.Join(dir, "v2.json")
		Expect(os.WriteFile(v2, []byte(`{"format":"conform-run","version":2}`), 0o644)).To(Succeed())
		r = rtConform("diff", v2, newPath)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(v2 + ": report version 2, this conform reads version 1"))

		broken := filepath.Join(dir, "broken.json")
		Expect(os.WriteFile(broken, []byte(`{"format":"conform-run","version":1,"cases":[]}`), 0o644)).To(Succeed())
		r = rtConform("diff", oldPath, broken)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(broken + ": not a valid run report"))

		r = rtConform("diff", oldPath, filepath.Join(dir, "missing.json"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("missing.json: no such file"))
	})
})

var _ = Describe("conform baseline write", func() {
	It("writes the failures of a report as a baseline that makes the same run pass", func() {
		dir := GinkgoT().TempDir()
		js := filepath.Join(dir, "r.json")
		r := rtConform("run", "--adapter", rtAdapter("crash-third"), "--op", "grep.result", "--jobs", "1", "--run", "/gen-0", "--format", "json", "--out", js)
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		rep := rtReadReport(js)
		crashes := rep.Totals[verdict.Crash]
		Expect(crashes).To(BeNumerically(">", 0))

		bl := filepath.Join(dir, "baseline.yaml")
		r = rtConform("baseline", "write", "--from", js, "--out", bl)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stderr).To(ContainSubstring("wrote %d entries to %s", crashes, bl))
		b, err := baseline.Load(bl)
		Expect(err).NotTo(HaveOccurred())
		cs, err := rtCases()
		Expect(err).NotTo(HaveOccurred())
		Expect(runner.ValidateBaseline(b, cs)).To(Succeed())
		Expect(b.Entries).To(HaveLen(crashes))
		var ids []string
		for _, c := range rep.Cases {
			if c.Verdict == verdict.Crash {
				ids = append(ids, c.ID)
			}
		}
		for i, e := range b.Entries {
			Expect(e.ID).To(Equal(ids[i]), "case order")
			Expect(e.Reason).To(HavePrefix("crash: adapter exited"))
			Expect(e.Requirement).To(BeEmpty(), "a fault breaks no requirement")
		}

		r = rtConform("run", "--adapter", rtAdapter("crash-third"), "--op", "grep.result", "--jobs", "1", "--run", "/gen-0", "--baseline", bl)
		Expect(r.code).To(Equal(exitOK), r.stdout+r.stderr)
		Expect(rtSummary.FindString(r.stdout)).To(HaveSuffix(", 0 failed, %d xfail", crashes))
	})

	It("runs the cases itself, with the run flags, and keeps the reasons of expected failures", func() {
		dir := GinkgoT().TempDir()
		bl := filepath.Join(dir, "baseline.yaml")
		r := rtConform("baseline", "write", "--out", bl, "--op", "grep.result", "--", rtAdapter("wrong-meta"))
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stderr).To(ContainSubstring("note: only %d of %d cases ran", rtCount("grep.result"), rtCount("")))
		b, err := baseline.Load(bl)
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Entries).NotTo(BeEmpty())
		for _, e := range b.Entries {
			Expect(e.Reason).To(HavePrefix("fail: "))
			Expect(e.Requirement).NotTo(BeEmpty())
		}
		data, err := os.ReadFile(bl)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(HavePrefix("# conform baseline: the known failures of wrong-meta"))

		// Hand-edit one reason; rewriting through the baseline keeps it.
		edited := strings.Replace(string(data), b.Entries[0].Reason, "our meta is off by one", 1)
		Expect(os.WriteFile(bl, []byte(edited), 0o644)).To(Succeed())
		again := filepath.Join(dir, "again.yaml")
		r = rtConform("baseline", "write", "--out", again, "--op", "grep.result", "--baseline", bl, "--adapter", rtAdapter("wrong-meta"))
		Expect(r.code).To(Equal(exitOK), r.stderr)
		b2, err := baseline.Load(again)
		Expect(err).NotTo(HaveOccurred())
		Expect(b2.Entries).To(HaveLen(len(b.Entries)))
		Expect(b2.Entries[0].Reason).To(Equal("our meta is off by one"))
	})

	It("writes an empty baseline when nothing fails", func() {
		r := rtConform("baseline", "write", "--op", "retain.items", "--out", "-")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		b, err := baseline.Parse("stdout", []byte(r.stdout))
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Entries).To(BeEmpty())
	})

	It("refuses run flags with --from, and a report that is not one", func() {
		dir := GinkgoT().TempDir()
		r := rtConform("baseline", "write", "--from", "x.json", "--op", "grep.result", "--out", filepath.Join(dir, "b.yaml"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("--from takes the failures from a report"))
		junk := filepath.Join(dir, "junk.json")
		Expect(os.WriteFile(junk, []byte("[]"), 0o644)).To(Succeed())
		r = rtConform("baseline", "write", "--from", junk, "--out", filepath.Join(dir, "b.yaml"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring(junk + ": not a JSON run report"))
		r = rtConform("baseline", "write", "--from", junk)
		Expect(r.code).To(Equal(exitUsage))
	})
})

var _ = Describe("adapter.SplitCommand", func() {
	DescribeTable("splits like a shell",
		func(in string, want ...string) {
			got, err := adapter.SplitCommand(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("words", "node  my-adapter.mjs\t--x", "node", "my-adapter.mjs", "--x"),
		Entry("single quotes", `node 'my adapter.mjs'`, "node", "my adapter.mjs"),
		Entry("double quotes and escapes", `node "a \"b\" \\ \$c" d\ e`, "node", `a "b" \ $c`, "d e"),
		Entry("empty words", `x '' ""`, "x", "", ""),
		Entry("joined quotes", `a'b'"c"d`, "abcd"),
		Entry("backslash in single quotes", `x 'a\b'`, "x", `a\b`),
		Entry("line continuation", "x \\\n y", "x", "y"),
		Entry("quoted shell characters", `sh -c 'a | b; $HOME'`, "sh", "-c", "a | b; $HOME"),
		Entry("escaped assignment", `\FOO=1 x`, "FOO=1", "x"),
		Entry("assignment as an argument", `env FOO=1 node`, "env", "FOO=1", "node"),
		Entry("tilde inside a word", `node a~b`, "node", "a~b"),
	)
	DescribeTable("refuses what needs a shell",
		func(in, want string) {
			_, err := adapter.SplitCommand(in)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("empty", "  ", "empty adapter command"),
		Entry("unterminated single", "a 'b", "unterminated ' quote"),
		Entry("unterminated double", `a "b`, `unterminated " quote`),
		Entry("trailing backslash", `a \`, "trailing backslash"),
		Entry("pipe", "a | b", "shell syntax"),
		Entry("redirect", "a > log", "shell syntax"),
		Entry("variable", "$HOME/bin/a", "shell syntax"),
		Entry("variable in double quotes", `"$HOME/a"`, "would need a shell"),
		Entry("tilde", "~/bin/a", "leading ~"),
		Entry("assignment", "FOO=1 node a.mjs", "shell variable assignment"),
	)
})
