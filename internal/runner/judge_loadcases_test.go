package runner_test

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dsh-conform/conform/internal/runner"
)

// failingFS is a MapFS whose one file fails to open with an error that
// does not name it (a network or FUSE file system may answer so).
type failingFS struct {
	fstest.MapFS
	bad string
}

func (f failingFS) Open(name string) (fs.File, error) {
	if name == f.bad {
		return nil, errors.New("input/output error")
	}
	return f.MapFS.Open(name)
}

// LoadCases' errors name the offending file (its doc comment), once: a
// golden file whose read error names it already is not named again, and
// one whose error does not name it is named by LoadCases (cases.go 48-53).
func TestJudgeLoadCasesNamesTheGoldenFileOnce(t *testing.T) {
	const fixture, golden = "fixtures/grep.result/gen-001.json", "golden/grep.result/gen-001.json"
	data, err := os.ReadFile(root + "/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	for name, fsys := range map[string]fs.FS{
		"a golden file that is missing (its error names it)": fstest.MapFS{fixture: {Data: data}},
		"a golden file that is no object (its error names it)": fstest.MapFS{fixture: {Data: data},
			golden: {Data: []byte(`[]`)}},
		"a golden file whose read fails without naming it": failingFS{fstest.MapFS{fixture: {Data: data},
			golden: {Data: []byte(`{}`)}}, golden},
	} {
		_, err := runner.LoadCases(fsys)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if n := strings.Count(err.Error(), golden); n != 1 {
			t.Errorf("%s: the error names %s %d times, want once: %v", name, golden, n, err)
		}
		if !strings.HasPrefix(err.Error(), "case grep.result/gen-001: ") {
			t.Errorf("%s: the error does not start with the case: %v", name, err)
		}
	}
}
