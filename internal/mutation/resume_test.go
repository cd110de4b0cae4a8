package mutation

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

func lines(n int) []Mutant {
	var ms []Mutant
	for i := 1; i <= n; i++ {
		ms = append(ms, Mutant{File: "a.go", Line: i, Col: 1, Old: "<", New: "<="})
	}
	return ms
}

// reportMember reads one top-level member of the report at path.
func reportMember(t *testing.T, path, key string) jsonjs.Value {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonjs.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	x, ok := v.Get(key)
	if !ok {
		t.Fatalf("%s: no %q member", path, key)
	}
	return x
}

// A report written while the run goes is marked incomplete and counts the
// mutants judged so far; only the final write marks it complete.
func TestReportIsPartialUntilTheRunEnds(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	ms := lines(3)
	rec, todo := NewRecorder(p, RunInfo{Kind: "judge", Tree: "k"}, ms, nil)
	if len(todo) != 3 {
		t.Fatalf("todo %d, want 3", len(todo))
	}
	if err := rec.Add(Result{Mutant: ms[1], Status: Killed}); err != nil {
		t.Fatal(err)
	}
	rep, err := ReadReport(p)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Complete || len(rep.Judged) != 1 || rep.Judged[ms[1].ID()].Status != Killed {
		t.Errorf("after one mutant: complete %v, judged %v", rep.Complete, rep.Judged)
	}
	if n, _ := reportMember(t, p, "mutants").Float(); n != 1 {
		t.Errorf("a partial report counts %v mutants, want the 1 judged", n)
	}
	if err := rec.Write(true); err != nil {
		t.Fatal(err)
	}
	if rep, err = ReadReport(p); err != nil || !rep.Complete || rep.Kind != "judge" || rep.Tree != "k" {
		t.Errorf("final report: complete %v kind %q tree %q (%v)", rep.Complete, rep.Kind, rep.Tree, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A run interrupted after two of four mutants is resumed from its report:
// only the other two are judged, and the final report holds all four in
// order, its counts and wall time covering both runs.
func TestResumeJudgesOnlyTheRest(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	ms := lines(4)
	info := RunInfo{Kind: "golden", Tree: "k"}
	rec, todo := NewRecorder(p, info, ms, nil)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := pool(ctx, 1, t.TempDir(), todo, func(_, _ int, r Result) {
		if err := rec.Add(r); err != nil {
			t.Error(err)
		}
	}, func(_ string, m Mutant) Result {
		if m.Line == 3 {
			cancel() // the interrupt comes while mutant 3 is judged
		}
		return Result{Mutant: m, Status: Killed}
	})
	if err == nil {
		t.Fatal("no interrupt")
	}
	from, err := ReadReport(p)
	if err != nil {
		t.Fatal(err)
	}
	if from.Complete || len(from.Judged) != 2 {
		t.Fatalf("interrupted report: complete %v, %d judged, want partial with 2", from.Complete, len(from.Judged))
	}
	if err := from.Resumable(info.Kind, info.Tree); err != nil {
		t.Fatal(err)
	}
	from.Wall = time.Hour // the first run's wall time
	rec, todo = NewRecorder(p, info, ms, &from)
	var judged []int
	if _, err := pool(context.Background(), 1, t.TempDir(), todo, func(_, _ int, r Result) {
		if err := rec.Add(r); err != nil {
			t.Error(err)
		}
	}, func(_ string, m Mutant) Result {
		judged = append(judged, m.Line)
		return Result{Mutant: m, Status: Survived, Detail: "resumed"}
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(judged, []int{3, 4}) {
		t.Errorf("resumed run judged lines %v, want [3 4]", judged)
	}
	var got []string
	for _, r := range rec.Results() {
		got = append(got, string(r.Status)+" "+r.Mutant.ID())
	}
	want := []string{"killed " + ms[0].ID(), "killed " + ms[1].ID(), "survived " + ms[2].ID(), "survived " + ms[3].ID()}
	if !slices.Equal(got, want) {
		t.Errorf("merged results %q, want %q", got, want)
	}
	s := rec.Summary()
	if s.Mutants != 4 || s.Killed != 2 || s.Survived != 2 || s.Wall < time.Hour {
		t.Errorf("summary %+v, want 4 mutants, 2 killed, 2 survived, wall at least the first run's hour", s)
	}
}

// The tree key changes with any file of the tree but the run's own report
// (and its temporary siblings), and a report of another tree or another
// kind of run is refused by name.
func TestResumeRefusesAnotherTreeOrKind(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "a.go")
	report := filepath.Join(root, "r.json")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		k, err := TreeKey(root, report)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	write(src, "package a\n")
	k0 := key()
	write(report, "{}")
	write(filepath.Join(root, ".r.json.tmp-123"), "{")
	if k := key(); k != k0 {
		t.Errorf("the report changed the tree key")
	}
	write(src, "package b\n")
	k1 := key()
	if k1 == k0 {
		t.Fatal("a changed file kept the tree key")
	}
	rep := Report{Path: report, RunInfo: RunInfo{Kind: "golden", Tree: k0}}
	if err := rep.Resumable("golden", k0); err != nil {
		t.Errorf("same tree and kind: %v", err)
	}
	for _, c := range []struct{ kind, tree, says string }{
		{"golden", k1, "another tree"},
		{"judge", k0, `"golden" run, not of this "judge" run`},
		{"fuzz cases=7 seed=1", k0, "not of this"},
	} {
		err := rep.Resumable(c.kind, c.tree)
		if err == nil || !strings.Contains(err.Error(), report) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s on %s: %v, want an error naming %s and saying %q", c.kind, c.tree, err, report, c.says)
		}
	}
	rep.Tree = ""
	if err := rep.Resumable("golden", ""); err == nil {
		t.Error("a report without a tree key was resumed")
	}
}
