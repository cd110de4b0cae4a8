package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	conformroot "github.com/dsh-conform/conform"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// inDir runs the binary in dir.
func inDir(dir string, args ...string) result {
	GinkgoHelper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	return collect(cmd)
}

// collect runs cmd and returns its output and exit status.
func collect(cmd *exec.Cmd) result {
	GinkgoHelper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

var _ = Describe("what a CI user expects of a Go tool (issue 12)", func() {
	It("--version prints conform's version and the case set's hash", func() {
		r := conform("", "--version")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(MatchRegexp(`^conform \S+, case set sha256:[0-9a-f]{16}\n$`))
	})

	It("says the same version in --version and the handshake however Go stamped the binary (issue 23)", func() {
		// Go's default is -buildvcs=auto, which stamps a binary built in a
		// git checkout with its commit; neither text may depend on that.
		if _, err := exec.LookPath("git"); err != nil {
			Skip("git is not installed: -buildvcs=true cannot be tried")
		}
		if err := exec.Command("git", "rev-parse", "--git-dir").Run(); err != nil {
			Skip("not a git checkout: -buildvcs=true cannot be tried")
		}
		dir := GinkgoT().TempDir()
		says := func(mode string) (version, hello string) {
			out := filepath.Join(dir, "conform-"+mode)
			b, err := exec.Command("go", "build", "-buildvcs="+mode, "-o", out, ".").CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "go build -buildvcs=%s: %s", mode, b)
			v := runBinary(1, out, "", "--version")
			h := runBinary(1, out, `{"cmd":"hello","protocol":1}`+"\n", "adapter")
			Expect(v.code).To(Equal(exitOK), v.stderr)
			Expect(h.code).To(Equal(exitOK), h.stderr)
			return v.stdout, h.stdout
		}
		v1, h1 := says("true")
		v0, h0 := says("false")
		Expect(v1).To(Equal(v0))
		Expect(h1).To(Equal(h0))
		Expect(v1).To(HavePrefix("conform " + conformroot.Version + ", case set sha256:"))
		Expect(h1).To(ContainSubstring(`"version":"` + conformroot.Version + `"`))
	})

	It("a usage error prints the error and a one-line hint, not the help", func() {
		r := conform("", "run", "--timeout", "-1s")
		Expect(r.code).To(Equal(exitUsage))
		Expect(r.stderr).To(ContainSubstring("-1s: a negative value is not allowed here"))
		Expect(r.stderr).NotTo(ContainSubstring("short flag"))
		Expect(strings.Count(r.stderr, "\n")).To(Equal(2))
		Expect(r.stderr).To(ContainSubstring("(conform run --help shows the flags)"))
	})

	It("requirements: unknown area or ID exits 2; IDs print statement, level, source and coverage", func() {
		Expect(conform("", "requirements", "--area", "nope").code).To(Equal(exitUsage))
		Expect(conform("", "requirements", "NOPE-1").code).To(Equal(exitUsage))
		r := conform("", "requirements", "SEARCH-CAP-1")
		Expect(r.code).To(Equal(exitOK), r.stderr)
		Expect(r.stdout).To(HavePrefix("SEARCH-CAP-1  MUST  search: algorithm\n  Given the projected meta"))
		Expect(r.stdout).To(ContainSubstring("  source: packages/fs/tool-fs-search/src/presentation.ts"))
		Expect(r.stdout).To(MatchRegexp(`covered by \d+ cases: `))
		r = conform("", "requirements", "LOG-1")
		Expect(r.stdout).To(ContainSubstring("checked by conform check-log: "))
	})

	It("coverage outside a checkout says what it needs and exits 2; generate refuses to write there", func() {
		dir := GinkgoT().TempDir()
		r := inDir(dir, "coverage")
		Expect(r.code).To(Equal(exitUsage), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring("is not a conform checkout"))
		r = inDir(dir, "generate")
		Expect(r.code).To(Equal(exitUsage), r.stdout+r.stderr)
		Expect(r.stderr).To(ContainSubstring("generate writes fixtures/ and golden/ only into a conform checkout"))
		Expect(dir + "/fixtures").NotTo(BeAnExistingFile())
	})

	It("checks --out and --save-dir before any case runs (issue 11)", func() {
		r := conform("", "run", "--out", "/dev/full")
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(r.stderr).To(ContainSubstring("--out /dev/full: no space left on device (checked before any case runs)"))
		Expect(r.stdout).To(BeEmpty(), "no case ran")

		file := filepath.Join(GinkgoT().TempDir(), "f")
		Expect(os.WriteFile(file, nil, 0o644)).To(Succeed())
		r = conform("", "fuzz", "--cases", "5", "--save-dir", filepath.Join(file, "sub"))
		Expect(r.code).To(Equal(exitInfraFailed))
		Expect(r.stderr).To(ContainSubstring("(checked before any case runs)"))
		Expect(r.stdout).To(BeEmpty(), "no campaign ran")
	})
})
