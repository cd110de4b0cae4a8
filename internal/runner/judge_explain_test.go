package runner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
)

// Minimization (explain.go, docs/diagnosis.md): conform minimizes each
// failing case no model explains, a known failure (xfail) too since it
// runs after the baseline is applied, whose input is at most 64 KiB; a
// case that failed without a diff (an error verdict the baseline lists)
// has no field to minimize against. A budget too small to try a single
// candidate still records each case it was to minimize, stopped, with its
// own input: what the assertions below read, whatever the clock does.

// explainHarness answers the reference's answer with its text changed,
// and garbage where the input holds "garbage".
type explainHarness struct{}

func (explainHarness) Ops() []string { return reference.Ops() }

func (explainHarness) Run(op string, input []byte) ([]byte, error) {
	if strings.Contains(string(input), "garbage") {
		return []byte("not JSON"), nil
	}
	out, err := reference.Run(op, input)
	if err != nil {
		return nil, err
	}
	if op == "retain.items" {
		return []byte(strings.Replace(string(out), `"seen":`, `"seen":1`, 1)), nil
	}
	return []byte(strings.Replace(string(out), `"content":"`, `"content":"~`, 1)), nil
}

// explainGlob is a glob case's input of exactly n bytes, its last path
// padded to that length.
func explainGlob(t *testing.T, name string, n int) string {
	t.Helper()
	head := `{"args":{"pattern":"*"},"value":{"root":".","paths":["` + name + `","`
	tail := `"]},"config":{"maxResults":100,"sampleOverCap":false}}`
	if n < len(head)+len(tail)+1 {
		t.Fatalf("%d bytes cannot hold the glob input", n)
	}
	return head + strings.Repeat("p", n-len(head)-len(tail)) + tail
}

func TestJudgeExplainMinimizesWhatNoModelExplains(t *testing.T) {
	const maxBytes = 64 << 10
	type row struct {
		name, op, input string
		minimized       bool
		want            verdict.Verdict
	}
	rows := []row{
		{"a failing case", "glob.result", explainGlob(t, "fail", 200), true, verdict.Fail},
		{"a known failure", "glob.result", explainGlob(t, "known", 200), true, verdict.XFail},
		{"a known failure that is an error verdict", "glob.result", explainGlob(t, "garbage", 200), false, verdict.XFail},
		{"a failing case of exactly 64 KiB", "glob.result", explainGlob(t, "edge", maxBytes), true, verdict.Fail},
		{"a failing case of 64 KiB and a byte", "glob.result", explainGlob(t, "over", maxBytes+1), false, verdict.Fail},
		// The input object is level 0, items level 1, its element level 2:
		// the innermost of 63 nested arrays is at level 64.
		{"a failing case nested 64 levels", "retain.items", explainItems(63), true, verdict.Fail},
		{"a failing case nested 65 levels", "retain.items", explainItems(64), false, verdict.Fail},
		// Objects alike: the 1 inside 62 nested objects is at level 64.
		{"a failing case of objects nested 64 levels", "retain.items", explainMembers(62), true, verdict.Fail},
		{"a failing case of objects nested 65 levels", "retain.items", explainMembers(63), false, verdict.Fail},
	}
	var cs []runner.Case
	for i, r := range rows {
		c := blame2Case(t, r.op, r.input, "SEARCH-GLOB-2")
		c.ID = fmt.Sprintf("%s/judge-explain-%d", r.op, i)
		cs = append(cs, c)
	}
	b, err := baseline.Parse("baseline.yaml", []byte("- id: glob.result/judge-explain-1\n  reason: known\n- id: glob.result/judge-explain-2\n  reason: known garbage\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 2, NewSession: sessionsOf(explainHarness{}), Baseline: b, ExplainTime: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	minimized := 0
	for i, r := range rows {
		got := rep.Cases[i]
		if r.minimized {
			minimized++
		}
		if got.Verdict != r.want {
			t.Errorf("%s: %s, want %s", r.name, got.Verdict, r.want)
		}
		if (got.Minimized != nil) != r.minimized {
			t.Errorf("%s (%d bytes): minimized %+v, want minimized %v", r.name, len(cs[i].Input), got.Minimized, r.minimized)
		}
	}
	// The budget stopped every case it was to minimize: the note counts
	// them.
	said := false
	for _, n := range rep.Notes {
		if n.Kind == runner.NoteExplain {
			said = strings.Contains(n.Message, fmt.Sprintf(": %d of %d failing cases", minimized, minimized))
		}
	}
	if !said {
		t.Errorf("notes %+v: want the explain note counting %d of %d cases stopped", rep.Notes, minimized, minimized)
	}
}

// explainMembers is a retain.items input whose one item is n nested
// objects around a number.
func explainMembers(n int) string {
	return `{"strategy":{"kind":"head","maxItems":5},"items":[` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) + `]}`
}

// explainItems is a retain.items input whose one item is n nested arrays.
func explainItems(n int) string {
	return `{"strategy":{"kind":"head","maxItems":5},"items":[` + strings.Repeat("[", n) + strings.Repeat("]", n) + `]}`
}

// The explaining phase names how many cases it minimizes, one in the
// singular.
func TestJudgeExplainPhaseOfOneCase(t *testing.T) {
	c := blame2Case(t, "glob.result", explainGlob(t, "one", 200), "SEARCH-GLOB-2")
	var notes []string
	_, err := runner.Run(context.Background(), []runner.Case{c}, runner.Options{Jobs: 1, NewSession: sessionsOf(explainHarness{}),
		ExplainTime: time.Nanosecond, Phase: func(note string) { notes = append(notes, note) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) == 0 || notes[0] != "explaining 1 case" {
		t.Errorf("phase notes %q, want them to start with %q", notes, "explaining 1 case")
	}
}

// explainFieldHarness fails glob's text on an input that holds the path
// "zzz" and only its spill text on any other: a smaller input without zzz
// still fails, but another field.
type explainFieldHarness struct{}

func (explainFieldHarness) Ops() []string { return reference.Ops() }

func (explainFieldHarness) Run(op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	if err != nil {
		return nil, err
	}
	if strings.Contains(string(input), `"zzz"`) {
		return []byte(strings.Replace(string(out), `"content":"`, `"content":"~`, 1)), nil
	}
	return []byte(strings.Replace(string(out), `"spillText":null`, `"spillText":"~"`, 1)), nil
}

// Minimization keeps only smaller inputs on which the harness still fails
// the same field as on the case (its first diff's): here the text, which
// fails only while the path zzz is in the input; the other paths go.
func TestJudgeExplainKeepsTheFailingField(t *testing.T) {
	c := blame2Case(t, "glob.result", `{"args":{"pattern":"*"},"value":{"root":".","paths":["aaa","zzz","bbb"]},"config":{"maxResults":100,"sampleOverCap":false}}`, "SEARCH-GLOB-2")
	rep, err := runner.Run(context.Background(), []runner.Case{c}, runner.Options{Jobs: 1, NewSession: sessionsOf(explainFieldHarness{}), ExplainTime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Cases[0]
	if r.Verdict != verdict.Fail || r.Minimized == nil || len(r.Diffs) == 0 || r.Diffs[0].Field != "content" {
		t.Fatalf("%s, minimized %+v, diffs %+v: want a failure of the text, minimized", r.Verdict, r.Minimized, r.Diffs)
	}
	in := string(r.Minimized.Input)
	t.Logf("minimized to %s in %d runs", in, r.Minimized.Runs)
	if r.Minimized.Field != "content" || r.Minimized.Stopped || !strings.Contains(in, `"zzz"`) || strings.Contains(in, `"aaa"`) || strings.Contains(in, `"bbb"`) {
		t.Errorf("minimized to %s (field %q, stopped %v): want an input still holding zzz alone of the paths, failing the text", in, r.Minimized.Field, r.Minimized.Stopped)
	}
}

// The field is what must still fail, not the part of it: an input without
// the pattern (an error result, whose text the harness still fails) is
// smaller, though its text's difference is in another part than the case's
// (the error text's, not the header line's).
func TestJudgeExplainKeepsTheFieldNotItsPart(t *testing.T) {
	c := blame2Case(t, "glob.result", `{"args":{"pattern":"*"},"value":{"root":".","paths":["aaa","zzz","bbb"]},"config":{"maxResults":100,"sampleOverCap":false}}`, "SEARCH-GLOB-1", "SEARCH-GLOB-2")
	rep, err := runner.Run(context.Background(), []runner.Case{c}, runner.Options{Jobs: 1, NewSession: sessionsOf(explainFieldHarness{}), ExplainTime: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r := rep.Cases[0]
	if r.Minimized == nil || r.Minimized.Stopped {
		t.Fatalf("minimized %+v: want a minimization to the end", r.Minimized)
	}
	if in := string(r.Minimized.Input); strings.Contains(in, `"pattern"`) {
		t.Errorf("minimized to %s: want the pattern gone (without it the harness still fails the text)", in)
	}
}

// explainSlowHarness fails the text of an input holding the path "zzz",
// answers others as the reference does, and answers each after a pause:
// minimizing a case then takes many runs, longer than a share of a short
// budget.
type explainSlowHarness struct{}

func (explainSlowHarness) Ops() []string { return reference.Ops() }

func (explainSlowHarness) Run(op string, input []byte) ([]byte, error) {
	time.Sleep(100 * time.Millisecond)
	out, err := reference.Run(op, input)
	if err != nil || !strings.Contains(string(input), `"zzz"`) {
		return out, err
	}
	return []byte(strings.Replace(string(out), `"content":"`, `"content":"~`, 1)), nil
}

// Each case gets a fair share of the budget that is left (docs/diagnosis.md
// "Minimization"): a first case that would take the whole budget is
// stopped at its share, and the case after it still tries candidates.
func TestJudgeExplainSharesTheBudget(t *testing.T) {
	var cs []runner.Case
	for i := range 2 {
		var paths []string
		for j := range 40 {
			paths = append(paths, fmt.Sprintf(`"p%d-%d"`, i, j))
		}
		paths = append(paths, `"zzz"`)
		c := blame2Case(t, "glob.result", `{"args":{"pattern":"*"},"value":{"root":".","paths":[`+strings.Join(paths, ",")+`]},"config":{"maxResults":100,"sampleOverCap":false}}`, "SEARCH-GLOB-2")
		c.ID = fmt.Sprintf("glob.result/judge-share-%d", i)
		cs = append(cs, c)
	}
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 1, NewSession: sessionsOf(explainSlowHarness{}), ExplainTime: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Cases {
		if r.Minimized == nil || r.Minimized.Runs == 0 {
			t.Errorf("%s: minimized %+v: want each case to try candidates within its share", r.ID, r.Minimized)
		}
	}
}
