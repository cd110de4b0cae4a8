package mutation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// A trace splits a test's switches by ginkgo spec: a switch read before the
// first spec (a BeforeSuite, the test's own code) selects the whole test; one
// read in specs selects those specs' locations, by -ginkgo.focus-file.
func TestSelectForSpecs(t *testing.T) {
	var units []unit
	reach := map[int][]int{}
	if err := readTrace(strings.NewReader("3\n> /a/x_test.go:10\n5\n< 1000\n> /a/x_test.go:20\n5\n7\n< 2000\n> /a/y_test.go:4\n< 10\n"), "TestSuite", 5000, &units, reach); err != nil {
		t.Fatal(err)
	}
	if err := readTrace(strings.NewReader("7\n9\n"), "TestPlain", 300, &units, reach); err != nil {
		t.Fatal(err)
	}
	p := &schemPkg{trace: pkgTrace{Units: units, Reach: reach}}
	cfg := JudgeConfig{Timeout: time.Microsecond}
	for _, c := range []struct {
		k     int
		args  []string
		limit time.Duration
	}{
		{3, []string{"-test.run=^(TestSuite)$"}, 4 * 5000},
		{5, []string{"-test.run=^(TestSuite)$", `-ginkgo.focus-file=^/a/x_test\.go$:10,20`}, 4 * (1000 + 2000 + 1990)},
		{7, []string{"-test.run=^(TestPlain|TestSuite)$", `-ginkgo.focus-file=^/a/x_test\.go$:20`}, 4 * (2000 + 1990 + 300)},
		{9, []string{"-test.run=^(TestPlain)$"}, 4 * 300},
	} {
		sel := p.selectFor(cfg, c.k)
		if !reflect.DeepEqual(sel.args, c.args) || sel.limit != c.limit {
			t.Errorf("switch %d: got %q limit %v, want %q limit %v", c.k, sel.args, sel.limit, c.args, c.limit)
		}
	}
}

// An interrupted run reports no verdict for a mutant judged while the
// interrupt came: its tests were cut off, which looks like a kill.
func TestPoolDropsWhatTheInterruptCut(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ms := []Mutant{{File: "a.go", Line: 1}, {File: "a.go", Line: 2}, {File: "a.go", Line: 3}}
	var seen []int
	rs, err := pool(ctx, 1, t.TempDir(), ms, func(_, _ int, r Result) { seen = append(seen, r.Mutant.Line) }, func(_ string, m Mutant) Result {
		if m.Line == 2 {
			cancel() // the interrupt comes while mutant 2 runs
		}
		return Result{Mutant: m, Status: Killed}
	})
	if err == nil {
		t.Fatal("pool: no error after the interrupt")
	}
	if rs[0].Status != Killed || rs[1].Status != "" || rs[2].Status != "" {
		t.Errorf("statuses %q %q %q, want killed and two unjudged", rs[0].Status, rs[1].Status, rs[2].Status)
	}
	if !slices.Equal(seen, []int{1}) {
		t.Errorf("progress reported mutants %v, want [1]", seen)
	}
}

// The trace cache keeps the newest trees' files and nothing else grows it.
func TestPruneCacheKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	for i := range 5 {
		f := filepath.Join(dir, fmt.Sprintf("t%d.json", i))
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, now, now.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	pruneCache(dir, 2)
	left, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if want := []string{filepath.Join(dir, "t3.json"), filepath.Join(dir, "t4.json")}; !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}

// A test binary run on a mutant is told not to write rapid's fail files:
// they would land in the tree's testdata and change its TreeKey, so the
// run's own --resume would refuse its report. An outside RAPID_NOFAILFILE
// does not override it, and the overlay and the rest of the environment
// pass through.
func TestOverlayEnvWritesNoRapidFailFiles(t *testing.T) {
	t.Setenv("RAPID_NOFAILFILE", "false")
	t.Setenv("CONFORM_KEEP_ME", "1")
	for _, overlay := range []string{"", "/tmp/o.json"} {
		env := overlayEnv(overlay)
		var rapid []string
		for _, e := range env {
			if strings.HasPrefix(e, "RAPID_NOFAILFILE=") {
				rapid = append(rapid, e)
			}
		}
		if !slices.Equal(rapid, []string{"RAPID_NOFAILFILE=true"}) {
			t.Errorf("overlay %q: RAPID_NOFAILFILE entries %q, want only =true", overlay, rapid)
		}
		if !slices.Contains(env, "CONFORM_KEEP_ME=1") {
			t.Errorf("overlay %q: the rest of the environment is dropped: %q", overlay, env)
		}
		if overlay != "" && !slices.ContainsFunc(env, func(e string) bool {
			return strings.HasPrefix(e, "GOFLAGS=") && strings.HasSuffix(e, "-overlay="+overlay)
		}) {
			t.Errorf("overlay %q: no GOFLAGS with it: %q", overlay, env)
		}
	}
}
