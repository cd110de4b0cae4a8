package regfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing/fstest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/regfile"
)

// watchdog runs f and fails the spec if it has not returned within a
// minute: opening a FIFO must never block, so a hang is the bug.
func watchdog(f func()) {
	done := make(chan struct{})
	go func() { defer GinkgoRecover(); defer close(done); f() }()
	EventuallyWithOffset(1, done, "1m").Should(BeClosed(), "blocked")
}

var _ = Describe("regfile", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	hostile := func() map[string]string {
		fifo := filepath.Join(dir, "fifo.json")
		Expect(syscall.Mkfifo(fifo, 0o644)).To(Succeed())
		zero := filepath.Join(dir, "zero.json")
		Expect(os.Symlink("/dev/zero", zero)).To(Succeed())
		sub := filepath.Join(dir, "dir.json")
		Expect(os.Mkdir(sub, 0o755)).To(Succeed())
		return map[string]string{fifo: "a named pipe", zero: "a character device", sub: "a directory"}
	}

	It("refuses FIFOs, devices and directories without blocking, naming the path", func() {
		for path, kind := range hostile() {
			watchdog(func() {
				_, err := regfile.ReadFile(path, 1<<20, "")
				Expect(err).To(MatchError(path + ": not a regular file (" + kind + ")"))
				var nr *regfile.NotRegularError
				Expect(errors.As(err, &nr)).To(BeTrue())
				f, err := regfile.Open(path)
				Expect(err).To(MatchError(path + ": not a regular file (" + kind + ")"))
				Expect(f).To(BeNil())
			})
		}
	})

	It("refuses them on a file system too (os.DirFS)", func() {
		hostile()
		fsys := os.DirFS(dir)
		for name, kind := range map[string]string{"fifo.json": "a named pipe", "zero.json": "a character device", "dir.json": "a directory"} {
			watchdog(func() {
				_, err := regfile.ReadFS(fsys, name, 1<<20, "")
				Expect(err).To(MatchError(name + ": not a regular file (" + kind + ")"))
			})
		}
	})

	It("reads a regular file up to the limit and refuses one byte more", func() {
		p := filepath.Join(dir, "ok.json")
		Expect(os.WriteFile(p, []byte("0123456789"), 0o644)).To(Succeed())
		data, err := regfile.ReadFile(p, 10, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(Equal("0123456789"))
		_, err = regfile.ReadFile(p, 9, "--max-x")
		Expect(err).To(MatchError(p + ": larger than the limit of 9 bytes (raise it with --max-x)"))
		var tl *regfile.TooLargeError
		Expect(errors.As(err, &tl)).To(BeTrue())

		fsys := fstest.MapFS{"a/b.json": {Data: make([]byte, 2*regfile.MiB)}}
		_, err = regfile.ReadFS(fsys, "a/b.json", regfile.MiB, "")
		Expect(err).To(MatchError("a/b.json: larger than the limit of 1 MiB"))
		data, err = regfile.ReadFS(fsys, "a/b.json", 2*regfile.MiB, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(data).To(HaveLen(2 * regfile.MiB))
	})

	It("names a missing file", func() {
		_, err := regfile.ReadFile(filepath.Join(dir, "gone"), 1, "")
		Expect(err).To(MatchError(ContainSubstring(filepath.Join(dir, "gone"))))
		Expect(errors.Is(err, os.ErrNotExist)).To(BeTrue())
	})
})
