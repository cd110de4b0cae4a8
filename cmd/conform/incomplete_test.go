package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/runner"
)

// stallAfter is an adapter: the reference (conform adapter) behind a shell
// loop that forwards the handshake and the first n requests, then touches
// marker and stops answering, so that the run can be interrupted midway.
func stallAfter(n int, marker string) string {
	return script(`n=0
while IFS= read -r line; do
  case "$line" in *'"cmd":"run"'*) n=$((n+1));; esac
  if [ "$n" -gt ` + itoa(n) + ` ]; then : > '` + marker + `'; exec sleep 300; fi
  printf '%s\n' "$line"
done | '` + bin + `' adapter
`)
}

// interrupted runs conform with args, sends sig once marker exists, and
// returns its outputs and exit status.
func interrupted(sig syscall.Signal, marker string, args ...string) result {
	GinkgoHelper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	Expect(cmd.Start()).To(Succeed())
	Eventually(func() error { _, err := os.Stat(marker); return err }).WithTimeout(time.Minute).Should(Succeed())
	Expect(cmd.Process.Signal(sig)).To(Succeed())
	err := cmd.Wait()
	Expect(ctx.Err()).NotTo(HaveOccurred(), "conform did not stop after %v", sig)
	var ee *exec.ExitError
	Expect(errors.As(err, &ee)).To(BeTrue(), "an interrupted run exits non-zero: %v", err)
	return result{out.String(), errb.String(), ee.ExitCode()}
}

var _ = Describe("a run that did not finish (issue 21: no false pass)", func() {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		It("says so in its JSON report when stopped by "+sig.String(), func() {
			dir := GinkgoT().TempDir()
			marker, out := filepath.Join(dir, "stalled"), filepath.Join(dir, "r.json")
			r := interrupted(sig, marker, "run", "-j", "1", "--op", "retain.items", "--format", "json", "--out", out, "--", stallAfter(5, marker))
			Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
			rep := rtReadReport(out)
			Expect(rep.Complete).To(BeFalse())
			Expect(rep.Stopped).To(HavePrefix("interrupted: 5 of "))
			Expect(rep.Cases).To(HaveLen(5))
			Expect(rep.Totals["pass"]).To(Equal(5), "the cases that ran pass: only the marker tells")
			kinds := []string{}
			for _, q := range rep.Nonconformant {
				kinds = append(kinds, q.Kind)
			}
			Expect(kinds).To(Equal([]string{runner.ReasonIncomplete}))
			data, err := os.ReadFile(out)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(data)).To(ContainSubstring(`"complete": false`))
		})
	}

	It("says so in the text report, first and last", func() {
		dir := GinkgoT().TempDir()
		marker := filepath.Join(dir, "stalled")
		r := interrupted(syscall.SIGINT, marker, "run", "-j", "1", "--op", "retain.items", "--", stallAfter(3, marker))
		Expect(r.code).To(Equal(exitInfraFailed), r.stderr)
		lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
		Expect(lines[len(lines)-2]).To(Equal("3 passed, 0 failed"))
		Expect(lines[len(lines)-1]).To(HavePrefix("INCOMPLETE RUN: interrupted: 3 of "))
		Expect(r.stdout).To(ContainSubstring("NONCONFORMANT:\n  - the run did not complete"))
	})

	It("is incomplete when the adapter's circuit breaker stops running cases", func() {
		out := filepath.Join(GinkgoT().TempDir(), "r.json")
		r := rtConform("run", "-j", "1", "--op", "retain.items", "--format", "json", "--out", out, "--", rtAdapter("wrong-id"))
		Expect(r.code).To(Equal(exitNonconform), r.stderr)
		rep := rtReadReport(out)
		Expect(rep.Complete).To(BeFalse())
		Expect(rep.Stopped).To(ContainSubstring("circuit breaker"))
		Expect(rep.Nonconformant[0].Kind).To(Equal(runner.ReasonIncomplete))
	})
})

var _ = Describe("report --merge refuses short shards (issue 21)", Ordered, func() {
	var dir string
	file := func(name string) string { return filepath.Join(dir, name) }
	BeforeAll(func() {
		dir = GinkgoT().TempDir()
		for _, k := range []string{"0", "1"} {
			r := conform("", "run", "--op", "retain.items", "--shard", k+"/2", "--format", "json", "--out", file("s"+k+".json"))
			Expect(r.code).To(Equal(exitOK), r.stderr)
		}
		r := conform("", "report", "--merge", file("m.json"), file("s0.json"), file("s1.json"))
		Expect(r.code).To(Equal(exitOK), r.stderr)
	})
	edit := func(name string, change func(*runner.Report)) string {
		rep := rtReadReport(file("s1.json"))
		change(rep)
		rtWriteReport(file(name), rep)
		return file(name)
	}

	It("refuses a shard missing cases of its slice", func() {
		short := edit("short.json", func(r *runner.Report) { r.Cases = r.Cases[:len(r.Cases)-5] })
		r := conform("", "report", "--merge", file("x.json"), file("s0.json"), short)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("shard 1/2 has "))
		Expect(r.stderr).To(ContainSubstring("rerun it before merging"))
		_, err := os.Stat(file("x.json"))
		Expect(os.IsNotExist(err)).To(BeTrue(), "no merged report")
	})

	It("refuses an interrupted shard", func() {
		cut := edit("cut.json", func(r *runner.Report) {
			r.Cases, r.Complete, r.Stopped = r.Cases[:3], false, "interrupted: 3 of 21 selected cases ran"
		})
		r := conform("", "report", "--merge", file("x.json"), file("s0.json"), cut)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("shard 1/2 did not complete (interrupted: 3 of 21"))
	})

	It("refuses a case id outside the case set", func() {
		alien := edit("alien.json", func(r *runner.Report) { r.Cases[0].ID = "retain.items/not-a-case" })
		r := conform("", "report", "--merge", file("x.json"), file("s0.json"), alien)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("case retain.items/not-a-case is not in the case set"))
	})
})

var _ = Describe("a single-op run's artifacts (issue 21)", func() {
	It("its badge counts the requirements it checked, says partial and is not green", func() {
		dir := GinkgoT().TempDir()
		out := filepath.Join(dir, "r.json")
		r := conform("", "run", "--op", "retain.items", "--format", "json", "--out", out)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		r = conform("", "report", "--badge", filepath.Join(dir, "b"), out)
		Expect(r.code).To(Equal(exitOK), r.stderr)
		badges, err := filepath.Glob(filepath.Join(dir, "b", "*.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(badges).To(HaveLen(1))
		data, err := os.ReadFile(badges[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).NotTo(ContainSubstring("165/165"))
		Expect(string(data)).To(MatchRegexp(`"message":"[0-9]+/[0-9]+ checked, partial","color":"yellow"`))
		r = conform("", "run", "--op", "retain.items")
		Expect(r.stdout).To(ContainSubstring("\nPARTIAL: the selection checked "))
	})
})

var _ = Describe("baseline write --from an unfinished run (issue 21)", func() {
	It("is refused: no baseline from a partial run", func() {
		dir := GinkgoT().TempDir()
		in, out := filepath.Join(dir, "r.json"), filepath.Join(dir, "k.yaml")
		r := conform("", "run", "--op", "retain.items", "--format", "json", "--out", in, "--", rtAdapter("wrong-meta"))
		Expect(r.code).To(BeNumerically("<=", exitNonconform), r.stderr)
		rep := rtReadReport(in)
		rep.Cases, rep.Complete, rep.Stopped = rep.Cases[:2], false, "interrupted: 2 of 42 selected cases ran"
		rtWriteReport(in, rep)
		r = conform("", "baseline", "write", "--from", in, "--out", out)
		Expect(r.code).To(Equal(exitUsage), r.stderr)
		Expect(r.stderr).To(ContainSubstring("the report of a run that did not finish (interrupted: 2 of 42"))
		_, err := os.Stat(out)
		Expect(os.IsNotExist(err)).To(BeTrue())
	})
})
