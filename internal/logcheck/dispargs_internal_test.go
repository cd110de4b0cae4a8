package logcheck

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// checkText runs Check on a log and returns the findings' messages.
func checkText(t *testing.T, log string) []string {
	t.Helper()
	var out []string
	if _, err := Check(strings.NewReader(log), "t.jsonl", Defaults(), func(f Finding) {
		out = append(out, f.Requirement+" "+f.Message)
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDispatchArgumentsDeferred covers every way a start's arguments get
// their tree (dispargs.go): byte-equal pair, equal trees spelt apart,
// different trees, a settle before its start, a start never settled.
func TestDispatchArgumentsDeferred(t *testing.T) {
	b, err := os.ReadFile("testdata/rules/code6-arguments-differ.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	base := string(b)
	const settleArgs = `"arguments":{"pattern":"y"}`
	if !strings.Contains(base, settleArgs) {
		t.Fatal("fixture changed")
	}
	differ := func(msgs []string) bool {
		return strings.Contains(strings.Join(msgs, "\n"), "settle arguments differ from its start's at $.pattern")
	}
	if got := checkText(t, base); !differ(got) || len(got) != 1 {
		t.Errorf("different arguments: %q", got)
	}
	if got := checkText(t, strings.Replace(base, settleArgs, `"arguments":{"pattern":"x"}`, 1)); len(got) != 0 {
		t.Errorf("byte-equal arguments: %q", got)
	}
	if got := checkText(t, strings.Replace(base, settleArgs, `"arguments":{ "pattern" : "\u0078" }`, 1)); len(got) != 0 {
		t.Errorf("equal arguments spelt apart: %q", got)
	}
	lines := strings.Split(base, "\n")
	for i, l := range lines {
		if strings.Contains(l, `"tool/code-dispatch-start"`) {
			lines[i], lines[i+1] = lines[i+1], lines[i] // the settle first (seqs swap too)
			lines[i] = strings.Replace(lines[i], `"seq":12`, `"seq":11`, 1)
			lines[i+1] = strings.Replace(lines[i+1], `"seq":11`, `"seq":12`, 1)
			break
		}
	}
	got := checkText(t, strings.Join(lines, "\n"))
	if !differ(got) || !strings.Contains(strings.Join(got, "\n"), "precedes its start") {
		t.Errorf("settle before its start: %q", got)
	}
	// A second settle, byte-equal to the start, is compared with nothing:
	// the start is still compared with the first settle.
	for i, l := range lines {
		if strings.Contains(l, `"tool/code-dispatch-start"`) {
			second := strings.Replace(strings.Replace(lines[i-1], `"seq":11`, `"seq":13`, 1), settleArgs, `"arguments":{"pattern":"x"}`, 1)
			lines = append(lines[:i+1], append([]string{second}, lines[i+1:]...)...)
			break
		}
	}
	got = checkText(t, strings.Join(lines, "\n"))
	if !differ(got) || !strings.Contains(strings.Join(got, "\n"), "second settle") {
		t.Errorf("a second settle: %q", got)
	}
}

// TestSettleArgsBuildsUnpairedStarts: a start without a settle gets the
// tree of its kept text before validation.
func TestSettleArgsBuildsUnpairedStarts(t *testing.T) {
	c := newChecker("t.jsonl", Defaults(), nil)
	g := &dispGroup{}
	c.addStart(g, codemode.DispatchEvent{Seq: 1, Start: &codemode.DispatchStart{SubCallID: "c:code:1"}}, raw(`{"a":[1,"\ud800"]}`))
	c.addStart(g, codemode.DispatchEvent{Seq: 2, Start: &codemode.DispatchStart{SubCallID: "c:code:2"}}, nil)
	g.settleArgs()
	want, _ := jsonjs.Parse([]byte(`{"a":[1,"\ud800"]}`))
	if !jsonjs.Equal(g.events[0].Start.Arguments, want) || !bytes.Equal(jsonjs.Marshal(g.events[1].Start.Arguments), []byte("null")) {
		t.Fatalf("got %s and %s", jsonjs.Marshal(g.events[0].Start.Arguments), jsonjs.Marshal(g.events[1].Start.Arguments))
	}
	if g.args[0].pending || g.args[1].pending {
		t.Fatal("still pending")
	}
}

// TestSeqListSpellings: the plain reading of sourceEventSeqs and the
// general one agree on every spelling.
func TestSeqListSpellings(t *testing.T) {
	for in, want := range map[string]string{
		`[]`: "[] true", `[0]`: "[0] true", `[3,10,200]`: "[3 10 200] true", `[ 1 ]`: "[1] true", `[1e2]`: "[100] true",
		`[100.0]`: "[100] true", `[-0]`: "[0] true", `[1,-1]`: "[] false", `[1.5]`: "[] false",
		`[123456789012345]`: "[123456789012345] true", `[9007199254740991]`: "[9007199254740991] true",
		`[9007199254740992]`: "[] false", `["1"]`: "[] false", `{}`: "[] false",
	} {
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(in)) {
			t.Fatal(in)
		}
		c.validUTF8 = true
		got, ok := c.seqList(c.lz.Root())
		if s := fmt.Sprint(got) + " " + fmt.Sprint(ok); s != want {
			t.Errorf("%s: got %v %v, want %s", in, got, ok, want)
		}
	}
}

// A settle settles its start's kept text at once, the first start too
// (dispargs.go:58:16 and 61:13/16 survived the full run: with the start
// at index 0 left out, a pair kept its start's text pending until the
// group was validated, and a byte-equal pair built two trees instead of
// standing as sameArgs).
func TestJudgeAddSettleSettlesTheFirstStartAtOnce(t *testing.T) {
	for _, c := range []struct {
		settle   string
		want     string // the start's arguments once settled
		settleTo string // the settle's
	}{
		{`{"p":"x"}`, "null", "null"}, // byte-equal: sameArgs on both sides
		{`{"p":"y"}`, `{"p":"x"}`, `{"p":"y"}`},
	} {
		ck := newChecker("t.jsonl", Defaults(), nil)
		ck.lz.Scan([]byte(c.settle))
		ck.validUTF8 = true
		g := &dispGroup{}
		ck.addStart(g, codemode.DispatchEvent{Seq: 1, Start: &codemode.DispatchStart{SubCallID: "c:code:1"}}, raw(`{"p":"x"}`))
		ck.addSettle(g, codemode.DispatchEvent{Seq: 2, Settle: &codemode.DispatchSettle{SubCallID: "c:code:1"}}, raw(c.settle))
		if g.args[0].pending || g.args[0].text != "" {
			t.Errorf("settle %s: the start's text is still kept (pending %v, %q)", c.settle, g.args[0].pending, g.args[0].text)
		}
		if got := string(jsonjs.Marshal(g.events[0].Start.Arguments)); got != c.want {
			t.Errorf("settle %s: the start's arguments are %s, want %s", c.settle, got, c.want)
		}
		if got := string(jsonjs.Marshal(g.events[1].Settle.Arguments)); got != c.settleTo {
			t.Errorf("settle %s: the settle's arguments are %s, want %s", c.settle, got, c.settleTo)
		}
	}
}
