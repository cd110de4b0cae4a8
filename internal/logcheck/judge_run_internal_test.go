package logcheck

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/baseline"
)

// Tests for survivors of the judge's run in run.go (issue 22,
// docs/mutation.md "The judge"): what a streaming run (RunOptions.Done)
// keeps and sums, a requirement's first finding, the listed count, and
// the paths a run walks.

// runJudgeWrite writes text to dir/name and returns its path.
func runJudgeWrite(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runJudgeSum is a plain model of Summary.Totals: the sum of the per-log
// results Done saw.
type runJudgeSum struct {
	files     int
	st        Stats
	counts    map[Level]int
	baselined int
}

func (m *runJudgeSum) add(f *FileResult) {
	if m.counts == nil {
		m.counts, m.st.UnknownTypes, m.st.ResultsChecked = map[Level]int{}, map[string]int{}, map[string]int{}
	}
	m.files++
	m.st.Lines += f.Stats.Lines
	m.st.Events += f.Stats.Events
	m.st.MalformedLines += f.Stats.MalformedLines
	m.st.Bytes += f.Stats.Bytes
	for k, v := range f.Stats.UnknownTypes {
		m.st.UnknownTypes[k] += v
	}
	for k, v := range f.Stats.ResultsChecked {
		m.st.ResultsChecked[k] += v
	}
	for k, v := range f.Counts {
		m.counts[k] += v
	}
	m.baselined += f.Baseline
}

func runJudgeMapsEqual[K comparable](a, b map[K]int) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

// A streaming run keeps in Files only the logs the end of a report names
// (an error, a note, an interruption) and counts the others; its totals
// are still the sum over every log, FileCount counts every log, a log's
// Shown is how many of its findings were listed, a requirement's First is
// its first finding not baselined, and a log that could not be read makes
// the result an error. Kills run.go:135:49, 135:56, 135:69, 135:85 (both),
// 135:87, 182:13, 183:14, 184:22, 185:13, 187:24, 190:26, 195:14, 217:24,
// 217:26 (<=), 217:28, 217:46, 225:57, 245:10, 269:49, 374:7, and
// run_input.go:82:5, 82:15, 82:22 (a log read to its end is not Partial).
func TestJudgeRunStreamingKeepsAndSums(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// a: clean. b: a dangling symlink named *.jsonl (cannot be opened).
	// c: grows once opened (a note), valid-base's events without its
	// header (LOG-2, baselined), a line not JSON and an unknown type: a
	// kept log adds to the totals as a log counted away does. d: findings, two of LOG-1
	// (two lines not JSON), an unknown type, results checked. e: no
	// header, baselined (LOG-2).
	runJudgeWrite(t, dir, "a.jsonl", string(base))
	if err := os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "b.jsonl")); err != nil {
		t.Fatal(err)
	}
	_, events, _ := strings.Cut(string(base), "\n")
	c := runJudgeWrite(t, dir, "c.jsonl", events+"not json\n"+
		`{"type":"x/custom","seq":16,"time":1785591990014,"data":{},"ignorable":true}`+"\n")
	runJudgeWrite(t, dir, "d.jsonl", string(base)+"not json\n"+
		`{"type":"x/custom","seq":16,"time":1785591990014,"data":{},"ignorable":true}`+"\n"+
		"not json either\n")
	runJudgeWrite(t, dir, "e.jsonl", `{"type":"turn/start","seq":0,"time":1785591990000,"data":{"turn":1}}`+"\n")
	bl, err := baseline.Parse("bl.yaml", []byte("- requirement: LOG-2\n  reason: known\n"))
	if err != nil {
		t.Fatal(err)
	}
	afterOpen = func(p string) {
		if p == c {
			f, err := os.OpenFile(c, os.O_APPEND|os.O_WRONLY, 0)
			if err == nil {
				f.WriteString(`{"type":"turn/start","seq":16,"time":1785591990014,"data":{"turn":2}}` + "\n")
				f.Close()
			}
		}
	}
	defer func() { afterOpen = nil }()

	var model runJudgeSum
	done := map[string]*FileResult{}
	listed := map[string]int{}
	var lines1 []int // d's LOG-1 lines
	var first1 *RunFinding
	s, err := Run(context.Background(), []string{dir}, RunOptions{
		Options:  Defaults(),
		Baseline: bl,
		Listed: func(f *RunFinding) {
			listed[filepath.Base(f.File)]++
			if f.Requirement == "LOG-1" && first1 == nil {
				first1 = f
			}
			if f.Requirement == "LOG-1" && filepath.Base(f.File) == "d.jsonl" {
				lines1 = append(lines1, f.Line)
			}
		},
		Done: func(f *FileResult) {
			model.add(f)
			done[filepath.Base(f.Name)] = f
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, f := range s.Files {
		kept = append(kept, filepath.Base(f.Name))
	}
	if !slices.Equal(kept, []string{"b.jsonl", "c.jsonl"}) {
		t.Errorf("kept %v, want the unreadable b and the grown c only", kept)
	}
	for _, name := range []string{"a.jsonl", "d.jsonl", "e.jsonl"} {
		if f := done[name]; f == nil || f.Partial || f.Err != nil || len(f.Notes) > 0 {
			t.Errorf("%s, read to its end: %+v", name, f)
		}
	}
	if s.FileCount() != 5 || model.files != 5 {
		t.Errorf("FileCount %d (Done saw %d), want 5", s.FileCount(), model.files)
	}
	if s.Result() != ResultError || s.Errors() != 1 {
		t.Errorf("result %s with %d errors, want error with 1 (b cannot be read)", s.Result(), s.Errors())
	}
	st, counts, baselined := s.Totals()
	if cf := done["c.jsonl"]; cf == nil || cf.Stats.MalformedLines == 0 || cf.Stats.UnknownTypes["x/custom"] == 0 || len(cf.Stats.ResultsChecked) == 0 || cf.Baseline == 0 {
		t.Fatalf("c does not exercise the totals of a kept log: %+v", cf)
	}
	if model.st.UnknownTypes["x/custom"] == 0 || len(model.st.ResultsChecked) == 0 || model.baselined == 0 || model.st.MalformedLines == 0 {
		t.Fatalf("the logs do not exercise every total: %+v, baselined %d", model.st, model.baselined)
	}
	if st.Lines != model.st.Lines || st.Events != model.st.Events || st.MalformedLines != model.st.MalformedLines || st.Bytes != model.st.Bytes ||
		!runJudgeMapsEqual(st.UnknownTypes, model.st.UnknownTypes) || !runJudgeMapsEqual(st.ResultsChecked, model.st.ResultsChecked) ||
		!runJudgeMapsEqual(counts, model.counts) || baselined != model.baselined {
		t.Errorf("Totals %+v %v %d, want the sum %+v %v %d", st, counts, baselined, model.st, model.counts, model.baselined)
	}
	for name, f := range done {
		if f.Shown != listed[name] || f.Dropped != 0 {
			t.Errorf("%s: Shown %d Dropped %d, but %d findings were listed", name, f.Shown, f.Dropped, listed[name])
		}
	}
	// Three LOG-1 findings (c's, then d's two), none baselined: First is
	// the first listed.
	if len(lines1) != 2 || lines1[0] >= lines1[1] || first1 == nil || filepath.Base(first1.File) != "c.jsonl" {
		t.Fatalf("LOG-1 findings at d's lines %v, first %+v", lines1, first1)
	}
	if first := s.Requirement("LOG-1").First; first != first1 || first.Baseline != nil {
		t.Errorf("LOG-1's First: %+v, want %+v", first, first1)
	}
	if tl := s.Requirement("LOG-2"); tl.Baselined != 2 || tl.Failing(Warning) != 0 {
		t.Errorf("LOG-2: %+v", tl)
	}
}

// A log that goes away between the walk that counts the logs and the one
// that checks them is a log that was not read: the run's result is an
// error, never a pass over the logs that remained. Kills run.go:381:38.
func TestJudgeRunLogGoneBetweenWalks(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	a := runJudgeWrite(t, dir, "a.jsonl", string(base))
	b := runJudgeWrite(t, dir, "b.jsonl", string(base))
	s, err := Run(context.Background(), []string{a, b}, RunOptions{
		Options: Defaults(),
		Progress: func(n, total int, path string) {
			if n == 1 {
				os.Remove(b)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Files {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{a, b}) || s.Files[1].Err == nil || s.Files[0].Err != nil {
		t.Fatalf("files %v (%+v)", names, s.Files)
	}
	if s.Result() != ResultError {
		t.Errorf("result %s, want error", s.Result())
	}
}

// - (stdin) is one log among the paths: the walk goes on after it.
// Kills run.go:429:37 and 429:41.
func TestJudgeRunStdinThenFile(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	a := runJudgeWrite(t, dir, "a.jsonl", "not json\n")
	s, err := Run(context.Background(), []string{"-", a, "-"}, RunOptions{Options: Defaults(), Stdin: strings.NewReader(string(base))})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range s.Files {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{StdinName, a, StdinName}) || s.Total != 3 {
		t.Fatalf("files %v (total %d), want stdin, %s, stdin", names, s.Total, a)
	}
	if s.Result() != ResultFail || s.Requirement("LOG-1").Total() == 0 {
		t.Errorf("result %s, want fail (a is not JSON)", s.Result())
	}
}
