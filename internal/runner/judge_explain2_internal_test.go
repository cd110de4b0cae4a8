package runner

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Minimization (explain.go): a candidate counts as failing only when the
// harness answered it, with an output or an error, and that answer still
// fails the case's target field; the case's own timeout bounds each
// candidate's run; the run cap and the budget's shares bound the whole.

// ex2Session is an adapter.Session whose answer to each input a test
// decides.
type ex2Session struct {
	answer func(ctx context.Context, id string, input []byte) (adapter.Reply, error)
}

func (s ex2Session) Hello() adapter.Hello {
	return adapter.Hello{Protocol: adapter.Protocol, Implementation: adapter.Implementation{Name: "ex2", Version: "0", Language: "go"}, Ops: reference.Ops()}
}

func (s ex2Session) Run(ctx context.Context, id, _ string, input []byte) (adapter.Reply, error) {
	return s.answer(ctx, id, input)
}

func (ex2Session) Close() error { return nil }

// ex2Case is a case of input whose golden answer is the reference's (an
// output or a thrown error).
func ex2Case(t *testing.T, id, op, input string) Case {
	t.Helper()
	v, err := jsonjs.Parse([]byte(input))
	if err != nil {
		t.Fatal(err)
	}
	c := Case{ID: id, Op: op, Input: []byte(input), InputValue: v}
	out, err := reference.Run(op, []byte(input))
	var inErr *reference.InputError
	switch {
	case errors.As(err, &inErr):
		t.Fatalf("%s: the reference cannot read the input: %v", id, err)
	case err != nil:
		msg := err.Error()
		c.Want.Error = &msg
	default:
		w, err := jsonjs.Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		c.Want.Output = &w
	}
	return c
}

// ex2Seen is the reference's retain.items answer to input with its count
// of seen items wrong: a 1 put before it (3 becomes 13). That fails the
// field seen, and the property RET-ITEM-3 (seen = kept + omitted).
func ex2Seen(t *testing.T, input []byte) []byte {
	t.Helper()
	out, err := reference.Run("retain.items", input)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"seen":`) {
		t.Fatalf("no seen in %s", out)
	}
	return []byte(strings.Replace(string(out), `"seen":`, `"seen":1`, 1))
}

// ex2Value is text parsed, for a Reply's Value.
func ex2Value(t *testing.T, text []byte) *jsonjs.Value {
	t.Helper()
	v, err := jsonjs.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return &v
}

// ex2Target is the first diff of c's answer out (or the first property it
// breaks, when property is set).
func ex2Target(t *testing.T, c Case, out []byte, property bool) Diff {
	t.Helper()
	v := ex2Value(t, out)
	diffs := Compare(c, v, nil)
	if property {
		diffs = CheckProperties(c.Op, c.InputValue, *v)
	}
	if len(diffs) == 0 {
		t.Fatalf("%s passes on %s", c.ID, out)
	}
	return diffs[0]
}

const ex2Items = `{"strategy":{"kind":"head","maxItems":2},"items":["a","b","c"]}`

// What the harness answers decides whether a smaller candidate still fails
// the case's field: an output that fails it does, given as bytes alone (the
// session left the parsing to OutputValue) or parsed; nothing else does: a
// skip, a run that failed (whatever reply came with the error), an answer
// with bytes that are not UTF-8 (the case fails on them, not on the field),
// an answer with neither output nor error, an output that is no JSON.
func TestJudgeExplainFailsOnlyOnAnAnswerThatFailsTheField(t *testing.T) {
	c := ex2Case(t, "retain.items/ex2-fails", "retain.items", ex2Items)
	target := ex2Target(t, c, ex2Seen(t, c.Input), false)
	if target.Field != "seen" {
		t.Fatalf("target %+v: want the field seen", target)
	}
	cand := []byte(`{"strategy":{"kind":"head","maxItems":2},"items":["a","b"]}`)
	wrong := ex2Seen(t, cand)
	// The same wrong answer with a byte that is no UTF-8 in an item, as an
	// in-process harness answers it (Output, Value and BadBytes).
	badText := []byte(strings.Replace(string(wrong), `"a"`, "\"a\xff\"", 1))
	bad, err := adapter.InProcess(ex2Harness{badText}, adapter.Implementation{Name: "ex2", Version: "0", Language: "go"}).Run(context.Background(), c.ID, c.Op, cand)
	if err != nil || bad.BadBytes == nil || bad.Output == nil {
		t.Fatalf("the bad bytes answer: %+v, %v", bad, err)
	}
	skip := "not today"
	for _, tc := range []struct {
		name  string
		reply adapter.Reply
		err   error
		fails bool
	}{
		{"an output as bytes alone", adapter.Reply{Output: wrong}, nil, true},
		{"an output parsed as well", adapter.Reply{Output: wrong, Value: ex2Value(t, wrong)}, nil, true},
		{"a skip", adapter.Reply{Skip: &skip}, nil, false},
		{"a timeout, whatever the reply holds", adapter.Reply{Output: wrong, Value: ex2Value(t, wrong)}, &adapter.Fault{Kind: adapter.FaultTimeout, Message: "late"}, false},
		{"an output with bytes that are no UTF-8", bad, nil, false},
		{"neither output nor error", adapter.Reply{}, nil, false},
		{"an output that is no JSON", adapter.Reply{Output: []byte(`{"seen":`)}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := 0
			s := ex2Session{func(context.Context, string, []byte) (adapter.Reply, error) { runs++; return tc.reply, tc.err }}
			m := newMinimizer(context.Background(), c, target, 0, "go")
			m.s = s
			a, ok := m.fails(*ex2Value(t, cand))
			if ok != tc.fails || (a != nil) != tc.fails {
				t.Errorf("fails = %v (answer %v), want %v", ok, a != nil, tc.fails)
			}
			if runs != 1 || m.runs != 1 {
				t.Errorf("the harness ran %d times, counted %d: want the candidate run once", runs, m.runs)
			}
			// Minimizing with this harness keeps the case's input unless
			// the answer fails the field.
			m = newMinimizer(context.Background(), c, target, 0, "go")
			if !m.run(s, time.Now().Add(time.Hour)) || !m.done {
				t.Fatalf("the minimization did not end: %d runs", m.runs)
			}
			if shrank := !jsonjs.Equal(m.cur, c.InputValue); shrank != tc.fails {
				t.Errorf("minimized to %s: shrank %v, want %v", jsonjs.Marshal(m.cur), shrank, tc.fails)
			}
		})
	}
}

// ex2Harness answers every input with out.
type ex2Harness struct{ out []byte }

func (ex2Harness) Ops() []string                        { return reference.Ops() }
func (h ex2Harness) Run(string, []byte) ([]byte, error) { return h.out, nil }

// ex2Reference answers every input as the reference does: no candidate
// fails.
func ex2Reference(op string) ex2Session {
	return ex2Session{func(_ context.Context, _ string, input []byte) (adapter.Reply, error) {
		out, err := reference.Run(op, input)
		if err != nil {
			msg := err.Error()
			return adapter.Reply{Error: &msg}, nil
		}
		return adapter.Reply{Output: out}, nil
	}}
}

// One case tries at most maxMinimizeRuns candidates over all its rounds
// (explain.go: "the candidates one case may try"): a minimization that has
// tried all but 3 tries 3 more and ends for good (not to be continued in a
// later round), not minimized to the end.
func TestJudgeExplainRunCap(t *testing.T) {
	c := ex2Case(t, "retain.items/ex2-cap", "retain.items", ex2Items)
	target := ex2Target(t, c, ex2Seen(t, c.Input), false)
	if n := len(candidates(c.InputValue)); n <= 3 {
		t.Fatalf("%d candidates: want more than 3", n)
	}
	m := newMinimizer(context.Background(), c, target, 0, "go")
	m.runs = maxMinimizeRuns - 3
	s := ex2Reference(c.Op)
	if !m.run(s, time.Now().Add(time.Hour)) {
		t.Errorf("the run cap did not end the minimization for good")
	}
	if m.runs != maxMinimizeRuns || m.done {
		t.Errorf("%d runs, done %v: want %d runs, not done", m.runs, m.done, maxMinimizeRuns)
	}
	if !m.run(s, time.Now().Add(time.Hour)) || m.runs != maxMinimizeRuns {
		t.Errorf("a later round ran on: %d runs", m.runs)
	}
	var r CaseResult
	m.record(&r)
	if r.Minimized == nil || !r.Minimized.Stopped || r.Minimized.Runs != maxMinimizeRuns {
		t.Errorf("recorded %+v: want stopped after %d runs", r.Minimized, maxMinimizeRuns) // Minimized is set: record always sets it
	}
}

// The case's timeout bounds each candidate's run, however short: a harness
// slower than a 1 ns timeout answers no candidate; without a timeout its
// wrong answer counts.
func TestJudgeExplainCandidateTimeout(t *testing.T) {
	c := ex2Case(t, "retain.items/ex2-timeout", "retain.items", ex2Items)
	target := ex2Target(t, c, ex2Seen(t, c.Input), false)
	cand := []byte(`{"strategy":{"kind":"head","maxItems":2},"items":["a","b"]}`)
	slow := ex2Session{func(ctx context.Context, _ string, input []byte) (adapter.Reply, error) {
		select {
		case <-ctx.Done():
			return adapter.Reply{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
			return adapter.Reply{Output: ex2Seen(t, input)}, nil
		}
	}}
	for _, tc := range []struct {
		timeout time.Duration
		fails   bool
	}{{time.Nanosecond, false}, {0, true}} {
		m := newMinimizer(context.Background(), c, target, tc.timeout, "go")
		m.s = slow
		if _, ok := m.fails(*ex2Value(t, cand)); ok != tc.fails {
			t.Errorf("timeout %v: fails = %v, want %v", tc.timeout, ok, tc.fails)
		}
	}
}

// A process session bounds its own runs: the case's timeout, shorter than
// adapter.RunBound, is only a backstop behind that bound for a candidate
// as for the case (engine.go runCase): with a 1 ns timeout the adapter
// still answers, and its wrong answer counts. The test binary serves the
// deep harness of deep_test.go (runner_suite_test.go's TestMain), which
// fails every answer's meta.
func TestJudgeExplainProcessSessionOutlivesAShortTimeout(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := adapter.Start(ctx, adapter.Config{Argv: []string{exe}, Env: append(os.Environ(), "CONFORM_RUNNER_TEST_ADAPTER=deep")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := ex2Case(t, "grep.result/ex2-process", "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"},{"path":"b","lineNumber":2,"line":"x"}]}}`)
	r := RunCase(ctx, s, c, time.Nanosecond)
	if r.Verdict != verdict.Fail || len(r.Diffs) == 0 || r.Diffs[0].Field != "meta" {
		t.Fatalf("%s %q %+v: want the meta failed", r.Verdict, r.Message, r.Diffs)
	}
	m := newMinimizer(ctx, c, r.Diffs[0], time.Nanosecond, "go")
	m.s = s
	cand := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"}]}}`
	if _, ok := m.fails(*ex2Value(t, []byte(cand))); !ok {
		t.Errorf("the candidate %s does not fail the meta with a 1 ns timeout", cand)
	}
}

// A candidate must be one the reference answers (no input error) and
// throws on exactly when it threw on the case: a throwing case's candidate
// the reference cannot read is none, whatever the harness throws.
func TestJudgeExplainCandidateTheReferenceCannotRead(t *testing.T) {
	c := ex2Case(t, "grep.result/ex2-input-error", "grep.result", `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.ts","lineNumber":1,"line":"x"}]},"config":{"maxMatches":-3}}`)
	if c.Want.Error == nil {
		t.Fatal("the case does not throw")
	}
	other := "something else"
	throws := ex2Session{func(context.Context, string, []byte) (adapter.Reply, error) { return adapter.Reply{Error: &other}, nil }}
	target := Compare(c, nil, &other)
	if len(target) == 0 || target[0].Field != ErrorField {
		t.Fatalf("diffs %+v: want the message failed", target)
	}
	for _, tc := range []struct {
		input      string
		inputError bool // the reference cannot read it
		fails      bool
	}{
		{`{"args":{"pattern":"x"},"value":{"matches":[]},"config":{"maxMatches":-3}}`, false, true}, // throws as the case does
		{`[]`, true, false},
		{`{"args":{"pattern":"x"},"value":{"matches":[]},"config":{"maxMatches":3}}`, false, false}, // does not throw
	} {
		_, rerr := reference.Run(c.Op, []byte(tc.input))
		var inErr *reference.InputError
		if errors.As(rerr, &inErr) != tc.inputError {
			t.Fatalf("%s: the reference says %v: want an input error %v", tc.input, rerr, tc.inputError)
		}
		m := newMinimizer(context.Background(), c, target[0], 0, "go")
		m.schema = false // the input schema aside: this is the reference's check
		m.s = throws
		if _, ok := m.fails(*ex2Value(t, []byte(tc.input))); ok != tc.fails {
			t.Errorf("%s: fails = %v, want %v", tc.input, ok, tc.fails)
		}
	}
}

// A property the case's answer breaks is a target of its own: a candidate
// fails it when the harness's answer to it breaks the same property.
func TestJudgeExplainPropertyTarget(t *testing.T) {
	c := ex2Case(t, "retain.items/ex2-property", "retain.items", ex2Items)
	target := ex2Target(t, c, ex2Seen(t, c.Input), true)
	if target.Comparator != CmpProperty || !slices.Equal(target.Requirements, []string{"RET-ITEM-3"}) {
		t.Fatalf("target %+v: want the property RET-ITEM-3", target)
	}
	s := ex2Session{func(_ context.Context, _ string, input []byte) (adapter.Reply, error) {
		return adapter.Reply{Output: ex2Seen(t, input)}, nil
	}}
	m := newMinimizer(context.Background(), c, target, 0, "go")
	m.s = s
	cand := []byte(`{"strategy":{"kind":"head","maxItems":2},"items":["a","b"]}`)
	if _, ok := m.fails(*ex2Value(t, cand)); !ok {
		t.Errorf("a candidate whose answer breaks RET-ITEM-3 does not fail it")
	}
}

// narrow (explain.go) never narrows where the outcome flipped or the whole
// answer differs (a compared diff of field isError or ""): the deciding
// requirement already names the cause. A property of field isError is no
// such diff: the other diffs narrow, the property keeps its blame.
func TestJudgeExplainNarrowLeavesAFlippedOutcome(t *testing.T) {
	all := []string{"CODE-RENDER-1", "CODE-RENDER-2", "CODE-RENDER-3"}
	for _, tc := range []struct {
		name, field, comparator string
		narrows                 bool
		broken                  []string
	}{
		{"a flipped outcome", "isError", CmpExact, false, all},
		{"a whole answer", "", CmpJSON, false, all},
		{"a compared field", "content", CmpExact, true, []string{"CODE-RENDER-1"}},
		{"a property of isError", "isError", CmpProperty, true, []string{"CODE-RENDER-1", "CODE-RENDER-2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := CaseResult{Diffs: []Diff{
				{Field: tc.field, Comparator: tc.comparator, Requirements: []string{"CODE-RENDER-1", "CODE-RENDER-2"}},
				{Field: "meta", Comparator: CmpJSON, Requirements: []string{"CODE-RENDER-1", "CODE-RENDER-3"}},
			}}
			r.Broken = Blamed(r.Diffs)
			narrow(&r, map[string][]string{tc.field: {"CODE-RENDER-1"}, "meta": {"CODE-RENDER-1"}}, "go")
			meta := r.Diffs[1].Requirements
			if narrowed := slices.Equal(meta, []string{"CODE-RENDER-1"}); narrowed != tc.narrows {
				t.Errorf("the meta diff blames %q: narrowed %v, want %v", meta, narrowed, tc.narrows)
			}
			if !slices.Equal(r.Broken, tc.broken) {
				t.Errorf("broken %q, want %q", r.Broken, tc.broken)
			}
		})
	}
}

// narrow only ever drops requirements: where it narrows no diff, a result
// stays as it is, its broken requirements included, though they are not
// its diffs' (a case failed on bytes that are no UTF-8 breaks every
// requirement it cites, through a diff that blames none: engine.go judge).
func TestJudgeExplainNarrowChangesNothingItDoesNotNarrow(t *testing.T) {
	c := ex2Case(t, "retain.items/ex2-bad-bytes", "retain.items", ex2Items)
	c.Requirements = []string{"RET-ITEM-1", "RET-ITEM-3"}
	badText := []byte(strings.Replace(string(ex2Seen(t, c.Input)), `"a"`, "\"a\xff\"", 1))
	r := RunCase(context.Background(), adapter.InProcess(ex2Harness{badText}, adapter.Implementation{Name: "ex2", Version: "0", Language: "go"}), c, 0)
	if r.Verdict != verdict.Fail || len(r.Diffs) != 1 || !slices.Equal(r.Broken, c.Requirements) {
		t.Fatalf("%s, diffs %+v, broken %q: want a failure on the bytes breaking %q", r.Verdict, r.Diffs, r.Broken, c.Requirements)
	}
	before := slices.Clone(r.Broken)
	affectedBefore := slices.Clone(r.Affected)
	narrow(&r, map[string][]string{r.Diffs[0].Field: {"RET-ITEM-1"}, "seen": {"RET-ITEM-1"}}, "go")
	if !slices.Equal(r.Broken, before) || !slices.Equal(r.Affected, affectedBefore) || len(r.Diffs[0].Requirements) != 0 {
		t.Errorf("narrowing nothing changed broken %q -> %q, affected %q -> %q, diff %+v", before, r.Broken, affectedBefore, r.Affected, r.Diffs[0])
	}
}
