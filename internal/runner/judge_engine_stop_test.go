package runner_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// stopCases are three grep cases a, b, c whose golden output is
// {"content":"ok"}, in that order.
func stopCases() []runner.Case {
	want := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue("ok")})
	var cs []runner.Case
	for _, id := range []string{"a", "b", "c"} {
		cs = append(cs, runner.Case{ID: "grep.result/" + id, Op: "grep.result", Input: []byte(`{}`), InputValue: jsonjs.ObjectValue(),
			Requirements: []string{"SEARCH-GREP-1"}, Want: runner.Want{Output: &want}})
	}
	return cs
}

// A run the circuit breaker stopped is incomplete, counts every case it
// did not run and quotes the fault that opened it: the first refused
// case's (engine.go 169-185). Case c's fault message happens to read as
// the run's own cancellation message; the run was not cancelled, so it is
// a refused case like b.
func TestJudgeCircuitBreakerStop(t *testing.T) {
	s := &session{h: adapter.Reference(), reply: func(id, _ string) (adapter.Reply, error) {
		switch id {
		case "grep.result/b":
			return adapter.Reply{}, &adapter.Fault{Kind: adapter.FaultCrash, NotRun: true, Message: "not run: the breaker is open", Last: "the first fault"}
		case "grep.result/c":
			return adapter.Reply{}, &adapter.Fault{Kind: adapter.FaultProtocol, NotRun: true, Message: "the run was cancelled", Last: "a later fault"}
		}
		return adapter.Reply{Output: []byte(`{"content":"ok"}`)}, nil
	}}
	rep, err := runner.Run(context.Background(), stopCases(), runner.Options{Jobs: 1, NewSession: func(context.Context) (adapter.Session, error) { return s, nil }})
	if err != nil {
		t.Fatal(err)
	}
	want := "the adapter's circuit breaker stopped the run: 2 of 3 selected cases were not run; the fault that opened it: the first fault"
	if rep.Complete || rep.Stopped != want {
		t.Errorf("complete %v, stopped %q; want false, %q", rep.Complete, rep.Stopped, want)
	}
	if len(rep.Cases) != 3 {
		t.Errorf("%d cases in the report, want 3", len(rep.Cases))
	}
	// One case not run (the last) is enough to make the run incomplete.
	one := &session{h: adapter.Reference(), reply: func(id, _ string) (adapter.Reply, error) {
		if id == "grep.result/c" {
			return adapter.Reply{}, &adapter.Fault{Kind: adapter.FaultCrash, NotRun: true, Message: "not run", Last: "the only fault"}
		}
		return adapter.Reply{Output: []byte(`{"content":"ok"}`)}, nil
	}}
	rep, err = runner.Run(context.Background(), stopCases(), runner.Options{Jobs: 1, NewSession: func(context.Context) (adapter.Session, error) { return one, nil }})
	if err != nil {
		t.Fatal(err)
	}
	want = "the adapter's circuit breaker stopped the run: 1 of 3 selected cases were not run; the fault that opened it: the only fault"
	if rep.Complete || rep.Stopped != want {
		t.Errorf("one case not run: complete %v, stopped %q; want false, %q", rep.Complete, rep.Stopped, want)
	}
}

// closeFaults is a session whose Close reports err.
type closeFaults struct {
	session
	err error
}

func (s *closeFaults) Close() error { return s.err }

// What closing the sessions found is in the report's notes, one per fault
// a Close error joins, in order: an adapter fault keeps its kind, message
// and stderr, any other error is kind "error" (engine.go appendNotes,
// 232-248).
func TestJudgeCloseErrorsBecomeNotes(t *testing.T) {
	closeErr := errors.Join(
		&adapter.Fault{Kind: adapter.FaultCrash, Message: "killed after bye", Stderr: "bye?"},
		errors.Join(errors.New("leftover process 42"), &adapter.Fault{Kind: adapter.FaultTimeout, Message: "slow bye"}),
	)
	start := func(context.Context) (adapter.Session, error) {
		return &closeFaults{session: session{h: adapter.Reference()}, err: closeErr}, nil
	}
	rep, err := runner.Run(context.Background(), stopCases(), runner.Options{Jobs: 1, NewSession: start})
	if err != nil {
		t.Fatal(err)
	}
	want := []runner.Note{
		{Kind: "crash", Message: "killed after bye", Stderr: "bye?"},
		{Kind: "error", Message: "leftover process 42"},
		{Kind: "timeout", Message: "slow bye"},
	}
	if !slices.Equal(rep.Notes, want) {
		t.Errorf("notes %+v, want %+v", rep.Notes, want)
	}
}

// A run cancelled while a case runs reports the cases that finished, an
// error verdict among them (an output that is not JSON is a finished
// case), and drops only the case the cancellation cut short (engine.go
// 113 and 133-143; Run's doc comment: "the report of the finished
// cases"), while Selected and the message count every case the run
// selected (result.go: "Selected is how many cases the run (its shard)
// selected"; before the fix both counted the finished cases only, so the
// report read "interrupted: 1 of 1 selected cases ran").
func TestJudgeCancelledRunKeepsFinishedErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &session{h: adapter.Reference(), reply: func(id, _ string) (adapter.Reply, error) {
		if id == "grep.result/b" {
			cancel()
			return adapter.Reply{}, context.Canceled
		}
		return adapter.Reply{Output: []byte(`{"content":`)}, nil // not JSON: an error verdict
	}}
	rep, err := runner.Run(ctx, stopCases(), runner.Options{Jobs: 1, NewSession: func(context.Context) (adapter.Session, error) { return s, nil }})
	if err == nil {
		t.Fatal("a cancelled run returned no error")
	}
	if rep == nil || len(rep.Cases) != 1 || rep.Cases[0].ID != "grep.result/a" || rep.Cases[0].Verdict != verdict.Error ||
		!strings.HasPrefix(rep.Cases[0].Message, "the output is not JSON") {
		t.Fatalf("report %+v, want case a alone, an error verdict", rep)
	}
	if want := "interrupted: 1 of 3 selected cases ran"; rep.Complete || rep.Stopped != want || rep.Selected != 3 {
		t.Errorf("complete %v, stopped %q, selected %d; want false, %q, 3", rep.Complete, rep.Stopped, rep.Selected, want)
	}
}
