package runner_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// closeCounter is a session that answers every case with one wrong output
// and counts its Close calls.
type closeCounter struct {
	session
	mu     sync.Mutex
	closes int
}

func (s *closeCounter) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closes++
	return nil
}

// runClosing runs three failing cases through two counting sessions and
// returns them, with what Run panicked with (nil: it returned).
func runClosing(t *testing.T, phase func(string)) (sessions []*closeCounter, panicked any) {
	t.Helper()
	var mu sync.Mutex
	start := func(context.Context) (adapter.Session, error) {
		mu.Lock()
		defer mu.Unlock()
		s := &closeCounter{session: session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Output: []byte(`{"content":"wrong"}`)}, nil
		}}}
		sessions = append(sessions, s)
		return s, nil
	}
	want := jsonjs.ObjectValue(jsonjs.Member{Key: "content", Value: jsonjs.StringValue("right")})
	var cs []runner.Case
	for _, id := range []string{"a", "b", "c"} {
		cs = append(cs, runner.Case{ID: "grep.result/judge-close-" + id, Op: "grep.result", Input: []byte(`{}`), InputValue: jsonjs.ObjectValue(),
			Requirements: []string{"SEARCH-GREP-1"}, Want: runner.Want{Output: &want}})
	}
	func() {
		defer func() { panicked = recover() }()
		_, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 2, NewSession: start, NoDiagnosis: true, ExplainTime: time.Minute, Phase: phase})
		if err != nil {
			t.Fatal(err)
		}
	}()
	return sessions, panicked
}

// Run closes every session it started exactly once: after a run that
// ends, and after one a callback of its own goroutine panics in (Phase,
// told "explaining 3 cases" before any minimization; engine.go 89-94, the
// deferred close, and 153, the close before the clock stops).
func TestJudgeRunClosesEachSessionOnce(t *testing.T) {
	type stop struct{}
	for name, phase := range map[string]func(string){
		"a run that ends": func(note string) {
			if !strings.HasPrefix(note, "explaining 3 cases") {
				t.Errorf("phase %q", note)
			}
		},
		"a run whose Phase panics": func(string) { panic(stop{}) },
	} {
		sessions, panicked := runClosing(t, phase)
		if _, ok := panicked.(stop); ok != strings.Contains(name, "panics") {
			t.Fatalf("%s: Run panicked with %v", name, panicked)
		}
		if len(sessions) != 2 {
			t.Fatalf("%s: %d sessions started, want 2", name, len(sessions))
		}
		for i, s := range sessions {
			if s.closes != 1 {
				t.Errorf("%s: session %d closed %d times, want once", name, i, s.closes)
			}
		}
	}
}
