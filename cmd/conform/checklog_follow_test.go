package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// check-log --follow (issue 23): findings on stdout as their lines are
// appended, the report once the session is over or a signal ends it. The
// specs wait on conform's output; SpecTimeout is the watchdog.
var _ = Describe("check-log --follow", func() {
	const (
		turnStart = `{"type":"turn/start","seq":0,"time":1785591986069,"data":{"turn":1}}` + "\n"
		badSeq    = `{"type":"step/start","seq":5,"time":1785591986070,"data":{"turn":1,"step":1}}` + "\n"
		turnEnd   = `{"type":"turn/end","seq":6,"time":1785591986071,"data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n"
	)
	var (
		path  string
		w     *os.File
		lines chan string
		cmd   *exec.Cmd
	)
	start := func(args ...string) {
		dir := GinkgoT().TempDir()
		path = writeFile(dir, "live.jsonl", cleanLog)
		var err error
		w, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(w.Close)
		cmd = exec.Command(bin, append(append([]string{"check-log", "--follow"}, args...), path)...)
		out, err := cmd.StdoutPipe()
		Expect(err).NotTo(HaveOccurred())
		cmd.Stderr = GinkgoWriter
		Expect(cmd.Start()).To(Succeed())
		lines = make(chan string, 100)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
	}
	appendText := func(s string) {
		_, err := w.WriteString(s)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
	}
	exit := func() int {
		var ee *exec.ExitError
		if err := cmd.Wait(); errors.As(err, &ee) {
			return ee.ExitCode()
		} else {
			Expect(err).NotTo(HaveOccurred())
		}
		return 0
	}
	rest := func() []string {
		var out []string
		for l := range lines {
			out = append(out, l)
		}
		return out
	}

	It("prints each finding as its line is appended, and the report once the session is over", func(ctx SpecContext) {
		start("--follow-idle", "0")
		appendText(turnStart + badSeq)
		var l string
		Eventually(lines).WithContext(ctx).Should(Receive(&l))
		Expect(l).To(Equal(path + ":3: warning LOG-5 seq 5: seq jumps from 0 to 5 (4 missing; trimmed fixture?)"))
		appendText(turnEnd)
		report := rest()
		Expect(report).To(ContainElement(fmt.Sprintf("checked 1 file: 4 lines, 3 events, %d bytes", len(cleanLog+turnStart+badSeq+turnEnd))))
		Expect(report).To(ContainElement("result: PASS (no finding at or above violation)"))
		Expect(exit()).To(Equal(exitOK))
	}, SpecTimeout(time.Minute))

	It("writes the report, partial, on SIGTERM, leaving an incomplete last line unjudged", func(ctx SpecContext) {
		start("--format", "text")
		// One write: once line 3's finding is out, the part after it was
		// read too.
		appendText(turnStart + badSeq + `{"type":"turn/end",`)
		var l string
		Eventually(lines).WithContext(ctx).Should(Receive(&l))
		Expect(l).To(HavePrefix(path + ":3: warning LOG-5"))
		Expect(cmd.Process.Signal(syscall.SIGTERM)).To(Succeed())
		report := rest()
		Expect(report).To(ContainElement(path + ": note: stopped with its last line incomplete: 19 bytes without an LF yet, not checked"))
		Expect(report).To(ContainElement(ContainSubstring("result: INTERRUPTED")))
		Expect(exit()).To(Equal(128 + int(syscall.SIGTERM)))
	}, SpecTimeout(time.Minute))

	It("refuses stdin and directories", func() {
		r := conform("", "check-log", "--follow", "-")
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("--follow reads files, not stdin (-)"))
		dir := GinkgoT().TempDir()
		r = conform("", "check-log", "--follow", dir)
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("--follow reads files, not directories: " + filepath.Clean(dir)))
	})
})
