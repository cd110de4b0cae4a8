package mutation

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The kill rule of the judge's run on a module of its own
// (testdata/judgemod): one mutant for each outcome. A mutant its tests
// fail on is killed, one they never reach survives as "not covered", a
// constant the compiler folds is identical, an endless loop is a hang and
// killed, a listed survivor is listed, and a listed mutant that is killed
// is a stale listing. The schemata path (one build, a switch per mutant,
// only the tests that read it) gives each the same status and detail.
func TestJudgeKillRule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary per mutant")
	}
	for _, schemata := range []bool{false, true} {
		t.Run(fmt.Sprintf("schemata=%v", schemata), func(t *testing.T) { testJudgeKillRule(t, schemata) })
	}
}

func testJudgeKillRule(t *testing.T, schemata bool) {
	root, err := filepath.Abs("testdata/judgemod")
	if err != nil {
		t.Fatal(err)
	}
	all, err := Enumerate(root, "p")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		status Status
		detail string
		stale  bool
	}{
		"p/p.go:7:7 > -> <=":    {Killed, "p: exit 1: --- FAIL: TestMax", false},
		"p/p.go:26:11 0 -> 1":   {Survived, "the tests of p pass", false},
		"p/p.go:15:10 / -> *":   {Survived, "not covered", false},
		"p/p.go:15:15 1 -> 0":   {Listed, "only for the test", false},
		"p/p.go:20:9 0 -> 1":    {Identical, "", false},
		"p/p.go:26:22 ++ -> --": {Killed, "p: hang: over", false},
	}
	// Reached only by a binary a test builds and runs (cmd/conform's specs
	// build conform): on a schemata the build holds the switch through
	// GOFLAGS and the trace sees it read; the overlay path's reach is its
	// coverage profile, of the test process alone.
	if schemata {
		want["p/twice.go:7:11 * -> /"] = struct {
			status Status
			detail string
			stale  bool
		}{Killed, "p: exit 1: --- FAIL: TestBuiltTwice", false}
	} else {
		want["p/twice.go:7:11 * -> /"] = struct {
			status Status
			detail string
			stale  bool
		}{Survived, "not covered", false}
	}
	// Listed yet killed: stale.
	const staleID = "p/p.go:7:5 a > b -> !(a > b)"
	want[staleID] = struct {
		status Status
		detail string
		stale  bool
	}{Killed, "p: exit 1", true}
	var ms []Mutant
	for _, m := range all {
		if _, ok := want[m.ID()]; ok {
			ms = append(ms, m)
		}
	}
	if len(ms) != len(want) {
		t.Fatalf("found %d of the %d mutants in %v", len(ms), len(want), all)
	}
	rs, err := RunJudge(context.Background(), JudgeConfig{
		Root: root, Module: "example.com/judgemod", Workers: 2, Timeout: 3 * time.Second, Tests: []string{"p"},
		Listed:   Equivalents{{Mutant: "p/p.go:15:15 1 -> 0", Reason: "only for the test"}, {Mutant: staleID, Reason: "wrongly listed"}},
		Schemata: schemata,
	}, ms)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		w := want[r.Mutant.ID()]
		if r.Status != w.status || !strings.HasPrefix(r.Detail, w.detail) || r.Stale != w.stale {
			t.Errorf("%s: got %s %q stale %v, want %s %q… stale %v", r.Mutant.ID(), r.Status, r.Detail, r.Stale, w.status, w.detail, w.stale)
		}
	}
	s := Summarize(rs, 0)
	killed, survived := 3, 3 // twice.go's mutant survives on the overlay path
	if schemata {
		killed, survived = 4, 2
	}
	if s.Stale != 1 || s.Killed != killed || s.Survived != survived || s.Listed != 1 || s.Equivalent != 1 {
		t.Errorf("summary %+v", s)
	}
}

// Every listed mutant of the judge must still exist among the judge's
// mutants (a target's package and files); the full run names the stale
// ones.
func TestJudgeListedMutantsExist(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	listed, err := LoadEquivalents(filepath.Join(root, JudgeEquivalentsFile))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, tg := range JudgeTargets {
		ms, err := Enumerate(root, tg.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if path.Dir(m.File) == tg.Dir && (len(tg.Files) == 0 || contains(tg.Files, path.Base(m.File))) {
				ids[m.ID()] = true
			}
		}
	}
	for _, e := range listed {
		if !ids[e.Mutant] {
			t.Errorf("%s: listed mutant %q no longer exists: update or remove the entry", JudgeEquivalentsFile, e.Mutant)
		}
	}
}

// A file a JudgeTarget owns is the judge's alone: none of its mutants is in
// the reference's run, and each is in the judge's, linked into the adapter
// or not (the tape's scanner is).
func TestJudgeOwnedFilesLeaveTheReferenceRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the lean adapter for its symbols")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := ReferenceMutants(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ref {
		if judgeOwned(m.File) {
			t.Fatalf("the reference's run keeps %s, of a file the judge owns", m.ID())
		}
	}
	judged, err := JudgeMutants(context.Background(), root, "github.com/dsh-conform/conform")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range judged {
		ids[m.ID()] = true
	}
	owned := 0
	for _, tg := range JudgeTargets {
		ms, err := Enumerate(root, tg.Dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if judgeOwned(m.File) {
				owned++
				if !ids[m.ID()] {
					t.Errorf("%s: of a file the judge owns, yet not among the judge's mutants", m.ID())
				}
			}
		}
	}
	if owned == 0 {
		t.Error("no JudgeTarget owns a file with mutants: the test proves nothing")
	}
	// scanValue is linked into the adapter (Parse's tape): the Unlinked
	// filter alone would drop it.
	scan := false
	for id := range ids {
		scan = scan || strings.HasPrefix(id, "reference/jsonjs/lazyscan.go:")
	}
	if !scan {
		t.Error("no mutant of lazyscan.go is the judge's")
	}
}

// Each test package of the table links the package it judges, or its
// tests could never kill a mutant of it.
func TestJudgeTargetsTestTheirPackage(t *testing.T) {
	if testing.Short() {
		t.Skip("go list per test package")
	}
	deps := map[string]string{}
	for _, tg := range JudgeTargets {
		for _, dir := range tg.Tests {
			if _, ok := deps[dir]; !ok {
				out, err := exec.Command("go", "list", "-test", "-deps", "../../"+dir).Output()
				if err != nil {
					t.Fatalf("go list %s: %v", dir, err)
				}
				deps[dir] = string(out)
			}
			if !strings.Contains(deps[dir], "github.com/dsh-conform/conform/"+tg.Dir+"\n") {
				t.Errorf("%s judges %s but its tests do not link it", dir, tg.Dir)
			}
		}
	}
}

// --own-tests judges each mutant by its own package's tests: the first of
// its target's, which is the mutated package itself.
func TestJudgeOwnTestsIsTheMutatedPackage(t *testing.T) {
	for _, tg := range JudgeTargets {
		m := Mutant{File: path.Join(tg.Dir, "x.go")}
		if len(tg.Files) > 0 {
			m.File = path.Join(tg.Dir, tg.Files[0])
		}
		got := JudgeConfig{OwnTests: true}.testsOf(m)
		if len(got) != 1 || got[0] != tg.Dir {
			t.Errorf("%s: own tests %q, want [%s]", tg.Dir, got, tg.Dir)
		}
		if all := (JudgeConfig{}).testsOf(m); len(all) != len(tg.Tests) {
			t.Errorf("%s: tests %q without --own-tests, want %q", tg.Dir, all, tg.Tests)
		}
	}
}

func TestTestPkgReached(t *testing.T) {
	p := &testPkg{cover: map[string][]Block{"a.go": {
		{StartLine: 3, StartCol: 10, EndLine: 5, EndCol: 2, Count: 1},
		{StartLine: 6, StartCol: 1, EndLine: 8, EndCol: 2, Count: 0},
	}}}
	for _, c := range []struct {
		file      string
		line, col int
		want      bool
	}{
		{"a.go", 4, 1, true},  // in a run block
		{"a.go", 7, 5, false}, // in a block no test ran
		{"a.go", 6, 1, false}, // its first column
		{"a.go", 1, 1, true},  // in no block: coverage cannot tell
		{"b.go", 1, 1, true},  // a file the profile lacks
	} {
		if got := p.reached(c.file, c.line, c.col); got != c.want {
			t.Errorf("%s:%d:%d: got %v, want %v", c.file, c.line, c.col, got, c.want)
		}
	}
}

func TestTestTime(t *testing.T) {
	if got := testTime([]byte("ok  \texample.com/p\t1.5s\tcoverage: 10% of statements\n")); got != 1500*time.Millisecond {
		t.Errorf("got %v", got)
	}
	if got := testTime([]byte("FAIL\n")); got != 0 {
		t.Errorf("got %v", got)
	}
}

// A failing unmutated test package is named by its failing spec, though
// ginkgo colours its output even into a pipe.
func TestFailLineNamesAColouredGinkgoFailure(t *testing.T) {
	out := []byte("\x1b[38;5;9m\x1b[1mSummarizing 1 Failure:\x1b[0m\n  \x1b[38;5;9m[FAIL]\x1b[0m \x1b[0mreports \x1b[38;5;9m\x1b[1m[It] keep their depth\x1b[0m\n--- FAIL: TestConform (5.29s)\nFAIL\n")
	if got, want := failLine(out), "[FAIL] reports [It] keep their depth"; got != want {
		t.Fatalf("failLine = %q, want %q", got, want)
	}
}

// On a seeded sample of the judge's own mutants (the CI sample's: 20, seed
// 22) the schemata path gives each mutant the overlay path's status. Both
// runs take minutes on two cores: set CONFORM_JUDGE_AGREEMENT=1.
func TestJudgeSchemataAgreesOnASample(t *testing.T) {
	if os.Getenv("CONFORM_JUDGE_AGREEMENT") == "" {
		t.Skip("set CONFORM_JUDGE_AGREEMENT=1: two judge runs of 20 mutants")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/dsh-conform/conform"
	ctx := context.Background()
	all, err := JudgeMutants(ctx, root, module)
	if err != nil {
		t.Fatal(err)
	}
	listed, err := LoadEquivalents(filepath.Join(root, JudgeEquivalentsFile))
	if err != nil {
		t.Fatal(err)
	}
	ms := Sample(all, 20, 22)
	var runs [2][]Result
	for i, schemata := range []bool{false, true} {
		if runs[i], err = RunJudge(ctx, JudgeConfig{Root: root, Module: module, Workers: 2, Timeout: 30 * time.Second, Listed: listed, Schemata: schemata}, ms); err != nil {
			t.Fatal(err)
		}
	}
	for i := range ms {
		if o, s := runs[0][i], runs[1][i]; o.Status != s.Status || o.Stale != s.Stale {
			t.Errorf("%s: overlay path %s %q, schemata %s %q", ms[i].ID(), o.Status, o.Detail, s.Status, s.Detail)
		}
	}
}

// A hang is confirmed (confirmHang) only by the unmutated tests passing
// within the limit and the mutant going over it again; each other outcome
// of the two runs leaves the mutant survived, or killed by the second
// run's failure, and the second run is made only after a passing base.
func TestConfirmHangNeedsTwoHangsAroundAPass(t *testing.T) {
	const hang = "hang: over 30s"
	for _, c := range []struct {
		base       Status
		again      Status
		againSays  string
		want       Status
		wantDetail string
		wantAgain  bool
	}{
		{Survived, Killed, hang, Killed, hang, true},
		{Survived, Killed, "exit 1: --- FAIL: TestX", Killed, "exit 1: --- FAIL: TestX", true},
		{Survived, Survived, "", Survived, "undecided: over the limit once (hang: over 30s), then within it", true},
		{Killed, Killed, hang, Survived, "undecided: the unmutated tests too are over the limit now", false},
	} {
		ranAgain := false
		st, detail := confirmHang(hang,
			func() Status { return c.base },
			func() (Status, string) { ranAgain = true; return c.again, c.againSays })
		if st != c.want || detail != c.wantDetail || ranAgain != c.wantAgain {
			t.Errorf("base %v, again %v %q: got %v %q (ran again %v), want %v %q (ran again %v)",
				c.base, c.again, c.againSays, st, detail, ranAgain, c.want, c.wantDetail, c.wantAgain)
		}
	}
}
