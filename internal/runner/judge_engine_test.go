package runner_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// An adapter's message over 8 KiB is cut at 8 KiB, on a code point
// boundary, its length stated: an ASCII message keeps its first 8,192
// bytes, a message with a multi-byte character across the cut loses that
// character whole (engine.go boundMessage, 323).
func TestJudgeLongMessagesAreCutAt8KiB(t *testing.T) {
	c := runner.Case{ID: "grep.result/judge-long", Op: "grep.result", Input: []byte(`{}`), InputValue: jsonjs.ObjectValue(),
		Want: runner.Want{Error: new(string)}}
	for msg, kept := range map[string]string{
		strings.Repeat("x", 10000):                                 strings.Repeat("x", 8192),
		strings.Repeat("x", 8191) + "é" + strings.Repeat("y", 100): strings.Repeat("x", 8191),
	} {
		s := &session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			m := msg
			return adapter.Reply{Skip: &m}, nil
		}}
		r := runner.RunCase(context.Background(), s, c, 0)
		want := kept + "… (cut: " + strconv.Itoa(len(msg)) + " bytes in all)"
		if r.Verdict != verdict.Skipped || r.Message != want {
			t.Errorf("a %d-byte skip reason: %s %q…, want %q…", len(msg), r.Verdict, head(r.Message), head(want))
		}
	}
}

func head(s string) string {
	if len(s) > 40 {
		return "…" + s[len(s)-40:]
	}
	return s
}
