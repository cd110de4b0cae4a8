package generators

import (
	"strings"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// This file generates run_code.result inputs and well-formed Code Mode
// dispatch event sequences.

// FailureKinds are the six run failure kinds of CODE-FAIL-1.
var FailureKinds = []string{
	codemode.KindException, codemode.KindTimeout, codemode.KindAbort,
	codemode.KindWorkerExit, codemode.KindInvalidOutput, codemode.KindOutputLimit,
}

// genLogAtoms are whole log entries worth having: empty ones (which vanish alone
// but not in pairs, CODE-RENDER-2), embedded and trailing newlines
// (CODE-RENDER-3) and text that looks like JSON.
var genLogAtoms = []string{"", "", "printed", "l1\nl2", "x\n", "\n", "captured output", "{\"x\": 1}", "null", "😀 done", "\u2028"}

// Logs draws a run's captured log entries: none, or up to four entries that
// may be empty or hold newlines.
func Logs() *rapid.Generator[[]string] {
	return rapid.Custom(func(t *rapid.T) []string {
		n := rapid.IntRange(0, 4).Draw(t, "logCount")
		logs := make([]string, n)
		for i := range logs {
			if rapid.Bool().Draw(t, "atomLog") {
				logs[i] = rapid.SampledFrom(genLogAtoms).Draw(t, "log")
			} else {
				logs[i] = UnicodeString().Draw(t, "log")
			}
		}
		return logs
	})
}

// genRunCodeArgs draws run_code arguments: mostly {code, description} (with an
// extra member sometimes), sometimes a blank description (ECMAScript
// whitespace only, CODE-ERR-1) or arguments failing the schema.
func genRunCodeArgs(t *rapid.T) jsonjs.Value {
	switch genChoice(t, "argsKind", 20) {
	case 0:
		return rapid.SampledFrom([]jsonjs.Value{
			jsonjs.NullValue(), jsonjs.ArrayValue(), genStr("return 1"), jsonjs.ObjectValue(),
			jsonjs.ObjectValue(genMember("code", genStr("return 1"))),
			jsonjs.ObjectValue(genMember("description", genStr("d"))),
			jsonjs.ObjectValue(genMember("code", jsonjs.IntValue(1)), genMember("description", genStr("d"))),
			jsonjs.ObjectValue(genMember("code", genStr("x")), genMember("description", jsonjs.NullValue())),
			jsonjs.ObjectValue(genMember("code", jsonjs.IntValue(1))),
		}).Draw(t, "invalidArgs")
	case 1:
		blank := rapid.SampledFrom([]string{"", " ", "\t\n", "\u00a0\uFEFF", "\u2028\u3000"}).Draw(t, "blank")
		return jsonjs.ObjectValue(genMember("code", genStr("return 1")), genMember("description", genStr(blank)))
	}
	code := rapid.SampledFrom([]string{"return 1", "console.log('a'); return {x: 1}", "", "const r = await tools.grep({pattern: 'x'});\nreturn r"}).Draw(t, "code")
	desc := rapid.SampledFrom([]string{"Run two echo commands and join outputs", "d", " padded ", "日本語の説明", "\u0085"}).Draw(t, "description")
	members := []jsonjs.Member{genMember("code", genStr(code)), genMember("description", genStr(desc))}
	if genChoice(t, "extraArg", 7) == 0 {
		members = append(members, genMember("timeoutMs", jsonjs.IntValue(1000)))
	}
	if genChoice(t, "swapped", 7) == 0 {
		members[0], members[1] = members[1], members[0]
	}
	return jsonjs.ObjectValue(members...)
}

// RunCodeInput draws a run_code.result input: arguments (mostly valid) and
// a run that completed with no value, with a lossless JSON value (strings,
// "", null, 0, false, deep containers, tricky numbers and keys, never -0:
// CODE-LOSSLESS-1), or failed with one of the six kinds (CODE-FAIL-1), each
// with or without logs.
func RunCodeInput() *rapid.Generator[codemode.ResultInput] {
	return rapid.Custom(func(t *rapid.T) codemode.ResultInput {
		in := codemode.ResultInput{Args: genRunCodeArgs(t)}
		in.Run.Logs = Logs().Draw(t, "logs")
		switch genChoice(t, "outcome", 10) {
		case 0, 1: // no completion value
		case 2, 3, 4, 5, 6:
			var v jsonjs.Value
			switch genChoice(t, "resultKind", 5) {
			case 0:
				v = genStr(UnicodeString().Draw(t, "resultString"))
			case 1:
				v = rapid.SampledFrom([]jsonjs.Value{genStr(""), jsonjs.NullValue(), jsonjs.IntValue(0), jsonjs.BoolValue(false), jsonjs.ArrayValue(), jsonjs.ObjectValue()}).Draw(t, "falsy")
			default:
				v = LosslessJSONValue(8).Draw(t, "result")
			}
			in.Run.Result = &v
		default:
			in.Run.Error = &codemode.RunError{
				Kind:    rapid.SampledFrom(FailureKinds).Draw(t, "kind"),
				Message: rapid.SampledFrom([]string{"boom", "outer output exceeded 8 bytes", "compute budget exhausted (300ms busy)", "user-cancel", "program completion must be lossless JSON", "", "line1\nline2"}).Draw(t, "message"),
			}
		}
		return in
	})
}

// RunCodeInputValue writes a run_code.result input as docs/ops.md reads it:
// {args, run: {logs, result?, error?: {kind, message}}}, result and error
// only when present (an absent result and "result": null render
// differently, CODE-RENDER-1).
func RunCodeInputValue(in codemode.ResultInput) jsonjs.Value {
	r := in.Run
	logs := make([]jsonjs.Value, len(r.Logs))
	for i, l := range r.Logs {
		logs[i] = genStr(l)
	}
	run := []jsonjs.Member{genMember("logs", jsonjs.ArrayValue(logs...))}
	if r.Result != nil {
		run = append(run, genMember("result", *r.Result))
	}
	if r.Error != nil {
		run = append(run, genMember("error", nobj("kind", r.Error.Kind, "message", r.Error.Message)))
	}
	return jsonjs.ObjectValue(genMember("args", in.Args), genMember("run", jsonjs.ObjectValue(run...)))
}

// DispatchSequence is the dispatch events of one outer run_code call, in
// log order.
type DispatchSequence struct {
	Outer  string // the outer run_code call id
	Root   string // its root call id (Outer for a top-level call)
	Starts int    // m: the starts are numbered 1..m
	Events []codemode.DispatchEvent
}

// Dispatches draws a well-formed dispatch sequence (CODE-DISPATCH-1..4,
// LOG-CHECK-CODE-4/6): the outer call is top-level or itself a sub-call
// "R:code:k"; starts are numbered 1..m in log order; each settle comes after
// its own start, settles interleave with later starts in any order, and
// repeat their start's identity and arguments. Sequence numbers increase
// with gaps. m is between minStarts and 6.
func Dispatches(minStarts int) *rapid.Generator[DispatchSequence] {
	return rapid.Custom(func(t *rapid.T) DispatchSequence {
		root := rapid.SampledFrom([]string{"call_1", "C", "toolu_01ABC", "c:x"}).Draw(t, "root")
		outer := root
		if genChoice(t, "nestedOuter", 4) == 0 {
			outer = codemode.SubCallID(root, rapid.IntRange(1, 12).Draw(t, "outerN"))
		}
		m := rapid.IntRange(minStarts, max(minStarts, 6)).Draw(t, "starts")
		starts := make([]codemode.DispatchStart, m)
		for i := range starts {
			starts[i] = codemode.DispatchStart{
				RootCallID: root, ParentCallID: outer, SubCallID: codemode.SubCallID(outer, i+1),
				Name:      rapid.SampledFrom([]string{"bash", "grep", "glob", "read"}).Draw(t, "name"),
				Arguments: genDispatchArgs(t),
			}
		}
		seq := DispatchSequence{Outer: outer, Root: root, Starts: m}
		var open []int // started, not settled
		next, at := 0, int64(rapid.IntRange(1, 20).Draw(t, "firstSeq"))
		for next < m || len(open) > 0 {
			at += int64(rapid.IntRange(1, 3).Draw(t, "seqGap"))
			if next < m && (len(open) == 0 || rapid.Bool().Draw(t, "startNext")) {
				s := starts[next]
				seq.Events = append(seq.Events, codemode.DispatchEvent{Seq: at, Start: &s})
				open = append(open, next)
				next++
				continue
			}
			k := rapid.IntRange(0, len(open)-1).Draw(t, "settleWhich")
			i := open[k]
			open = append(open[:k:k], open[k+1:]...)
			s := starts[i]
			isError := genChoice(t, "settleError", 5) == 0
			text := "CODE_ONE\n"
			if isError {
				text = "Error: tool call aborted"
			}
			seq.Events = append(seq.Events, codemode.DispatchEvent{Seq: at, Settle: &codemode.DispatchSettle{
				RootCallID: s.RootCallID, ParentCallID: s.ParentCallID, SubCallID: s.SubCallID, Name: s.Name,
				Arguments: s.Arguments, IsError: isError,
				Content: jsonjs.ArrayValue(jsonjs.ObjectValue(genMember("type", genStr("text")), genMember("text", genStr(text)))),
			}})
		}
		return seq
	})
}

func genDispatchArgs(t *rapid.T) jsonjs.Value {
	if rapid.Bool().Draw(t, "simpleArgs") {
		cmd := rapid.SampledFrom([]string{"echo CODE_ONE", "echo CODE_TWO", "ls"}).Draw(t, "command")
		return jsonjs.ObjectValue(genMember("command", genStr(cmd)), genMember("description", genStr("Print "+strings.TrimPrefix(cmd, "echo "))))
	}
	return LosslessJSONValue(3).Draw(t, "arguments")
}
