package fuzz

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// deepMeta answers as the reference does, with the output's meta replaced
// by arrays nested levels deep (issue 23).
type deepMeta struct{ levels int }

func (deepMeta) Ops() []string { return reference.Ops() }

func (h deepMeta) Run(op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	jsonjs.EachRawMember(out, func(k, v []byte) bool {
		if !jsonjs.RawKeyIs(k, "meta") {
			b.Write(k)
			b.WriteByte(':')
			b.Write(v)
			b.WriteByte(',')
		}
		return true
	})
	b.WriteString(`"meta":` + strings.Repeat("[", h.levels) + strings.Repeat("]", h.levels) + "}")
	return b.Bytes(), nil
}

// TestJudgeDeepAnswer: the fuzzer judges an answer whose meta is nested
// 10^6 levels deep in at most 100 bytes a level, the golden answer, the
// comparison, its excerpts and blame included, and keeps a bounded result (before: 1401 bytes a level, and a
// whole copy of the meta in the diff).
func TestJudgeDeepAnswer(t *testing.T) {
	const levels = 1_000_000
	text := []byte(`{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.ts","lineNumber":1,"line":"x"}]}}`)
	value, err := jsonjs.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	s := adapter.InProcess(deepMeta{levels}, adapter.Implementation{Name: "deep"})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := judgeInput(context.Background(), s, "grep.result/fuzz-1", reference.OpGrepResult, nil, Input{Value: value, Text: text}, time.Minute)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	perLevel := (after.TotalAlloc - before.TotalAlloc) / levels
	t.Logf("%d bytes a level", perLevel)
	if perLevel > 100 {
		t.Errorf("judging allocated %d bytes a level, want at most 100", perLevel)
	}
	if res.Verdict != verdict.Fail || len(res.Diffs) == 0 {
		t.Fatalf("verdict %s with %d diffs, want a failure", res.Verdict, len(res.Diffs))
	}
	for _, d := range res.Diffs {
		if n := len(d.WantJSON) + len(d.GotJSON) + len(d.Want) + len(d.Got); n > 4096 {
			t.Errorf("diff %s %s keeps %d bytes", d.Field, d.Path, n)
		}
	}
	if d := res.Diffs[0]; d.Path != "$.meta" || !d.GotTooLarge {
		t.Errorf("first diff %s (got too large: %v), want $.meta, too large", d.Path, d.GotTooLarge)
	}
}
