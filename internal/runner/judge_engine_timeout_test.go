package runner_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// waitingSession answers only when its context ends, with the context's
// error; should the context have no deadline, it answers {"content":"ok"}
// after a while instead (the fallback keeps a wrong run from hanging).
type waitingSession struct{ session }

func (s *waitingSession) Run(ctx context.Context, _, _ string, _ []byte) (adapter.Reply, error) {
	select {
	case <-ctx.Done():
		return adapter.Reply{}, ctx.Err()
	case <-time.After(10 * time.Second):
		return adapter.Reply{Output: []byte(`{"content":"ok"}`)}, nil
	}
}

// Any positive timeout bounds a case of a session that does not bound its
// own runs (Options.Timeout: "the case's context gets this deadline"),
// the shortest one too: a case given 1 ns is a timeout, not an answer
// (engine.go:294).
func TestJudgeShortestTimeoutIsADeadline(t *testing.T) {
	s := &waitingSession{session{h: adapter.Reference()}}
	c := stopCases()[0]
	r := runner.RunCase(context.Background(), s, c, time.Nanosecond)
	if r.Verdict != verdict.Timeout {
		t.Errorf("a 1 ns timeout: %s %q, want a timeout", r.Verdict, r.Message)
	}
}

// A message over 8 KiB is cut at the last code point boundary at or
// before 8,192 bytes, whatever its bytes: one of 9,000 bytes that are not
// UTF-8 (continuation bytes alone) has no boundary but its start, so
// nothing of it is kept but its length (engine.go boundMessage, 323).
func TestJudgeLongMessageWithoutBoundary(t *testing.T) {
	msg := strings.Repeat("\x80", 9000)
	s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
		return adapter.Reply{}, errors.New(msg)
	}}
	r := runner.RunCase(context.Background(), s, stopCases()[0], 0)
	if want := "… (cut: 9000 bytes in all)"; r.Verdict != verdict.Error || r.Message != want {
		t.Errorf("a 9,000-byte message of continuation bytes: %s %q, want error %q", r.Verdict, r.Message, want)
	}
}

// A message of exactly 8 KiB is not over the bound: it is kept whole, with
// no cut mark (engine.go boundMessage, 319).
func TestJudgeMessageOfExactly8KiBIsWhole(t *testing.T) {
	for _, n := range []int{8191, 8192} {
		msg := strings.Repeat("x", n)
		s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			return adapter.Reply{}, errors.New(msg)
		}}
		if r := runner.RunCase(context.Background(), s, stopCases()[0], 0); r.Verdict != verdict.Error || r.Message != msg {
			t.Errorf("a %d-byte message: %s, %d bytes kept (%q…), want it whole", n, r.Verdict, len(r.Message), r.Message[max(0, len(r.Message)-30):])
		}
	}
}
