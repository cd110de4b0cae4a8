package conformtest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/conformtest"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// refHarness is the reference implementation as a Go harness.
type refHarness struct{ ops []string }

func (h refHarness) Ops() []string {
	if h.ops != nil {
		return h.ops
	}
	return reference.Ops()
}

func (refHarness) Run(_ context.Context, op string, input []byte) ([]byte, error) {
	return reference.Run(op, input)
}

// alterHarness is the reference with one op's output rewritten.
type alterHarness struct {
	refHarness
	op    string
	alter func(out jsonjs.Value) jsonjs.Value
}

func (h alterHarness) Run(_ context.Context, op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	if err != nil || op != h.op {
		return out, err
	}
	v, err := jsonjs.Parse(out)
	if err != nil {
		return nil, err
	}
	return jsonjs.Marshal(h.alter(v)), nil
}

// setMember replaces the member key (a path of keys) of an object.
func setMember(v jsonjs.Value, val jsonjs.Value, keys ...string) jsonjs.Value {
	ms, ok := v.Members()
	if !ok {
		return v
	}
	out := make([]jsonjs.Member, len(ms))
	for i, m := range ms {
		if m.Key == keys[0] {
			if len(keys) == 1 {
				m.Value = val
			} else {
				m.Value = setMember(m.Value, val, keys[1:]...)
			}
		}
		out[i] = m
	}
	return jsonjs.ObjectValue(out...)
}

func violations(err error) []*conformtest.Violation {
	var out []*conformtest.Violation
	if err == nil {
		return nil
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var v *conformtest.Violation
		if errors.As(e, &v) {
			out = append(out, v)
		}
	}
	return out
}

func TestCheckReference(t *testing.T) {
	if err := conformtest.Check(refHarness{}); err != nil {
		t.Fatalf("the reference does not conform:\n%v", err)
	}
}

func TestCheckUnsupportedOptionalOpsAreNotErrors(t *testing.T) {
	required := []string{reference.OpGrepResult, reference.OpGlobResult, reference.OpSearchPresent, reference.OpRunCodeResult}
	if err := conformtest.Check(refHarness{ops: required}); err != nil {
		t.Fatalf("a harness of the required ops only: %v", err)
	}
}

func TestCheckUnsupportedRequiredOpIsAViolation(t *testing.T) {
	err := conformtest.Check(refHarness{ops: []string{reference.OpGrepResult, reference.OpSearchPresent, reference.OpRunCodeResult}})
	vs := violations(err)
	if len(vs) != 1 || vs[0].Case != reference.OpGlobResult || vs[0].Verdict != "unsupported" || !strings.Contains(vs[0].Error(), "required op glob.result") {
		t.Fatalf("want one violation for glob.result, got %v", err)
	}
}

func TestRunReference(t *testing.T) {
	conformtest.Run(t, refHarness{})
}

func TestCheckWrongMetaTotal(t *testing.T) {
	h := alterHarness{op: reference.OpGrepResult, alter: func(out jsonjs.Value) jsonjs.Value {
		total, ok := out.Get("meta")
		if !ok || total.IsNull() {
			return out
		}
		n, _ := total.Get("total")
		f, _ := n.Float()
		return setMember(out, jsonjs.NumberValue(f+1), "meta", "total")
	}}
	err := conformtest.Check(h)
	if err == nil {
		t.Fatal("a wrong meta.total passed")
	}
	vs := violations(err)
	var capHit, diffHit bool
	for _, v := range vs {
		if !strings.HasPrefix(v.Case, "grep.result/") {
			t.Fatalf("violation outside grep.result: %v", v)
		}
		if !strings.HasPrefix(v.Error(), v.Case+": ") {
			t.Fatalf("message does not start with the case id: %v", v)
		}
		if len(v.Requirements) == 1 && v.Requirements[0] == "SEARCH-CAP-4" && v.Path == "$.meta.total" &&
			strings.Contains(v.Error(), "[SEARCH-CAP-4]") && strings.Contains(v.Error(), "meta.total is") {
			capHit = true
		}
		if v.Path == "$.meta.total" && strings.Contains(v.Error(), "$.meta.total") {
			diffHit = true
		}
	}
	if !capHit || !diffHit {
		t.Fatalf("want a SEARCH-CAP-4 property violation and a $.meta.total difference, got:\n%v", err)
	}
	if !strings.Contains(err.Error(), "grep.result/gen-002: $.meta.total:") {
		t.Fatalf("no violation for grep.result/gen-002:\n%v", err)
	}
}

func TestCheckWrongContent(t *testing.T) {
	h := alterHarness{op: reference.OpRunCodeResult, alter: func(out jsonjs.Value) jsonjs.Value {
		return setMember(out, jsonjs.StringValue(""), "content")
	}}
	err := conformtest.Check(h)
	vs := violations(err)
	if len(vs) == 0 {
		t.Fatal("an empty content passed")
	}
	var render, exact bool
	for _, v := range vs {
		if !strings.HasPrefix(v.Case, "run_code.result/") {
			t.Fatalf("violation outside run_code.result: %v", v)
		}
		if v.Path == "$.content" && len(v.Requirements) == 1 && v.Requirements[0] == "CODE-RENDER-1" {
			render = true
		}
		if v.Path == "$.content" && strings.Contains(v.Message, "first difference at byte 0") && len(v.Requirements) > 0 {
			exact = true
		}
	}
	if !render || !exact {
		t.Fatalf("want a CODE-RENDER-1 violation and an exact difference at byte 0:\n%v", err)
	}
}

func TestCheckWrongErrorMessage(t *testing.T) {
	h := wrongErrors{}
	err := conformtest.Check(h)
	if err == nil {
		t.Fatal("wrong error messages passed")
	}
	found := false
	for _, v := range violations(err) {
		if v.Path == "$.error.message" && strings.Contains(v.Error(), "grep.result/grep-config-max-matches-zero") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no error.message violation for grep.result/grep-config-max-matches-zero:\n%v", err)
	}
}

// wrongErrors is the reference with every thrown message reworded.
type wrongErrors struct{ refHarness }

func (wrongErrors) Run(_ context.Context, op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	if err != nil {
		return nil, errors.New(strings.ToUpper(err.Error()))
	}
	return out, nil
}

func TestCheckPanicIsACrash(t *testing.T) {
	err := conformtest.Check(panicHarness{})
	vs := violations(err)
	if len(vs) == 0 || vs[0].Verdict != "crash" || !strings.Contains(vs[0].Error(), "panicked") || !strings.Contains(vs[0].Error(), "boom") {
		t.Fatalf("want crash violations, got %v", err)
	}
}

type panicHarness struct{}

func (panicHarness) Ops() []string { return []string{reference.OpRetainItems} }

func (panicHarness) Run(context.Context, string, []byte) ([]byte, error) { panic("boom") }

// slowHarness is the reference, except that runs of retain.items wait for
// their context (ignore: for ever, ignoring it).
type slowHarness struct {
	refHarness
	ignore bool
	block  chan struct{} // closed by the test's cleanup, to free an ignoring harness
}

func (h slowHarness) Run(ctx context.Context, op string, input []byte) ([]byte, error) {
	if op == reference.OpRetainItems {
		if h.ignore {
			<-h.block
			return nil, errors.New("freed")
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return reference.Run(op, input)
}

// watchdog bounds the specs whose bug would be a hang: a correct Check ends
// far within it however loaded the machine is; time is never a measure here.
const watchdog = 60 * time.Second

func TestCheckCaseDeadlineGivesTimeouts(t *testing.T) {
	began := time.Now()
	h := slowHarness{refHarness: refHarness{ops: []string{reference.OpRetainItems}}}
	err := conformtest.Check(h, conformtest.WithTimeout(20*time.Millisecond))
	vs := violations(err)
	if len(vs) == 0 {
		t.Fatal("a harness that waits for its context passed")
	}
	for _, v := range vs {
		if v.Verdict != "timeout" && v.Verdict != "unsupported" {
			t.Fatalf("want timeouts, got %v", v)
		}
		if v.Verdict == "timeout" && !strings.Contains(v.Message, "no answer within the case timeout") {
			t.Fatalf("timeout message: %v", v)
		}
	}
	if d := time.Since(began); d > watchdog {
		t.Fatalf("took %v: the case deadline did not end the waits", d)
	}
}

func TestCheckHarnessThatIgnoresItsContextDoesNotHang(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	h := slowHarness{refHarness: refHarness{ops: []string{reference.OpRetainItems}}, ignore: true, block: block}
	began := time.Now()
	err := conformtest.Check(h, conformtest.WithTimeout(50*time.Millisecond))
	if d := time.Since(began); d > watchdog {
		t.Fatalf("Check took %v on a hanging harness", d)
	}
	vs := violations(err)
	var gaveUp, notRun int
	for _, v := range vs {
		switch {
		case v.Verdict == "timeout" && strings.Contains(v.Message, "did not return within 1s of the case's deadline"):
			gaveUp++
		case v.Verdict == "timeout" && strings.HasPrefix(v.Message, "not run: the harness never returned from case retain.items/"):
			notRun++
		case v.Verdict == "unsupported":
		default:
			t.Fatalf("unexpected violation %v", v)
		}
	}
	if gaveUp != 1 || notRun == 0 {
		t.Fatalf("want one case given up on and the rest not run, got %d and %d:\n%v", gaveUp, notRun, err)
	}
}
