package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/fuzz"
)

func fzDecode(out string) fuzz.Report {
	var rep fuzz.Report
	ExpectWithOffset(1, json.Unmarshal([]byte(out), &rep)).To(Succeed(), out)
	ExpectWithOffset(1, rep.Format).To(Equal("conform-fuzz"))
	return rep
}

var _ = Describe("conform fuzz", Ordered, func() {
	// wrongAdapter is internal/fuzz's drop-empty-logs adapter: the
	// reference, except that run_code drops empty log entries.
	var wrongAdapter string
	BeforeAll(func() {
		dir, err := os.MkdirTemp("", "conform-fuzz-cmd-")
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.RemoveAll, dir)
		wrongAdapter = filepath.Join(dir, "drop-empty-logs")
		out, err := exec.Command("go", "build", "-o", wrongAdapter, "../../internal/fuzz/testdata/drop-empty-logs").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
	})

	It("fuzzes the embedded reference against itself and exits 0", func() {
		r := conform("", "fuzz", "--seed", "12", "--cases", "700", "--jobs", "2", "--progress-every", "1h")
		Expect(r.code).To(Equal(0), r.stderr)
		Expect(r.stdout).To(HavePrefix("conform fuzz: conform reference"))
		Expect(r.stdout).To(ContainSubstring("seed 12, cases 0..699, 2 jobs"))
		Expect(r.stdout).To(HaveSuffix("OK: no mismatch in 700 cases\n"))
		Expect(r.stderr).To(BeEmpty())
	})

	It("picks and prints a seed when none is given", func() {
		r := conform("", "fuzz", "--cases", "7", "--format", "json", "--progress-every", "1h")
		Expect(r.code).To(Equal(0), r.stderr)
		Expect(r.stderr).To(MatchRegexp(`^conform fuzz: seed \d+\n$`))
		Expect(r.stderr).To(ContainSubstring("seed %d\n", fzDecode(r.stdout).Seed))
	})

	It("finds a wrong adapter's bug, shrinks it through the adapter, saves it, exits 1, and prints a command that reproduces it", func() {
		dir := GinkgoT().TempDir()
		r := conform("", "fuzz", "--adapter", wrongAdapter, "--seed", "3", "--cases", "300", "--jobs", "2",
			"--save-dir", dir, "--shrink-time", "5s", "--format", "json")
		Expect(r.code).To(Equal(1), r.stderr)
		// one bug, one finding (issue 23): empty logs dropped from a
		// rendered result and from a failure's captured output
		Expect(r.stderr).To(ContainSubstring("conform: fuzz: 1 finding in"))
		rep := fzDecode(r.stdout)
		Expect(rep.Findings).To(HaveLen(1))
		f := rep.Findings[0]
		Expect(f.Keys).To(ContainElements("run_code.result content CODE-RENDER-1", "run_code.result content CODE-FAIL-1"))
		Expect(f.Cause).To(Equal(`drops the empty strings of "run"."logs"`))
		// Shrinking ran in the CLI, which never calls flag.Parse.
		Expect(f.Shrink.Shrunk).To(BeTrue(), f.Shrink.Note)
		// the smallest input of the group in bytes (issue 23), never
		// larger than its case (issue 12)
		Expect(f.Size.Bytes).To(BeNumerically("<=", f.OriginalSize.Bytes))
		Expect(f.Size.Bytes).To(BeNumerically("<=", 200))
		Expect(f.Saved).NotTo(BeNil())
		Expect(f.Saved.Fixture).To(BeAnExistingFile())
		Expect(f.Saved.Golden).To(BeAnExistingFile())
		Expect(f.Repro).To(Equal(fmt.Sprintf("conform fuzz --adapter %s --op run_code.result --seed 3 --case %d --cases 1", wrongAdapter, f.First.Case)))

		args := strings.Fields(f.Repro)
		Expect(args[0]).To(Equal("conform"))
		again := conform("", append(args[1:], "--shrink-time", "0", "--format", "json")...)
		Expect(again.code).To(Equal(1), again.stderr)
		one := fzDecode(again.stdout)
		Expect(one.Cases).To(Equal(1))
		Expect(one.Findings).To(HaveLen(1))
		Expect(one.Findings[0].First).To(Equal(f.First))
		Expect(one.Findings[0].Shrink.Note).To(Equal("shrinking disabled"))
	})

	It("takes the adapter after -- and splits the campaign with --shard", func() {
		r := conform("", "fuzz", "--seed", "3", "--cases", "100", "--shard", "1/4", "--shrink-time", "0", "--format", "json", "--", wrongAdapter)
		Expect(r.code).To(Equal(1), r.stderr)
		rep := fzDecode(r.stdout)
		Expect(rep.Adapter).To(Equal([]string{wrongAdapter}))
		Expect(rep.Shard).To(Equal(&fuzz.Shard{Index: 1, Count: 4}))
		Expect(rep.Cases).To(Equal(25))
		Expect(rep.Findings[0].First.Case % 4).To(Equal(1))
		Expect(rep.Findings[0].Repro).To(HaveSuffix(" -- " + wrongAdapter))
	})

	It("writes JUnit and Markdown to --out", func() {
		dir := GinkgoT().TempDir()
		out := filepath.Join(dir, "fuzz.xml")
		r := conform("", "fuzz", "--seed", "3", "--cases", "60", "--shrink-time", "0", "--format", "junit", "--out", out, "--adapter", wrongAdapter)
		Expect(r.code).To(Equal(1), r.stderr)
		Expect(r.stdout).To(BeEmpty())
		data, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		var suites struct {
			Failures int `xml:"failures,attr"`
		}
		Expect(xml.Unmarshal(data, &suites)).To(Succeed())
		Expect(suites.Failures).To(Equal(2), "one per kind of failure: --shrink-time 0 turns the grouping by cause off too")

		r = conform("", "fuzz", "--seed", "3", "--cases", "60", "--format", "markdown")
		Expect(r.code).To(Equal(0), r.stderr)
		Expect(r.stdout).To(HavePrefix("## conform fuzz: ✅ no mismatch\n"))
	})

	It("writes to stdout for --out -, never to a file named -", func() {
		dir := GinkgoT().TempDir()
		cmd := exec.Command(bin, "fuzz", "--seed", "3", "--cases", "60", "--shrink-time", "0", "--adapter", wrongAdapter, "--out", "-")
		cmd.Dir = dir
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		Expect(errors.As(err, &ee)).To(BeTrue(), "%v", err)
		Expect(ee.ExitCode()).To(Equal(1), errb.String())
		Expect(out.String()).To(HavePrefix("conform fuzz: "))
		Expect(errb.String()).NotTo(ContainSubstring("conform: fuzz: 1 finding in"), "a text report on stdout needs no summary on stderr")
		Expect(filepath.Join(dir, "-")).NotTo(BeAnExistingFile())

		cmd = exec.Command(bin, "fuzz", "--seed", "3", "--cases", "7", "--format", "json", "--out", "-")
		cmd.Dir = dir
		data, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(fzDecode(string(data)).Cases).To(Equal(7))
		Expect(filepath.Join(dir, "-")).NotTo(BeAnExistingFile())
	})

	It("exits 2 on usage errors", func() {
		for _, args := range [][]string{
			{"--op", "nope"},
			{"--shard", "4/4"},
			{"--shard", "x"},
			{"--adapter", "a", "--", "b"},
			{"--adapter", "'unterminated"},
			{"--exec"},
			{"--cases", "-1"},
			{"--format", "yaml"},
		} {
			r := conform("", append([]string{"fuzz"}, args...)...)
			Expect(r.code).To(Equal(2), "%v: %s", args, r.stderr)
		}
	})

	It("writes a plain progress line every interval when stderr is not a terminal (issue 23)", func() {
		r := conform("", "fuzz", "--seed", "3", "--cases", "400", "--adapter", wrongAdapter, "--progress-every", "1ms", "--format", "json")
		Expect(r.code).To(Equal(1), r.stderr)
		Expect(r.stderr).To(MatchRegexp(`(?m)^conform fuzz: \d+/400 cases \(\d+%\), [0-9.]+ cases/s, \d+ s; \d+ failing, \d+ kinds? of failure, phase cases$`))
		Expect(r.stderr).To(MatchRegexp(`(?m)^conform fuzz: 400/400 cases \(100%\), [0-9.]+ cases/s, \d+ s; \d+ failing, \d+ findings?, phase shrinking run_code.result `))
		Expect(r.stderr).NotTo(ContainSubstring("\r"), "no bar")
	})

	It("range-checks every number flag at the int64 edges: a usage error or a run, never a panic (issue 23)", func() {
		const maxInt, maxInt1, minInt, over = "9223372036854775807", "9223372036854775806", "-9223372036854775808", "9223372036854775808"
		for _, c := range []struct {
			args []string
			code int
		}{
			{[]string{"--case", maxInt1, "--cases", "2"}, 2}, // panicked in fuzz.CaseOp
			{[]string{"--case", maxInt1, "--cases", "1"}, 0},
			{[]string{"--case", maxInt}, 2}, // with the default 1000 cases
			{[]string{"--case", minInt}, 2},
			{[]string{"--case", over}, 2},
			{[]string{"--cases", maxInt, "--duration", "200ms"}, 0},
			{[]string{"--cases", minInt}, 2},
			{[]string{"--cases", over}, 2},
			{[]string{"--case", maxInt1, "--duration", "200ms"}, 0}, // unbounded: stops at the last int
			{[]string{"--jobs", maxInt}, 2},
			{[]string{"--jobs", minInt}, 2},
			{[]string{"--jobs", "1024", "--cases", "3"}, 0},
			{[]string{"--seed", "18446744073709551615", "--cases", "3"}, 0},
			{[]string{"--seed", "18446744073709551616"}, 2},
			{[]string{"--seed", "-1"}, 2},
			{[]string{"--shard", maxInt1 + "/" + maxInt, "--cases", "3"}, 0},
			{[]string{"--shard", "0/" + maxInt, "--case", maxInt1, "--cases", "1"}, 0},
			{[]string{"--shard", "0/" + over}, 2},
			{[]string{"--shard", minInt + "/4"}, 2},
			{[]string{"--timeout", maxInt + "ns", "--cases", "3"}, 0},
			{[]string{"--timeout", over + "ns"}, 2},
			{[]string{"--timeout", "-1ns"}, 2},
			{[]string{"--duration", maxInt + "ns", "--cases", "3"}, 0},
			{[]string{"--duration", "-" + maxInt + "ns"}, 2},
			{[]string{"--shrink-time", maxInt + "ns", "--cases", "3"}, 0},
			{[]string{"--shrink-time", minInt + "ns"}, 2},
			{[]string{"--progress-every", "-1s"}, 2},
		} {
			args := append([]string{"fuzz", "--seed", "1", "--progress-every", "1h"}, c.args...)
			if c.args[0] == "--seed" || c.args[0] == "--progress-every" {
				args = append([]string{"fuzz", "--progress-every", "1h"}, c.args...)
			}
			r := conform("", args...)
			Expect(r.stderr).NotTo(ContainSubstring("panic"), "%v", c.args)
			Expect(r.stderr).NotTo(ContainSubstring("goroutine"), "%v", c.args)
			Expect(r.code).To(Equal(c.code), "%v: %s", c.args, r.stderr)
			if c.code == 2 {
				Expect(r.stderr).To(HavePrefix("conform: "), "%v: a usage message", c.args)
			}
		}
	})

	It("exits 3 when the adapter cannot be started", func() {
		r := conform("", "fuzz", "--seed", "1", "--cases", "3", "--adapter", "/nonexistent/adapter")
		Expect(r.code).To(Equal(3))
		Expect(r.stderr).To(ContainSubstring("starting the adapter"))
		Expect(r.stdout).To(BeEmpty())
	})
})
