package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/spec"
)

func TestConformCommand(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "cmd/conform")
}

// bin is the conform binary built for the end-to-end specs.
var bin string

var _ = SynchronizedBeforeSuite(func() []byte {
	dir, err := os.MkdirTemp("", "conform-bin-")
	Expect(err).NotTo(HaveOccurred())
	out := filepath.Join(dir, "conform")
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Stderr = GinkgoWriter
	Expect(cmd.Run()).To(Succeed(), "go build ./cmd/conform")
	return []byte(out)
}, func(path []byte) {
	bin = string(path)
})

var _ = SynchronizedAfterSuite(func() {}, func() {
	if bin != "" {
		os.RemoveAll(filepath.Dir(bin))
	}
})

type result struct {
	stdout, stderr string
	code           int
}

// conform runs the binary; stdin may be empty.
func conform(stdin string, args ...string) result {
	return runBinary(1, bin, stdin, args...)
}

// runBinary runs a binary built for the specs and returns its outputs and
// exit status; a run that takes over a minute fails the spec (a hang is a
// bug). offset is the caller's depth for failure locations.
func runBinary(offset int, path, stdin string, args ...string) result {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	ExpectWithOffset(offset+1, ctx.Err()).NotTo(HaveOccurred(), "%s %s did not finish", filepath.Base(path), strings.Join(args, " "))
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		ExpectWithOffset(offset+1, err).NotTo(HaveOccurred())
	}
	return result{out.String(), errb.String(), code}
}

// Small logs. The clean one is the LOG-2 example header with no events;
// the bad ones break the header rules (LOG-2 via LOG-CHECK-1) and the
// pairing rules, so any engine must report violations for them.
const (
	cleanLog = `{"type":"session","version":0,"id":"4428b809-66d5-4ea2-9a03-89de742fcda1","createdAt":1785591986068,"cwd":"/tmp","delegationDepth":0}` + "\n"
	badLog   = `{"type":"session","version":7,"id":"x","createdAt":-5}` + "\n" +
		"this is not json\n" +
		`{"type":"tool/result","seq":0,"time":1785591986069,"data":{"turn":1,"step":1,"callId":"nope","content":[],"isError":false},"surfaceOp":"append","sourceEventSeqs":[42]}` + "\n"
)

func writeFile(dir, name, text string) string {
	p := filepath.Join(dir, name)
	ExpectWithOffset(1, os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	ExpectWithOffset(1, os.WriteFile(p, []byte(text), 0o644)).To(Succeed())
	return p
}

// The check-log report model now lives in internal/report and
// internal/logcheck; the specs keep their short names.
type (
	clJSONReport      = report.CheckLogJSON
	clJSONLevelCounts = report.CheckLogLevelCounts
)

const clStdinName = logcheck.StdinName

// decode parses a --format json report after validating it against its
// schema.
func decode(out string) clJSONReport {
	ExpectWithOffset(1, spec.ValidateJSON("report-check-log", []byte(out))).To(Succeed(), out)
	var rep clJSONReport
	ExpectWithOffset(1, json.Unmarshal([]byte(out), &rep)).To(Succeed())
	return rep
}

// logAreaIDs are the requirements every checked file gets a JUnit case
// and a markdown row for.
func logAreaIDs() []string {
	reqs, err := spec.Catalogue()
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var ids []string
	for _, q := range reqs {
		if q.Area == "log" {
			ids = append(ids, q.ID)
		}
	}
	return ids
}

var _ = Describe("check-log flags", func() {
	It("defaults to the engine's defaults", func() {
		dir := GinkgoT().TempDir()
		p := writeFile(dir, "a.jsonl", cleanLog)
		var c cli
		parser, err := kong.New(&c, kong.Exit(func(int) { Fail("kong exited") }))
		Expect(err).NotTo(HaveOccurred())
		_, err = parser.Parse([]string{"check-log", p})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.CheckLog.options()).To(Equal(logcheck.Defaults()))
		Expect(c.CheckLog.Format).To(Equal("text"))
		Expect(c.CheckLog.FailOn).To(Equal("violation"))

		_, err = parser.Parse([]string{"check-log", "--tool-name", "grep=rg_search", "--tool-name=run_code=exec", "--max-inline-bytes", "100",
			"--grep-max-matches", "5", "--glob-max-results", "6", "--search-meta-max-bytes", "7", "--max-line-bytes", "8", p})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.CheckLog.options()).To(Equal(logcheck.Options{
			ToolNames:          map[string]string{"grep": "rg_search", "run_code": "exec"},
			SearchMetaMaxBytes: 7, MaxInlineBytes: 100, MaxLineBytes: 8, GrepMaxMatches: 5, GlobMaxResults: 6,
		}))
	})

	DescribeTable("usage errors exit 2",
		func(want string, args ...string) {
			dir := GinkgoT().TempDir()
			writeFile(dir, "ok.jsonl", cleanLog)
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, "DIR", dir)
			}
			r := conform("", append([]string{"check-log"}, args...)...)
			Expect(r.code).To(Equal(exitUsage), r.stderr)
			Expect(r.stderr).To(ContainSubstring(strings.ReplaceAll(want, "DIR", dir)))
		},
		Entry("missing path, named", "DIR/nope.jsonl", "DIR/ok.jsonl", "DIR/nope.jsonl"),
		Entry("no path", "expected \"<path> ...\"", "--format", "json"),
		Entry("bad format", "--format must be one of", "--format", "xml", "DIR/ok.jsonl"),
		Entry("bad fail-on", "--fail-on must be one of", "--fail-on", "unprovable", "DIR/ok.jsonl"),
		Entry("unknown canonical tool", `unknown tool "find"`, "--tool-name", "find=fd", "DIR/ok.jsonl"),
		Entry("tool name without =", "expected \"<key>=<value>\"", "--tool-name", "grep", "DIR/ok.jsonl"),
		Entry("empty logged name", "empty logged name", "--tool-name", "grep=", "DIR/ok.jsonl"),
		Entry("two tools, one name", "both map to", "--tool-name", "grep=x", "--tool-name", "glob=x", "DIR/ok.jsonl"),
		Entry("negative count", "--max-findings must be at least 0", "--max-findings=-1", "DIR/ok.jsonl"),
		Entry("not a number", "--max-inline-bytes", "--max-inline-bytes", "lots", "DIR/ok.jsonl"),
		Entry("zero meta cap", "--search-meta-max-bytes must be at least 1", "--search-meta-max-bytes", "0", "DIR/ok.jsonl"),
		Entry("a line longer than a tape holds", "--max-line-bytes must be at most 1073741823 (1 GiB - 1), got 1073741824", "--max-line-bytes", "1073741824", "DIR/ok.jsonl"),
		Entry("stdin twice", "more than once", "-", "-"),
		Entry("missing baseline", "--baseline DIR/none.yaml", "--baseline", "DIR/none.yaml", "DIR/ok.jsonl"),
	)

	It("exits 2 for a directory without logs", func() {
		dir := GinkgoT().TempDir()
		Expect(os.Mkdir(filepath.Join(dir, "empty"), 0o755)).To(Succeed())
		writeFile(dir, "empty/notes.txt", "x")
		r := conform("", "check-log", filepath.Join(dir, "empty"))
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("holds no *.jsonl file"))
	})
})

var _ = Describe("check-log on clean logs", func() {
	var dir, clean string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		clean = writeFile(dir, "clean.jsonl", cleanLog)
	})

	It("exits 0 in every format", func() {
		for _, f := range []string{"text", "json", "junit", "markdown"} {
			r := conform("", "check-log", "--format", f, clean)
			Expect(r.code).To(Equal(exitOK), f+": "+r.stdout+r.stderr)
		}
	})

	It("prints the statistics footer", func() {
		r := conform("", "check-log", clean)
		Expect(r.code).To(Equal(exitOK), r.stdout)
		Expect(r.stdout).To(ContainSubstring("checked 1 file: 1 lines, 0 events"))
		Expect(r.stdout).To(ContainSubstring("tool results checked: "))
		Expect(r.stdout).To(ContainSubstring("findings: 0 violations, 0 warnings, 0 unprovable"))
		Expect(r.stdout).To(ContainSubstring("unknown event types: none"))
		Expect(r.stdout).To(ContainSubstring("malformed lines: 0"))
		Expect(r.stdout).To(MatchRegexp(`elapsed: \d+\.\d{3}s \(\d+\.\d MB/s\)`))
		Expect(r.stdout).To(ContainSubstring("result: PASS"))
	})

	It("reads - as stdin", func() {
		r := conform(cleanLog, "check-log", "--format", "json", "-")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		rep := decode(r.stdout)
		Expect(rep.Files).To(HaveLen(1))
		Expect(rep.Files[0].File).To(Equal(clStdinName))
		Expect(rep.Files[0].Stats.Bytes).To(BeNumerically("==", len(cleanLog)))
		Expect(rep.Files[0].Stats.Lines).To(Equal(1))
	})

	It("walks a directory for *.jsonl in sorted order", func() {
		d := filepath.Join(dir, "logs")
		writeFile(d, "b.jsonl", cleanLog)
		writeFile(d, "a.jsonl", cleanLog)
		writeFile(d, "sub/c.jsonl", cleanLog)
		writeFile(d, "notes.txt", "not a log")
		writeFile(d, "x.jsonl.bak", "not a log either")
		r := conform("", "check-log", "--format", "json", d, clean)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		rep := decode(r.stdout)
		var names []string
		for _, f := range rep.Files {
			names = append(names, f.File)
		}
		Expect(names).To(Equal([]string{filepath.Join(d, "a.jsonl"), filepath.Join(d, "b.jsonl"), filepath.Join(d, "sub", "c.jsonl"), clean}))
		Expect(rep.Totals.Files).To(Equal(4))
		Expect(rep.Totals.Result).To(Equal("pass"))
	})

	It("writes JUnit with one suite per file and one case per checked requirement", func() {
		other := writeFile(dir, "other.jsonl", cleanLog)
		r := conform("", "check-log", "--format", "junit", clean, other)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		var ts report.TestSuites
		Expect(xml.Unmarshal([]byte(r.stdout), &ts)).To(Succeed())
		n := len(logAreaIDs())
		Expect(n).To(BeNumerically(">", 10))
		Expect(ts.Suites).To(HaveLen(2))
		Expect(ts.Tests).To(Equal(2 * n))
		Expect(ts.Failures + ts.Errors).To(Equal(0))
		Expect(ts.Suites[0].Name).To(Equal(clean))
		Expect(ts.Suites[0].Tests).To(Equal(n))
		Expect(ts.Suites[0].Cases[0].Name).To(Equal("LOG-1"))
		Expect(ts.Suites[0].Cases[0].Classname).To(Equal("log"))
	})

	It("writes a markdown compliance table", func() {
		r := conform("", "check-log", "--format", "markdown", clean)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(ContainSubstring("| Requirement | Status | Violations | Warnings | Unprovable | Baselined | First example |"))
		for _, id := range logAreaIDs() {
			Expect(r.stdout).To(ContainSubstring("| `" + id + "` |"))
		}
		Expect(r.stdout).To(ContainSubstring("PASS"))
	})

	It("writes to --out instead of stdout", func() {
		out := filepath.Join(dir, "report.json")
		r := conform("", "check-log", "--format", "json", "--out", out, clean)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(BeEmpty())
		data, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		decode(string(data))
	})

	It("writes to stdout for --out -, never to a file named -", func() {
		bad := writeFile(dir, "bad.jsonl", badLog)
		cmd := exec.Command(bin, "check-log", "--out", "-", bad)
		cmd.Dir = dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		var ee *exec.ExitError
		Expect(errors.As(cmd.Run(), &ee)).To(BeTrue())
		Expect(ee.ExitCode()).To(Equal(exitNonconform), errb.String())
		Expect(out.String()).To(ContainSubstring("result: FAIL"))
		Expect(errb.String()).To(BeEmpty(), "a text report on stdout needs no summary on stderr")
		Expect(filepath.Join(dir, "-")).NotTo(BeAnExistingFile())

		cmd = exec.Command(bin, "check-log", "--format", "json", "--out", "-", clean)
		cmd.Dir = dir
		data, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		decode(string(data))
		Expect(filepath.Join(dir, "-")).NotTo(BeAnExistingFile())
	})

	It("accepts --tool-name and the caps", func() {
		r := conform("", "check-log", "--tool-name", "grep=rg_search", "--max-inline-bytes", "4096", "--grep-max-matches", "100", "--glob-max-results", "100", clean)
		Expect(r.code).To(Equal(exitOK), r.stdout+r.stderr)
	})

	Describe("with a baseline", func() {
		It("fails on a stale entry, naming it", func() {
			bl := writeFile(dir, "bl.yaml", "# known problems\n- requirement: LOG-CHECK-2\n  reason: crash repair\n")
			r := conform("", "check-log", "--baseline", bl, clean)
			Expect(r.code).To(Equal(exitNonconform), r.stdout)
			Expect(r.stdout).To(ContainSubstring("stale baseline entry " + bl + ":2 {requirement: LOG-CHECK-2} matches no finding"))
			Expect(r.stdout).To(ContainSubstring("result: FAIL"))

			r = conform("", "check-log", "--format", "json", "--baseline", bl, clean)
			Expect(r.code).To(Equal(exitNonconform))
			Expect(r.stderr).To(ContainSubstring("stale baseline entry " + bl + ":2"))
			rep := decode(r.stdout)
			Expect(rep.Baseline.Stale).To(HaveLen(1))
			Expect(rep.Baseline.Stale[0].Source).To(Equal(bl + ":2"))
			Expect(rep.Totals.Result).To(Equal("fail"))

			r = conform("", "check-log", "--format", "junit", "--baseline", bl, clean)
			Expect(r.code).To(Equal(exitNonconform))
			ts, err := report.ReadJUnit(strings.NewReader(r.stdout))
			Expect(err).NotTo(HaveOccurred())
			Expect(ts.Failures).To(Equal(1))
			Expect(ts.Suites[len(ts.Suites)-1].Cases[0].Failure.Message).To(ContainSubstring("stale"))
		})

		It("rejects an unknown requirement with exit 2", func() {
			bl := writeFile(dir, "bl.yaml", "- requirement: LOG-CHECK-2\n  reason: ok\n- requirement: LOG-CHECK-42\n  reason: typo\n")
			r := conform("", "check-log", "--baseline", bl, clean)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stderr).To(ContainSubstring(bl + `:3: unknown requirement "LOG-CHECK-42"`))
			Expect(r.stdout).To(BeEmpty())
		})

		It("rejects malformed YAML with file:line and exit 2", func() {
			bl := writeFile(dir, "bl.yaml", "- requirement: LOG-CHECK-2\n  reason: ok\n- requirement: [\n")
			r := conform("", "check-log", "--baseline", bl, clean)
			Expect(r.code).To(Equal(exitUsage))
			Expect(r.stderr).To(MatchRegexp(regexpQuote(bl) + `:\d+: `))
		})

		It("ignores runner (id) entries", func() {
			bl := writeFile(dir, "bl.yaml", "- id: grep-capped-07\n  reason: runner only\n")
			r := conform("", "check-log", "--baseline", bl, clean)
			Expect(r.code).To(Equal(exitOK), r.stdout)
		})
	})
})

func regexpQuote(s string) string { return regexp.QuoteMeta(s) }

// These specs need the real engine (internal/logcheck.Check) to report
// findings on a broken log.
var _ = Describe("check-log on a broken log", func() {
	var dir, bad string
	var rep clJSONReport
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		bad = writeFile(dir, "bad.jsonl", badLog)
		r := conform("", "check-log", "--format", "json", bad)
		Expect(r.code).To(Equal(exitNonconform), r.stdout+r.stderr)
		rep = decode(r.stdout)
		Expect(rep.Files[0].Findings).NotTo(BeEmpty())
		Expect(rep.Totals.Findings.Violation).To(BeNumerically(">", 0))
	})

	requirements := func() []string {
		seen := map[string]bool{}
		var ids []string
		for _, f := range rep.Files[0].Findings {
			if !seen[f.Requirement] {
				seen[f.Requirement] = true
				ids = append(ids, f.Requirement)
			}
		}
		return ids
	}

	It("lists the findings per file as file:line: level REQ-ID message, and exits 1", func() {
		r := conform("", "check-log", bad)
		Expect(r.code).To(Equal(exitNonconform))
		f := rep.Files[0].Findings[0]
		loc := bad
		if f.Line > 0 {
			loc = bad + ":" + itoa(f.Line)
		}
		Expect(r.stdout).To(ContainSubstring(loc + ": " + string(f.Level) + " " + f.Requirement + " " + f.Message))
		Expect(r.stdout).To(ContainSubstring("result: FAIL"))
		Expect(rep.Totals.Failing).To(Equal(rep.Totals.Findings.Violation))
	})

	It("reads the same log from stdin", func() {
		r := conform(badLog, "check-log", "--format", "json", "-")
		Expect(r.code).To(Equal(exitNonconform))
		got := decode(r.stdout)
		Expect(got.Totals.Findings).To(Equal(rep.Totals.Findings))
		Expect(got.Files[0].Findings[0].File).To(Equal(clStdinName))
	})

	It("writes JUnit failures that parse back with the expected counts", func() {
		r := conform("", "check-log", "--format", "junit", bad)
		Expect(r.code).To(Equal(exitNonconform))
		var ts report.TestSuites
		Expect(xml.Unmarshal([]byte(r.stdout), &ts)).To(Succeed())
		failing := map[string]bool{}
		unprovableOnly := map[string]bool{}
		levelsOf := map[string]map[logcheck.Level]bool{}
		for _, f := range rep.Files[0].Findings {
			if levelsOf[f.Requirement] == nil {
				levelsOf[f.Requirement] = map[logcheck.Level]bool{}
			}
			levelsOf[f.Requirement][f.Level] = true
		}
		for id, ls := range levelsOf {
			if ls[logcheck.Violation] {
				failing[id] = true
			} else if len(ls) == 1 && ls[logcheck.Unprovable] {
				unprovableOnly[id] = true
			}
		}
		Expect(ts.Suites).To(HaveLen(1))
		s := ts.Suites[0]
		Expect(s.Failures).To(Equal(len(failing)))
		Expect(s.Skipped).To(Equal(len(unprovableOnly)))
		Expect(ts.Failures).To(Equal(len(failing)))
		for _, c := range s.Cases {
			if failing[c.Name] {
				Expect(c.Failure).NotTo(BeNil(), c.Name)
				Expect(c.Failure.Text).To(ContainSubstring(c.Name))
			}
		}
	})

	It("fails on warnings only with --fail-on warning", func() {
		// A gap in the seqs is only a warning (LOG-5 contiguity, for
		// hand-trimmed fixtures).
		gap := writeFile(dir, "gap.jsonl", cleanLog+
			`{"type":"turn/start","seq":0,"time":1785591986069,"data":{"turn":1}}`+"\n"+
			`{"type":"turn/start","seq":2,"time":1785591986070,"data":{"turn":2}}`+"\n")
		r := conform("", "check-log", "--format", "json", gap)
		Expect(r.code).To(Equal(exitOK), r.stdout)
		got := decode(r.stdout)
		Expect(got.Totals.Findings).To(Equal(clJSONLevelCounts{Warning: 1}))
		Expect(got.Totals.Failing).To(Equal(0))
		req := got.Files[0].Findings[0].Requirement

		r = conform("", "check-log", "--format", "json", "--fail-on", "warning", gap)
		Expect(r.code).To(Equal(exitNonconform))
		Expect(decode(r.stdout).Totals.Failing).To(Equal(1))

		for failOn, failures := range map[string]int{"violation": 0, "warning": 1} {
			r = conform("", "check-log", "--format", "junit", "--fail-on", failOn, gap)
			ts, err := report.ReadJUnit(strings.NewReader(r.stdout))
			Expect(err).NotTo(HaveOccurred())
			Expect(ts.Failures).To(Equal(failures), failOn)
			for _, c := range ts.Suites[0].Cases {
				if c.Name == req && failures == 0 {
					Expect(c.SystemOut).To(ContainSubstring("warning " + req))
				}
			}
		}
	})

	It("keeps counting after --max-findings and says how many were dropped", func() {
		total := rep.Totals.Findings.Violation + rep.Totals.Findings.Warning + rep.Totals.Findings.Unprovable
		Expect(total).To(BeNumerically(">=", 2), "the broken log should give at least two findings")
		r := conform("", "check-log", "--format", "json", "--max-findings", "1", bad)
		Expect(r.code).To(Equal(exitNonconform))
		got := decode(r.stdout)
		Expect(got.Files[0].Findings).To(HaveLen(1))
		Expect(got.Totals.Listed).To(Equal(1))
		Expect(got.Totals.Dropped).To(Equal(total - 1))
		Expect(got.Totals.Findings).To(Equal(rep.Totals.Findings))
		r = conform("", "check-log", "--max-findings", "1", bad)
		Expect(r.stdout).To(ContainSubstring(itoa(total-1) + " more findings not listed (--max-findings 1)"))
	})

	It("suppresses findings a baseline entry matches, and fails only on the rest", func() {
		ids := requirements()
		var b strings.Builder
		for _, id := range ids {
			b.WriteString("- requirement: " + id + "\n  file: '*.jsonl'\n  reason: known\n  issue: T-1\n")
		}
		bl := writeFile(dir, "bl.yaml", b.String())
		r := conform("", "check-log", "--format", "json", "--baseline", bl, bad)
		Expect(r.code).To(Equal(exitOK), r.stdout+r.stderr)
		got := decode(r.stdout)
		Expect(got.Totals.Failing).To(Equal(0))
		Expect(got.Totals.Baselined).To(Equal(len(rep.Files[0].Findings)))
		for _, f := range got.Files[0].Findings {
			Expect(f.Baseline).NotTo(BeNil())
			Expect(f.Baseline.Reason).To(Equal("known"))
		}
		Expect(got.Baseline.Stale).To(BeEmpty())

		r = conform("", "check-log", "--baseline", bl, bad)
		Expect(r.code).To(Equal(exitOK))
		Expect(r.stdout).To(ContainSubstring("[baselined: known (T-1)]"))

		// A glob that does not match the file baselines nothing: the
		// findings fail the run and the entries are stale.
		other := writeFile(dir, "other.yaml", strings.ReplaceAll(b.String(), "'*.jsonl'", "'elsewhere/*.jsonl'"))
		r = conform("", "check-log", "--format", "json", "--baseline", other, bad)
		Expect(r.code).To(Equal(exitNonconform))
		got = decode(r.stdout)
		Expect(got.Totals.Baselined).To(Equal(0))
		Expect(got.Baseline.Stale).To(HaveLen(len(ids)))
	})

	It("puts the requirement's counts in the markdown table", func() {
		r := conform("", "check-log", "--format", "markdown", bad)
		Expect(r.code).To(Equal(exitNonconform))
		Expect(r.stdout).To(ContainSubstring("FAIL"))
		Expect(r.stdout).To(ContainSubstring("| `" + rep.Files[0].Findings[0].Requirement + "` |"))
		Expect(r.stdout).To(ContainSubstring("❌ fail"))
	})
})

func itoa(n int) string { return strconv.Itoa(n) }
