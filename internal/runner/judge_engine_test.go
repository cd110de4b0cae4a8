package runner_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
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

// A shard of one (--shard 0/1) holds every case and copies none: it costs
// Select what no shard costs (cases.go:113, N > 1).
func TestJudgeShardOfOneCopiesNothing(t *testing.T) {
	cs := make([]runner.Case, 500)
	for i := range cs {
		cs[i] = runner.Case{ID: "grep.result/" + strconv.Itoa(i), Op: "grep.result"}
	}
	one, err := runner.ParseShard("--shard", "0/1")
	if err != nil {
		t.Fatal(err)
	}
	var got []runner.Case
	whole := testing.AllocsPerRun(5, func() { got = runner.Select(cs, runner.Selection{}) })
	sharded := testing.AllocsPerRun(5, func() { got = runner.Select(cs, runner.Selection{Shard: one}) })
	if len(got) != len(cs) || sharded > whole {
		t.Fatalf("shard 0/1: %d of %d cases, %.0f allocations, %.0f without a shard", len(got), len(cs), sharded, whole)
	}
}

// A required op whose every case was skipped is a reason the run is not
// conformant, naming how many were; one pass is a verdict of its own
// (summary.go 246-248).
func TestJudgeOpAllSkippedIsAReason(t *testing.T) {
	never := func(vs ...verdict.Verdict) bool {
		rep := &runner.Report{}
		for i, v := range vs {
			rep.Cases = append(rep.Cases, runner.CaseResult{ID: "grep.result/" + strconv.Itoa(i), Op: "grep.result", Verdict: v})
		}
		for _, r := range runner.Reasons(rep) {
			if r.Kind == runner.ReasonOpNeverPassed && r.Subject == "grep.result" {
				// the count of the op's cases (summary.go:246, opCases)
				return strings.HasSuffix(r.Message, "all "+strconv.Itoa(len(vs))+" were skipped")
			}
		}
		return false
	}
	if !never(verdict.Skipped, verdict.Skipped) {
		t.Error("every grep case skipped: no reason")
	}
	if never(verdict.Pass, verdict.Skipped) || never(verdict.Pass) {
		t.Error("a grep case passed: the op never passed")
	}
}

// A process session bounds its own runs, so a caller's timeout shorter
// than adapter.RunBound is only a backstop no earlier than that bound
// (engine.go:290): a case run with a 1 ns timeout still gets the
// adapter's answer, judged, where the raw 1 ns deadline would expire
// before the request is written.
func TestJudgeProcessSessionOutlivesAShortTimeout(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := adapter.Start(ctx, adapter.Config{Argv: []string{exe}, Env: append(os.Environ(), adapterEnv+"=1")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	input := `{"args":{"pattern":"x"},"value":{"matches":[{"path":"a","lineNumber":1,"line":"x"}]}}`
	out, err := reference.Run("grep.result", []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, string(out))
	c := runner.Case{ID: "grep.result/judge-short-timeout", Op: "grep.result", Input: []byte(input), InputValue: mustParse(t, input),
		Want: runner.Want{Output: &want}, Requirements: []string{"SEARCH-GREP-1"}}
	if r := runner.RunCase(ctx, s, c, time.Nanosecond); r.Verdict != verdict.Pass {
		t.Fatalf("a 1 ns timeout on a process session: %s %q, want pass", r.Verdict, r.Message)
	}
}
