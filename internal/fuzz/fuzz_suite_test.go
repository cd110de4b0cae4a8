package fuzz_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/fuzz/testdata/wrong"
)

func TestFuzz(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/fuzz")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var (
	binDir   string
	buildErr error
	build    sync.Once
)

// buildBinaries builds cmd/conform, the wrong adapters under testdata/ and
// two faulty adapters of internal/adapter into one temporary directory, once per test binary (the suite and the
// benchmark share it): one `go build` for all of them.
func buildBinaries() (string, error) {
	build.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "conform-fuzz-test-")
		if buildErr != nil {
			return
		}
		args := []string{"build", "-o", binDir + string(filepath.Separator), "../../cmd/conform"}
		for _, name := range wrong.Names {
			args = append(args, "./testdata/"+name)
		}
		// Faulty adapters of the adapter package's suite, used as they are.
		args = append(args, "../adapter/testdata/crash-third", "../adapter/testdata/hang")
		out, err := exec.Command("go", args...).CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go %v: %v\n%s", args, err, out)
		}
	})
	return binDir, buildErr
}

// bin is the path of a built program.
func bin(name string) string { return filepath.Join(binDir, name) }

var _ = BeforeSuite(func() {
	_, err := buildBinaries()
	Expect(err).NotTo(HaveOccurred())
})
