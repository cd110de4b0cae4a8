package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Hostile inputs to check-log (issue 11). Every run goes through
// runBinary, whose one-minute watchdog fails the spec on a hang.
var _ = Describe("check-log on hostile files", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("skips a FIFO named *.jsonl with a finding naming it, checks the rest, exits 3", func() {
		clean := writeFile(dir, "logs/a.jsonl", cleanLog)
		fifo := filepath.Join(dir, "logs", "b.jsonl")
		Expect(syscall.Mkfifo(fifo, 0o644)).To(Succeed())
		r := conform("", "check-log", filepath.Join(dir, "logs"))
		Expect(r.code).To(Equal(exitInfraFailed), r.stdout+r.stderr)
		Expect(r.stdout).To(ContainSubstring(fifo + ": error: skipped: not a regular file (a named pipe)"))
		Expect(r.stdout).To(ContainSubstring("checked 2 files"))
		Expect(r.stdout).To(ContainSubstring("result: ERROR (1 log could not be read)"))
		rep := decode(conform("", "check-log", "--format", "json", filepath.Join(dir, "logs")).stdout)
		Expect(rep.Files).To(HaveLen(2))
		Expect(rep.Files[0].File).To(Equal(clean))
		Expect(rep.Files[0].Error).To(BeEmpty())
		Expect(rep.Files[0].Stats.Lines).To(Equal(1), "the readable log is still checked")
		Expect(rep.Files[1].Error).To(Equal("skipped: not a regular file (a named pipe)"))
	})

	It("prints at most 20 problems on stderr, then a count", func() {
		writeFile(dir, "logs/a.jsonl", cleanLog)
		for i := range 30 {
			Expect(syscall.Mkfifo(filepath.Join(dir, "logs", "f"+itoa(100+i)+".jsonl"), 0o644)).To(Succeed())
		}
		r := conform("", "check-log", "--format", "json", filepath.Join(dir, "logs"))
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(decode(r.stdout).Totals.Errors).To(Equal(30), "the report lists them all")
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		Expect(lines).To(HaveLen(21))
		Expect(lines[0]).To(Equal("conform: check-log: " + filepath.Join(dir, "logs", "f100.jsonl") + ": skipped: not a regular file (a named pipe)"))
		Expect(lines[20]).To(Equal("conform: check-log: … and 10 more problems (the report lists them)"))
	})

	It("refuses a FIFO given as the path, without blocking", func() {
		fifo := filepath.Join(dir, "x.jsonl")
		Expect(syscall.Mkfifo(fifo, 0o644)).To(Succeed())
		r := conform("", "check-log", fifo)
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(r.stdout).To(ContainSubstring(fifo + ": error: skipped: not a regular file (a named pipe)"))
	})

	It("reports an unreadable subdirectory and file, checks the rest, exits 3", func() {
		// Run as nobody when the specs run as root, who reads everything.
		Expect(os.Chmod(dir, 0o755)).To(Succeed())
		clean := writeFile(dir, "logs/a.jsonl", cleanLog)
		hidden := filepath.Join(dir, "logs", "sub")
		writeFile(dir, "logs/sub/c.jsonl", cleanLog)
		locked := writeFile(dir, "logs/z.jsonl", cleanLog)
		Expect(os.Chmod(hidden, 0)).To(Succeed())
		Expect(os.Chmod(locked, 0)).To(Succeed())
		DeferCleanup(os.Chmod, hidden, os.FileMode(0o755))
		r := runUnprivileged(dir, "check-log", "--format", "json", filepath.Join(dir, "logs"))
		Expect(r.code).To(Equal(exitInfraFailed), r.stdout+r.stderr)
		rep := decode(r.stdout)
		Expect(rep.Files).To(HaveLen(3))
		Expect(rep.Files[0].File).To(Equal(clean))
		Expect(rep.Files[0].Stats.Lines).To(Equal(1))
		Expect(rep.Files[1].File).To(Equal(hidden))
		Expect(rep.Files[1].Error).To(Equal("cannot be read: permission denied"))
		Expect(rep.Files[2].File).To(Equal(locked))
		Expect(rep.Files[2].Error).To(Equal("permission denied"))
		Expect(rep.Totals.Result).To(Equal("error"))
		Expect(r.stderr).To(ContainSubstring(hidden + ": cannot be read: permission denied"))

		r = runUnprivileged(dir, "check-log", "--format", "json", hidden, clean)
		Expect(r.code).To(Equal(exitInfraFailed), "an unreadable directory argument is a log not read, not a usage error: "+r.stderr)
		rep = decode(r.stdout)
		Expect(rep.Files).To(HaveLen(2))
		Expect(rep.Files[0].Error).To(Equal("cannot be read: permission denied"))
		Expect(rep.Files[1].Stats.Lines).To(Equal(1))
	})

	It("names gzip input in one LOG-1 finding, not one per line", func() {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		_, err := io.WriteString(zw, strings.Repeat(badLog, 50))
		Expect(err).NotTo(HaveOccurred())
		Expect(zw.Close()).To(Succeed())
		p := writeFile(dir, "log.jsonl.gz", gz.String())
		r := conform("", "check-log", "--format", "json", p)
		Expect(r.code).To(Equal(exitNonconform))
		rep := decode(r.stdout)
		Expect(rep.Files[0].Findings).To(HaveLen(1))
		f := rep.Files[0].Findings[0]
		Expect(f.Requirement).To(Equal("LOG-1"))
		Expect(f.Line).To(Equal(0))
		Expect(f.Message).To(HavePrefix("gzip-compressed data, not JSONL text: decompress it first (gzip -dc FILE | conform check-log -)"))
		r = conform(gz.String(), "check-log", "-")
		Expect(r.stdout).To(ContainSubstring(clStdinName + ": violation LOG-1 gzip-compressed data"))
	})

	DescribeTable("names other compressed formats by their magic",
		func(magic []byte, name string) {
			p := writeFile(dir, "x.jsonl", string(magic)+strings.Repeat("\x01junk\n", 10))
			r := conform("", "check-log", p)
			Expect(r.code).To(Equal(exitNonconform))
			Expect(r.stdout).To(ContainSubstring(p + ": violation LOG-1 " + name + "-compressed data"))
			Expect(strings.Count(r.stdout, " LOG-1 ")).To(Equal(1))
		},
		Entry("zstd", []byte{0x28, 0xb5, 0x2f, 0xfd}, "zstd"),
		Entry("bzip2", []byte("BZh9"), "bzip2"),
		Entry("xz", []byte{0xfd, '7', 'z', 'X', 'Z', 0}, "xz"),
	)

	It("names a binary file in one finding (a NUL byte, or mostly invalid UTF-8)", func() {
		bin, err := os.ReadFile("/usr/bin/true")
		if err != nil {
			bin = append([]byte("\x7fELF\x02\x01\x01\x00"), bytes.Repeat([]byte{0xff, 0x00, 0x12}, 4000)...)
		}
		p := writeFile(dir, "true.jsonl", string(bin))
		r := conform("", "check-log", p)
		Expect(r.code).To(Equal(exitNonconform))
		Expect(r.stdout).To(MatchRegexp(`(?m)^` + p + `: violation LOG-1 binary data, not JSONL text \(a NUL byte at offset \d+\)`))
		Expect(r.stdout).To(ContainSubstring("findings: 1 violation, 0 warnings"))

		p = writeFile(dir, "latin1.jsonl", strings.Repeat("\xe9\xe8\xff\xfe{}\n", 2000))
		r = conform("", "check-log", p)
		Expect(r.stdout).To(MatchRegexp(p + `: violation LOG-1 binary data, not JSONL text \(\d+ of the first 8192 bytes are not UTF-8\)`))
		Expect(r.stdout).To(ContainSubstring("findings: 1 violation, 0 warnings"))
	})

	It("lists 1,000 findings by default, counts them all, and says how many were cut", func() {
		p := writeFile(dir, "flood.jsonl", cleanLog+strings.Repeat("{}\n", 3000))
		r := conform("", "check-log", "--format", "json", p)
		Expect(r.code).To(Equal(exitNonconform))
		rep := decode(r.stdout)
		Expect(rep.MaxFindings).To(Equal(1000))
		Expect(rep.Totals.Listed).To(Equal(1000))
		total := rep.Totals.Findings.Violation + rep.Totals.Findings.Warning + rep.Totals.Findings.Unprovable
		Expect(total).To(BeNumerically(">=", 3000))
		Expect(rep.Totals.Dropped).To(Equal(total - 1000))
		r = conform("", "check-log", p)
		Expect(strings.Count(r.stdout, p+":")).To(Equal(1001), "1000 findings and the not-listed line")
		Expect(r.stdout).To(ContainSubstring(itoa(total-1000) + " not listed (--max-findings 1000)"))
	})

	It("fails at once on an --out it cannot create, before reading any log", func() {
		p := writeFile(dir, "a.jsonl", cleanLog)
		r := conform("", "check-log", "--out", filepath.Join(dir, "no", "such", "dir", "r.txt"), p)
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(r.stderr).To(ContainSubstring("--out " + filepath.Join(dir, "no", "such", "dir", "r.txt") + ": no such file or directory"))
	})

	DescribeTable("writes a partial report that says so on SIGINT and SIGTERM, with exit 128+signal",
		func(sig syscall.Signal, format string, partial string) {
			out := filepath.Join(dir, "report")
			cmd := exec.Command(bin, "check-log", "--format", format, "--out", out, "-")
			stdin, err := cmd.StdinPipe()
			Expect(err).NotTo(HaveOccurred())
			var errb bytes.Buffer
			cmd.Stderr = &errb
			Expect(cmd.Start()).To(Succeed())
			// Once 256 KiB went into the pipe (its buffer holds 64 KiB),
			// check-log is reading: the signal lands mid-log.
			_, err = io.WriteString(stdin, cleanLog+strings.Repeat("{}\n", 256<<10/3))
			Expect(err).NotTo(HaveOccurred())
			Expect(cmd.Process.Signal(sig)).To(Succeed())
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var werr error
			Eventually(done, time.Minute).Should(Receive(&werr), "check-log did not exit on %v", sig)
			stdin.Close()
			var ee *exec.ExitError
			Expect(errors.As(werr, &ee)).To(BeTrue(), "%v", werr)
			Expect(ee.ExitCode()).To(Equal(128 + int(sig)))
			Expect(errb.String()).To(ContainSubstring("conform: check-log: interrupted (" + sig.String() + "): the report is partial"))
			data, err := os.ReadFile(out)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(data)).To(ContainSubstring(partial))
			if format == "json" {
				rep := decode(string(data))
				Expect(rep.Totals.Result).To(Equal("interrupted"))
				Expect(rep.Files[0].Partial).To(BeTrue())
				Expect(rep.Files[0].Stats.Lines).To(BeNumerically(">", 0))
			}
		},
		Entry("SIGINT, text", syscall.SIGINT, "text", "result: INTERRUPTED (partial report: stopped by a signal after 0 of 1 logs; nothing after that was checked)"),
		Entry("SIGTERM, json", syscall.SIGTERM, "json", `"result": "interrupted"`),
		Entry("SIGINT, junit", syscall.SIGINT, "junit", `type="interrupted"`),
		Entry("SIGTERM, markdown", syscall.SIGTERM, "markdown", "INTERRUPTED** (partial report)"),
	)

	It("ends a run blocked on a silent stdin on SIGINT", func() {
		if _, err := os.Stat("/proc/self/task"); err != nil {
			Skip("needs Linux /proc to see that conform waits in read")
		}
		r, w, err := os.Pipe()
		Expect(err).NotTo(HaveOccurred())
		defer w.Close()
		cmd := exec.Command(bin, "check-log", "-")
		cmd.Stdin = r
		var out bytes.Buffer
		cmd.Stdout = &out
		Expect(cmd.Start()).To(Succeed())
		r.Close()
		// Nothing is written: once a thread of conform waits in a pipe
		// read, its handler is installed (it is before any log is read).
		Eventually(func() bool { return inPipeRead(cmd.Process.Pid) }, time.Minute, 10*time.Millisecond).Should(BeTrue())
		Expect(cmd.Process.Signal(syscall.SIGINT)).To(Succeed())
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var werr error
		Eventually(done, time.Minute).Should(Receive(&werr), "check-log stayed blocked on stdin after SIGINT")
		var ee *exec.ExitError
		Expect(errors.As(werr, &ee)).To(BeTrue())
		Expect(ee.ExitCode()).To(Equal(130))
		Expect(out.String()).To(ContainSubstring("result: INTERRUPTED"))
	})
})

// inPipeRead reports whether a thread of process pid sleeps in a pipe
// read (Linux: /proc/PID/task/*/wchan is pipe_read, anon_pipe_read, …).
func inPipeRead(pid int) bool {
	tasks, _ := filepath.Glob(filepath.Join("/proc", itoa(pid), "task", "*", "wchan"))
	for _, t := range tasks {
		if b, err := os.ReadFile(t); err == nil && strings.Contains(string(b), "pipe") {
			return true
		}
	}
	return false
}

// runUnprivileged runs conform as nobody when the specs run as root (so
// that permissions bite), copying the binary where nobody may run it.
func runUnprivileged(dir string, args ...string) result {
	if os.Geteuid() != 0 {
		return runBinary(1, bin, "", args...)
	}
	copyBin := filepath.Join(dir, "conform")
	data, err := os.ReadFile(bin)
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(copyBin, data, 0o755)).To(Succeed())
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil && st.Mode().Perm()&0o005 != 0o005 && strings.HasPrefix(d, os.TempDir()) {
			Expect(os.Chmod(d, st.Mode().Perm()|0o005)).To(Succeed())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, copyBin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	r := collect(cmd)
	Expect(ctx.Err()).NotTo(HaveOccurred(), "check-log did not finish")
	return r
}
