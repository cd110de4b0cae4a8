package adapter_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Time in these specs is a watchdog, never a measure: a wait that a bug
// would add is made to last longWait, far beyond watchdog, and a correct run
// ends far within watchdog however loaded the machine is.
const (
	watchdog = 60 * time.Second
	longWait = 10 * time.Minute
)

func TestAdapter(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "internal/adapter")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// testAdapters are the misbehaving adapters under testdata/, built once.
var testAdapters = []string{
	"crash-third", "hang", "garbage", "wrong-id", "wrong-meta",
	"huge-line", "no-ops", "stderr-noise", "start-once",
	"close-stdout", "restart-hang", "orphan", "ignore-bye", "exit-three", "deep",
}

var (
	binDir     string
	buildErr   error // building the test adapters
	conformErr error // building cmd/conform
	build      sync.Once
)

// buildBinaries builds the test adapters and cmd/conform into one temporary
// directory, once per test binary (the suite and the benchmarks share it).
// cmd/conform is built separately: it imports most of the module, and while
// another package is broken only the specs that run `conform adapter` fail.
func buildBinaries() (string, error) {
	build.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "conform-adapter-test-")
		if buildErr != nil {
			return
		}
		args := []string{"build", "-o", binDir + string(filepath.Separator)}
		for _, a := range testAdapters {
			args = append(args, "./testdata/"+a)
		}
		buildErr = goBuild(args...)
		conformErr = goBuild("build", "-o", filepath.Join(binDir, "conform"), "../../cmd/conform")
	})
	return binDir, buildErr
}

func goBuild(args ...string) error {
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("go %v: %v\n%s", args, err, out)
	}
	return nil
}

var _ = BeforeSuite(func() {
	_, err := buildBinaries()
	Expect(err).NotTo(HaveOccurred())
})

// bin is the path of a built test program.
func bin(name string) string {
	if name == "conform" {
		Expect(conformErr).NotTo(HaveOccurred())
	}
	return filepath.Join(binDir, name)
}

// fixtureCase is one case file of fixtures/<op>/.
type fixtureCase struct {
	ID    string          `json:"id"`
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`
}

// loadFixtures reads the case files of every op under ../../fixtures, at
// most perOp of each (0: all), sorted by file name, with the input
// compacted as conform sends it.
func loadFixtures(perOp int) ([]fixtureCase, error) {
	dirs, err := filepath.Glob("../../fixtures/*")
	if err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	var out []fixtureCase
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		if perOp > 0 && len(files) > perOp {
			files = files[:perOp]
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			var c fixtureCase
			if err := json.Unmarshal(data, &c); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			var compact bytes.Buffer // as internal/fixture hands inputs to the runner
			if err := json.Compact(&compact, c.Input); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			c.Input = compact.Bytes()
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fixtures under ../../fixtures")
	}
	return out, nil
}
