package sessionlog

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// This file draws the content of a turn: its steps, the tool calls of each
// step with their raw arguments, and the results, rendered by the reference
// from generated op inputs.

// Tool names as logged.
const (
	toolGrep    = "grep"
	toolGlob    = "glob"
	toolRunCode = "run_code"
	toolRead    = "read"
	toolBash    = "bash"
)

// resultSpec is a tool result as logged: the single text block, isError,
// data.error and data.meta (each absent when IsNull).
type resultSpec struct {
	isError bool
	text    string
	errInfo jsonjs.Value
	meta    jsonjs.Value
}

// subSpec is one nested Code Mode sub-call.
type subSpec struct {
	name    string
	args    jsonjs.Value
	isError bool
	text    string
}

type callSpec struct {
	idx   int // index within the turn: the call id is call_<idx>_<tag>
	name  string
	args  string // the raw argument JSON string of the tool/call
	res   resultSpec
	subs  []subSpec
	order []int // dispatch events in log order: n > 0 starts sub n, n < 0 settles sub -n
	prune bool  // compaction replaces the result later in the step (LOG-RES-3)
	// pieces split args for a tool-call-chunks row; nil: one tool-call-delta.
	pieces []string
}

type stepSpec struct {
	text        string   // assistant text; "" for none
	pieces      []string // text split into deltas
	packed      bool     // the deltas are one text-chunks row
	calls       []*callSpec
	resultOrder []int // indexes into calls
}

type turnSpec struct {
	user  string
	steps []stepSpec // the last one has no calls
	seed  uint64     // drives times and token counts
}

// ---------------------------------------------------------------------------
// Running the reference

// runOp runs a reference op on a typed generator input and decodes the
// output's isError, content, error and meta.
func runOp(op string, input any) (resultSpec, error) {
	v, err := generators.InputValue(input)
	if err != nil {
		return resultSpec{}, err
	}
	outRaw, err := reference.Run(op, jsonjs.Marshal(v))
	if err != nil {
		return resultSpec{}, err
	}
	out, err := jsonjs.Parse(outRaw)
	if err != nil {
		return resultSpec{}, err
	}
	var r resultSpec
	isErr, _ := out.Get("isError")
	r.isError, _ = isErr.Bool()
	content, _ := out.Get("content")
	r.text, _ = content.Str()
	r.errInfo, _ = out.Get("error")
	r.meta, _ = out.Get("meta")
	return r, nil
}

// ---------------------------------------------------------------------------
// Arguments

// rawArgs writes a tool's raw argument string: compact JSON, or (as some
// models do) with a space after every ':' and ','.
func rawArgs(t *rapid.T, v jsonjs.Value) string {
	b := jsonjs.Marshal(v)
	if rapid.IntRange(0, 2).Draw(t, "spacedArgs") != 0 {
		return string(b)
	}
	return string(spaceJSON(b))
}

// spaceJSON adds one space after each ':' and ',' outside strings.
func spaceJSON(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	inStr, esc := false, false
	for _, c := range b {
		out = append(out, c)
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ':' || c == ','):
			out = append(out, ' ')
		}
	}
	return out
}

func obj(kv ...any) jsonjs.Value {
	ms := make([]jsonjs.Member, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		var v jsonjs.Value
		switch x := kv[i+1].(type) {
		case string:
			v = jsonjs.StringValue(x)
		case int:
			v = jsonjs.IntValue(x)
		case bool:
			v = jsonjs.BoolValue(x)
		case jsonjs.Value:
			v = x
		default:
			panic(fmt.Sprintf("sessionlog.obj: %T", x))
		}
		ms = append(ms, jsonjs.Member{Key: kv[i].(string), Value: v})
	}
	return jsonjs.ObjectValue(ms...)
}

// ---------------------------------------------------------------------------
// Tool calls

// deployment makes a drawn search configuration one a single deployment
// checked with the checker's defaults would have: searchMetaMaxBytes is the
// default 65536 and grepMaxLineBytes the default 2000 for every call (a log
// comes from one deployment, and check-log holds its previews to one
// maxLineBytes, SEARCH-PREVIEW-2; the inline
// caps, which the checker does not assume, still vary), and a saved spill
// artifact has a non-empty retrieval hint (the checker reads the
// SEARCH-GREP-5 / SEARCH-GLOB-5 saved form as "<locator>. <hint>" with a
// hint).
func deployment(config jsonjs.Value, spill *search.SpillStore) (jsonjs.Value, *search.SpillStore) {
	members, _ := config.Members()
	kept := make([]jsonjs.Member, 0, len(members))
	for _, m := range members {
		if m.Key != "maxMetaBytes" && m.Key != "maxLineBytes" {
			kept = append(kept, m)
		}
	}
	if spill != nil && spill.Saved && spill.RetrievalHint == "" {
		s := *spill
		s.RetrievalHint = "Use read with offset/limit, or grep this path to search within it."
		spill = &s
	}
	return jsonjs.ObjectValue(kept...), spill
}

// drawSearch draws a grep or glob call and renders its result with the
// reference. A nested call gets object arguments (the program passes an
// object) and nested:true; a top-level call gets nested:false.
func drawSearch(t *rapid.T, name string, nested bool) (jsonjs.Value, resultSpec) {
	for {
		var (
			args jsonjs.Value
			res  resultSpec
			err  error
		)
		if name == toolGrep {
			in := generators.GrepInput().Draw(t, "grepInput")
			in.Nested = nested
			if nested && in.Args.Kind() != jsonjs.Object {
				in.Args = obj("pattern", "TODO")
			}
			in.Config, in.Spill = deployment(in.Config, in.Spill)
			args = in.Args
			res, err = runOp(reference.OpGrepResult, in)
		} else {
			in := generators.GlobInput().Draw(t, "globInput")
			in.Nested = nested
			if nested && in.Args.Kind() != jsonjs.Object {
				in.Args = obj("pattern", "**/*.ts")
			}
			in.Config, in.Spill = deployment(in.Config, in.Spill)
			args = in.Args
			res, err = runOp(reference.OpGlobResult, in)
		}
		if err == nil {
			return args, res
		}
		// A configuration the harness refuses to load has no result; draw again.
	}
}

var readFiles = []string{"a.txt", "b.txt", "big.txt", "src/main.go", "docs/guide.md", "日本/ファイル.ts", "missing.txt"}

var readLines = []string{"alpha", "beta", "line five", "package main", "", "const x = \"<a&b>\";", "\ttabbed", "é€😀"}

// drawRead draws a read call: a window of a small file (with the read card
// meta real logs carry) or a missing file (a typed FsError).
func drawRead(t *rapid.T) (jsonjs.Value, resultSpec) {
	file := rapid.SampledFrom(readFiles).Draw(t, "readFile")
	args := obj("file_path", file)
	if file == "missing.txt" {
		return args, resultSpec{
			isError: true,
			text:    `Error: cannot read "{{cwd}}/` + file + `": not found`,
			errInfo: obj("name", "FsError", "code", "FS_NOT_FOUND"),
		}
	}
	n := rapid.IntRange(1, 6).Draw(t, "readLineCount")
	var body strings.Builder
	lines := make([]jsonjs.Value, n)
	for i := 0; i < n; i++ {
		l := rapid.SampledFrom(readLines).Draw(t, "readLine")
		fmt.Fprintf(&body, "%d: %s\n", i+1, l)
		lines[i] = obj("number", i+1, "text", l)
	}
	path := "{{cwd}}/" + file
	text := fmt.Sprintf("<path>%s</path>\n<type>file</type>\n<content>\n%s\n(End of file - total %d lines)\n</content>", path, body.String(), n)
	meta := obj("path", path, "offset", 1, "lines", jsonjs.ArrayValue(lines...), "totalLines", n)
	return args, resultSpec{text: text, meta: meta}
}

var bashWords = []string{"CODE_ONE", "CODE_TWO", "hello", "DONE", "x y", "é"}

// drawBash draws a bash call: echo a word, or a failing command.
func drawBash(t *rapid.T) (jsonjs.Value, resultSpec) {
	word := rapid.SampledFrom(bashWords).Draw(t, "bashWord")
	if rapid.IntRange(0, 5).Draw(t, "bashFails") == 0 {
		args := obj("command", "cat "+word, "description", "Show "+word)
		return args, resultSpec{isError: true, text: "cat: " + word + ": No such file or directory\n\n(exit code 1)"}
	}
	args := obj("command", "echo "+word, "description", "Print "+word)
	return args, resultSpec{text: word + "\n"}
}

// drawPlain draws a read or bash call.
func drawPlain(t *rapid.T, name string) (jsonjs.Value, resultSpec) {
	if name == toolRead {
		return drawRead(t)
	}
	return drawBash(t)
}

// drawRunCode draws a run_code call rendered by the reference and, when the
// program ran (arguments valid, description not blank), 0..4 nested
// sub-calls with their start/settle order (CODE-DISPATCH-1..4).
func drawRunCode(t *rapid.T, c *callSpec) {
	in := generators.RunCodeInput().Draw(t, "runCodeInput")
	res, err := runOp(reference.OpRunCodeResult, in)
	if err != nil {
		panic(fmt.Sprintf("sessionlog: run_code.result: %v", err)) // generated runs are always in domain
	}
	c.args = rawArgs(t, in.Args)
	c.res = res
	desc, _ := in.Args.Get("description")
	d, _ := desc.Str()
	if len(codemode.CheckArgs(in.Args)) > 0 || jsonjs.IsBlank(d) {
		return // the body never ran: no sub-calls
	}
	m := rapid.IntRange(0, 4).Draw(t, "subCalls")
	for i := 0; i < m; i++ {
		var s subSpec
		s.name = rapid.SampledFrom([]string{toolGrep, toolGlob, toolBash, toolRead}).Draw(t, "subName")
		var r resultSpec
		switch s.name {
		case toolGrep, toolGlob:
			s.args, r = drawSearch(t, s.name, true)
		default:
			s.args, r = drawPlain(t, s.name)
		}
		s.isError, s.text = r.isError, r.text
		c.subs = append(c.subs, s)
	}
	// Starts in n order; each settle after its own start, settles in any
	// order relative to each other and to later starts.
	var open []int
	next := 1
	for next <= m || len(open) > 0 {
		if next <= m && (len(open) == 0 || rapid.Bool().Draw(t, "startNext")) {
			c.order = append(c.order, next)
			open = append(open, next)
			next++
			continue
		}
		k := rapid.IntRange(0, len(open)-1).Draw(t, "settleWhich")
		c.order = append(c.order, -open[k])
		open = append(open[:k:k], open[k+1:]...)
	}
}

// drawCall draws one top-level tool call.
func drawCall(t *rapid.T, idx int) *callSpec {
	c := &callSpec{idx: idx}
	c.name = rapid.SampledFrom([]string{toolGrep, toolGrep, toolGrep, toolGlob, toolGlob, toolGlob, toolRunCode, toolRunCode, toolRunCode, toolRead, toolBash}).Draw(t, "tool")
	switch c.name {
	case toolGrep, toolGlob:
		var args jsonjs.Value
		args, c.res = drawSearch(t, c.name, false)
		c.args = rawArgs(t, args)
	case toolRunCode:
		drawRunCode(t, c)
	default:
		var args jsonjs.Value
		args, c.res = drawPlain(t, c.name)
		c.args = rawArgs(t, args)
	}
	c.prune = len(c.res.text) > 80 && rapid.IntRange(0, 3).Draw(t, "prune") == 0
	if rapid.IntRange(0, 3).Draw(t, "packedCall") == 0 {
		c.pieces = splitPieces(t, c.args, "argPiece")
	}
	return c
}

// ---------------------------------------------------------------------------
// Text

var userTexts = []string{
	"Find every TODO under src and summarize them.",
	"Using ONE run_code program: grep for FIXME, then glob the test files. Reply DONE.",
	"List the TypeScript files in tree and read a.txt.",
	"Search for \"<a&b>\" and tell me where it is.",
	"日本語のファイルを探して 😀",
}

var assistantTexts = []string{
	"Let me search the tree first.",
	"DONE",
	"CODE_ONE+CODE_TWO",
	"I found the matches; reading the first file now.",
	"GLOB_SAMPLED",
	"Résumé: 3 fichiers — voilà.",
}

func drawText(t *rapid.T, label string) string {
	if rapid.IntRange(0, 4).Draw(t, label+"Kind") == 0 {
		if s := generators.PlainString().Draw(t, label); s != "" {
			return s
		}
	}
	return rapid.SampledFrom(assistantTexts).Draw(t, label)
}

// splitPieces splits s into 1..n non-empty pieces at rune boundaries, as a
// model streams it ("" stays one empty piece).
func splitPieces(t *rapid.T, s, label string) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for len(s) > 0 {
		n := rapid.IntRange(1, 8).Draw(t, label)
		if n >= len(s) {
			out = append(out, s)
			break
		}
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// ---------------------------------------------------------------------------
// Turns

func drawStep(t *rapid.T, calls []*callSpec, final bool) stepSpec {
	var s stepSpec
	if final || rapid.Bool().Draw(t, "stepHasText") {
		s.text = drawText(t, "assistantText")
		s.pieces = splitPieces(t, s.text, "textPiece")
		s.packed = len(s.pieces) > 1 && rapid.Bool().Draw(t, "packedText")
	}
	s.calls = calls
	s.resultOrder = make([]int, len(calls))
	for i := range s.resultOrder {
		s.resultOrder[i] = i
	}
	if len(calls) > 1 && rapid.Bool().Draw(t, "permuteResults") {
		s.resultOrder = rapid.Permutation(s.resultOrder).Draw(t, "resultOrder")
	}
	return s
}

// drawTurnSpec draws one turn: a user message, 1..3 steps with 1..3 tool
// calls each, and a final text step.
func drawTurnSpec(t *rapid.T) turnSpec {
	ts := turnSpec{user: rapid.SampledFrom(userTexts).Draw(t, "userText")}
	ts.seed = rapid.Uint64().Draw(t, "timeSeed")
	idx := 0
	for i, n := 0, rapid.IntRange(1, 3).Draw(t, "toolSteps"); i < n; i++ {
		var calls []*callSpec
		for j, m := 0, rapid.IntRange(1, 3).Draw(t, "callsPerStep"); j < m; j++ {
			calls = append(calls, drawCall(t, idx))
			idx++
		}
		ts.steps = append(ts.steps, drawStep(t, calls, false))
	}
	ts.steps = append(ts.steps, drawStep(t, nil, true))
	return ts
}

// drawTurn draws and renders one turn.
func drawTurn(t *rapid.T) turnTmpl { return renderTurn(drawTurnSpec(t)) }
