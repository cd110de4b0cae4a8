package sessionlog

import (
	"fmt"
	"strings"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// Mutation breaks exactly one requirement of a well-formed log, and nothing
// else a checker would report as a violation: structural edits renumber the
// seqs (and every reference to them) so that seqs stay contiguous and
// strictly increasing. Apply reports ok=false when the log has no place to
// apply it (e.g. no run_code call with two sub-calls); it never modifies its
// argument.
type Mutation struct {
	Name        string
	Requirement string
	Apply       func(Log) (Log, bool)
}

// Mutations lists the mutations, one line of documentation each.
func Mutations() []Mutation {
	return []Mutation{
		// The header line is dropped: the log starts with its first event.
		{"missing-header", "LOG-2", mutMissingHeader},
		// The header says version 1 (only 0 exists).
		{"header-version", "LOG-2", edit(mutHeaderVersion)},
		// A step/end repeats the seq of the line before it (seqs no longer strictly increase).
		{"non-increasing-seq", "LOG-CHECK-1", edit(mutNonIncreasingSeq)},
		// A step/end event carries surfaceOp "append", which only message/result events may.
		{"surface-op-on-step-end", "LOG-3", edit(mutSurfaceOpOnStepEnd)},
		// A text-chunks row has len(dt) = len(texts) instead of len(texts)-1.
		{"packed-dt-length", "LOG-4", edit(mutPackedDtLength)},
		// An event of an unknown type without ignorable:true is inserted after turn/start.
		{"unknown-event-type", "LOG-6", edit(mutUnknownType)},
		// A (read/bash, else search) tool/call is deleted; its result remains.
		{"result-without-call", "LOG-CHECK-2", edit(mutResultWithoutCall)},
		// A result cites the seq of the event before its call.
		{"result-wrong-seq", "LOG-CHECK-2", edit(mutResultWrongSeq)},
		// A result is appended twice (second copy with a fresh message id).
		{"second-append-result", "LOG-CHECK-2", edit(mutSecondAppend)},
		// A result's step differs from its call's.
		{"result-step-mismatch", "LOG-CHECK-2", edit(mutResultStep)},
		// A result's message.source.callId differs from its toolCallId.
		{"result-source-mismatch", "LOG-CHECK-2", edit(mutResultSource)},
		// A successful read/bash result gets error info.
		{"error-on-success", "LOG-CHECK-3", edit(mutErrorOnSuccess)},
		// A (non-run_code) result's error info loses its code member.
		{"error-info-malformed", "LOG-CHECK-3", edit(mutErrorMalformed)},
		// A successful grep/glob result loses its meta.
		{"search-meta-missing", "LOG-CHECK-SEARCH-1", edit(mutSearchMetaMissing)},
		// An error grep/glob result gets a (zero-result) meta.
		{"search-meta-on-error", "LOG-CHECK-SEARCH-1", edit(mutSearchMetaOnError)},
		// A search meta says "kind" instead of "shape".
		{"search-meta-kind", "LOG-CHECK-SEARCH-2", edit(mutSearchMetaKind)},
		// A search meta gets an extra member "title".
		{"search-meta-extra-member", "LOG-CHECK-SEARCH-2", edit(mutSearchMetaExtra)},
		// A search meta lists total before truncated.
		{"search-meta-member-order", "LOG-CHECK-SEARCH-2", edit(mutSearchMetaOrder)},
		// A glob result is re-rendered by the reference over 700 long paths at maxMetaBytes 2^30: a consistent meta of ~70 KB.
		{"search-meta-over-cap", "LOG-CHECK-SEARCH-3", edit(mutSearchMetaOverCap)},
		// A grep result re-rendered over 43 matches keeps the untruncated meta of its first 3 with total 43.
		{"search-wrong-total", "LOG-CHECK-SEARCH-4", edit(mutSearchWrongTotal)},
		// An untruncated, non-empty search meta far below the cap says truncated:true (text unchanged).
		{"search-truncated-flipped", "LOG-CHECK-SEARCH-5", edit(mutSearchTruncatedFlipped)},
		// A glob result (3 paths) loses its middle path from the text only.
		{"search-path-dropped", "LOG-CHECK-SEARCH-5", edit(mutSearchPathDropped)},
		// A run_code result gets a meta.
		{"run-code-meta", "LOG-CHECK-CODE-1", edit(mutRunCodeMeta)},
		// A successful run_code result's text is empty.
		{"run-code-empty-text", "LOG-CHECK-CODE-2", edit(mutRunCodeEmpty(true))},
		// An error run_code result's text is empty (no "Error: …" envelope).
		{"run-code-error-empty-text", "LOG-CHECK-CODE-2", edit(mutRunCodeEmpty(false))},
		// A CODE_RUN_FAILED result names a failure kind that does not exist.
		{"run-code-failure-kind", "LOG-CHECK-CODE-2", edit(mutRunCodeFailureKind)},
		// A successful run_code call's description is blank.
		{"run-code-blank-description", "LOG-CHECK-CODE-3", edit(mutBlankDescription)},
		// The last sub-call of a parent gets subCallId <parent>x:code:<n> (start and settle).
		{"dispatch-wrong-parent-prefix", "LOG-CHECK-CODE-4", edit(mutDispatchPrefix)},
		// A sub-call's start and settle name a rootCallId other than their parentCallId.
		{"dispatch-wrong-root", "LOG-CHECK-CODE-4", edit(mutDispatchRoot)},
		// A parent's last sub-call (its start and settle) moves after the parent's result.
		{"dispatch-after-result", "LOG-CHECK-CODE-5", edit(mutDispatchAfterResult)},
		// The first start of a parent with two or more starts is deleted (starts number 2..m).
		{"dispatch-missing-start", "LOG-CHECK-CODE-6", edit(mutDispatchMissingStart)},
		// The last start of a parent with two or more starts is deleted: a settle without a start while other sub-calls have starts (LOG-DISP-2 excuses only logs with no starts).
		{"dispatch-missing-last-start", "LOG-CHECK-CODE-6", edit(mutDispatchMissingLastStart)},
		// The last sub-call of a parent is numbered m+1 (start and settle).
		{"dispatch-skipped-number", "LOG-CHECK-CODE-6", edit(mutDispatchSkipped)},
		// A settle's arguments differ from its start's.
		{"dispatch-settle-arguments", "LOG-CHECK-CODE-6", edit(mutDispatchSettleArgs)},
		// The last sub-call's settle is deleted.
		{"dispatch-missing-settle", "LOG-CHECK-CODE-6", edit(mutDispatchMissingSettle)},
		// A sub-call's settle moves right before its start.
		{"dispatch-settle-before-start", "LOG-CHECK-CODE-6", edit(mutDispatchSettleFirst)},
		// A bash tool/call (with its result) uses a sub-call's id as its call id.
		{"tool-call-for-sub-call", "LOG-CHECK-CODE-7", edit(mutToolCallForSubCall)},
		// An error grep/glob result's text loses its "Error: " prefix (issue 22: whatever its error info).
		{"search-error-no-envelope", "SEARCH-ERR-1", edit(mutSearchErrorNoEnvelope)},
		// An argument-check error of grep/glob (plain, no error info) gets {ToolArgsError, INVALID_ARGS}.
		{"search-args-error-typed", "SEARCH-ERR-1", edit(mutSearchArgsErrorTyped)},
		// An error grep/glob sub-call's settle text loses its "Error: " prefix.
		{"settle-error-no-envelope", "SEARCH-ERR-1", edit(mutSettleErrorNoEnvelope)},
		// An error run_code result that is not CODE_RUN_FAILED loses its "Error: " prefix.
		{"run-code-error-no-envelope", "CODE-ERR-1", edit(mutRunCodeErrorNoEnvelope)},
		// A grep result re-rendered with a line that ends in a lone surrogate, in meta and text alike.
		{"grep-line-lone-surrogate", "SEARCH-PREVIEW-3", edit(mutGrepLoneSurrogate)},
		// A grep result re-rendered with two cut lines, the second keeping 1,992 bytes instead of 2,000.
		{"grep-preview-cut-sizes", "SEARCH-PREVIEW-2", edit(mutGrepCutSizes)},
		// A glob result re-rendered with sampling says "sampled across 3 of the 6" for a page from 4 entries.
		{"glob-sample-shown", "SEARCH-SAMPLE-5", edit(mutGlobSampleShown)},
		// A successful grep/glob sub-call's settle says its full result was stored.
		{"settle-stored-full-result", "CODE-DISPATCH-6", edit(mutSettleStored)},
	}
}

// edit adapts an in-place mutation of a parsed log; the mutation renumbers
// when it changed the structure.
func edit(f func(m *mlog) bool) func(Log) (Log, bool) {
	return func(l Log) (Log, bool) {
		m, ok := parseLog(l)
		if !ok || !f(m) {
			return l, false
		}
		return m.log(), true
	}
}

// ---------------------------------------------------------------------------
// Envelope and structure

func mutMissingHeader(l Log) (Log, bool) {
	if len(l.Lines) < 2 {
		return l, false
	}
	return Log{Name: l.Name, Lines: append([][]byte(nil), l.Lines[1:]...)}, true
}

func mutHeaderVersion(m *mlog) bool {
	if len(m.val) == 0 || typeOf(m.val[0]) != "session" {
		return false
	}
	m.setAt(0, jsonjs.IntValue(1), "version")
	return true
}

func firstOfType(m *mlog, typ string) int {
	for i, v := range m.val {
		if typeOf(v) == typ {
			return i
		}
	}
	return -1
}

func mutNonIncreasingSeq(m *mlog) bool {
	i := firstOfType(m, "step/end")
	if i < 2 {
		return false
	}
	s0, n, ok := seqSpan(m.val[i-1])
	if !ok {
		return false
	}
	m.setAt(i, jsonjs.NumberValue(float64(s0+n-1)), "seq")
	return true
}

func mutSurfaceOpOnStepEnd(m *mlog) bool {
	i := firstOfType(m, "step/end")
	if i < 0 {
		return false
	}
	m.setAt(i, jsonjs.StringValue("append"), "surfaceOp")
	return true
}

func mutPackedDtLength(m *mlog) bool {
	i := firstOfType(m, "text-chunks")
	if i < 0 {
		return false
	}
	dt, _ := getPath(m.val[i], "data", "dt")
	items, _ := dt.Items()
	m.setAt(i, jsonjs.ArrayValue(append(append([]jsonjs.Value(nil), items...), jsonjs.IntValue(1))...), "data", "dt")
	return true
}

func mutUnknownType(m *mlog) bool {
	i := firstOfType(m, "turn/start")
	if i < 0 {
		return false
	}
	at := i + 1
	m.insert(at, obj("type", "conform/unknown-event", "seq", -1, "time", jsonjs.NumberValue(float64(m.timeBefore(at))), "data", obj("note", "not in the vocabulary")))
	m.renumber()
	return true
}

// ---------------------------------------------------------------------------
// Call/result pairing and error info

// Preferences for calls whose results no other check reads closely.
var (
	plainNoReplace  = func(c *callInfo) bool { return c.isPlain() && c.result >= 0 && c.replace < 0 }
	searchNoReplace = func(c *callInfo) bool { return c.isSearch() && c.result >= 0 && c.replace < 0 }
)

func mutResultWithoutCall(m *mlog) bool {
	c := m.index().pick(plainNoReplace, searchNoReplace)
	if c == nil {
		return false
	}
	m.remove(c.line)
	m.renumber()
	return true
}

func mutResultWrongSeq(m *mlog) bool {
	c := m.index().pick(plainNoReplace, searchNoReplace)
	if c == nil || c.seq < 1 {
		return false
	}
	m.setAt(c.result, intList(c.seq-1), "sourceEventSeqs")
	return true
}

func mutSecondAppend(m *mlog) bool {
	c := m.index().pick(plainNoReplace, searchNoReplace)
	if c == nil {
		return false
	}
	v := m.val[c.result]
	v = setPath(v, jsonjs.IntValue(-1), "seq")
	v = setPath(v, jsonjs.StringValue(strAt(v, "data", "message", "id")+"-again"), "data", "message", "id")
	at := c.result + 1
	v = setPath(v, jsonjs.NumberValue(float64(m.timeBefore(at))), "time")
	m.insert(at, v)
	m.renumber()
	return true
}

func mutResultStep(m *mlog) bool {
	c := m.index().pick(plainNoReplace, searchNoReplace)
	if c == nil {
		return false
	}
	step, _ := intAt(m.val[c.result], "data", "step")
	m.setAt(c.result, jsonjs.NumberValue(float64(step+1)), "data", "step")
	return true
}

func mutResultSource(m *mlog) bool {
	c := m.index().pick(plainNoReplace, searchNoReplace)
	if c == nil {
		return false
	}
	m.setAt(c.result, jsonjs.StringValue(c.id+"-other"), "data", "message", "source", "callId")
	return true
}

func mutErrorOnSuccess(m *mlog) bool {
	c := m.index().pick(func(c *callInfo) bool {
		return c.isPlain() && c.result >= 0 && c.replace < 0 && !boolAt(m.val[c.result], pIsError...)
	})
	if c == nil {
		return false
	}
	m.setAt(c.result, obj("name", "FsError", "code", "FS_NOT_FOUND"), pError...)
	return true
}

func mutErrorMalformed(m *mlog) bool {
	c := m.index().pick(func(c *callInfo) bool {
		if c.name == toolRunCode || c.result < 0 || c.replace >= 0 {
			return false
		}
		_, has := getPath(m.val[c.result], pError...)
		return has
	})
	if c == nil {
		return false
	}
	m.set(c.result, delPath(m.val[c.result], "data", "error", "code"))
	return true
}

// ---------------------------------------------------------------------------
// Search results

// searchOK picks a successful top-level grep/glob result (name "" = either).
func searchOK(m *mlog, name string) *callInfo {
	ix := m.index()
	return ix.pick(func(c *callInfo) bool {
		return c.isSearch() && (name == "" || c.name == name) && c.result >= 0 && !boolAt(m.val[c.result], pIsError...)
	})
}

func mutSearchMetaMissing(m *mlog) bool {
	c := searchOK(m, "")
	if c == nil {
		return false
	}
	m.set(c.result, delPath(m.val[c.result], pMeta...))
	if c.replace >= 0 { // a replacement keeps the original's meta (LOG-RES-3)
		m.set(c.replace, delPath(m.val[c.replace], pMeta...))
	}
	return true
}

func mutSearchMetaOnError(m *mlog) bool {
	c := m.index().pick(func(c *callInfo) bool {
		return c.isSearch() && c.result >= 0 && boolAt(m.val[c.result], pIsError...)
	})
	if c == nil {
		return false
	}
	meta := obj("shape", "paths", "paths", jsonjs.ArrayValue(), "truncated", false, "total", 0)
	if c.name == toolGrep {
		meta = obj("shape", "matches", "files", jsonjs.ArrayValue(), "truncated", false, "total", 0)
	}
	setMeta(m, c, meta)
	return true
}

// setMeta sets the meta of c's result and of its replacement, if any (a
// replacement keeps the original's meta, LOG-RES-3).
func setMeta(m *mlog, c *callInfo, meta jsonjs.Value) {
	m.setAt(c.result, meta, pMeta...)
	if c.replace >= 0 {
		m.setAt(c.replace, meta, pMeta...)
	}
}

// editMeta replaces the meta of a successful search result (and of its
// replacement) by f(meta).
func editMeta(m *mlog, f func(jsonjs.Value) jsonjs.Value) bool {
	return editMetaOf(m, searchOK(m, ""), f)
}

// editMetaOf replaces the meta of c's result (and of its replacement) by
// f(meta); it reports false when c is nil or its result has no meta.
func editMetaOf(m *mlog, c *callInfo, f func(jsonjs.Value) jsonjs.Value) bool {
	if c == nil {
		return false
	}
	meta, ok := getPath(m.val[c.result], pMeta...)
	if !ok {
		return false
	}
	setMeta(m, c, f(meta))
	return true
}

func mutSearchMetaKind(m *mlog) bool {
	return editMeta(m, func(v jsonjs.Value) jsonjs.Value { return renameKey(v, "shape", "kind") })
}

func mutSearchMetaExtra(m *mlog) bool {
	return editMeta(m, func(v jsonjs.Value) jsonjs.Value { return setPath(v, jsonjs.StringValue("Search results"), "title") })
}

func mutSearchMetaOrder(m *mlog) bool {
	return editMeta(m, func(v jsonjs.Value) jsonjs.Value {
		tr, _ := v.Get("truncated")
		return setPath(delPath(v, "truncated"), tr, "truncated") // now after total
	})
}

// rerender replaces a successful search result's text and meta with the
// reference's rendering of input (whose args are the call's own).
func rerender(m *mlog, c *callInfo, op string, input any, adjust func(text string, meta jsonjs.Value) (string, jsonjs.Value)) bool {
	res, err := runOp(op, input)
	if err != nil || res.isError || res.meta.IsNull() {
		return false
	}
	text, meta := res.text, res.meta
	if adjust != nil {
		text, meta = adjust(text, meta)
	}
	m.setAt(c.result, jsonjs.StringValue(text), pText...)
	setMeta(m, c, meta)
	return true
}

func callArgs(m *mlog, c *callInfo) (jsonjs.Value, bool) {
	v, err := jsonjs.Parse([]byte(strAt(m.val[c.line], "data", "arguments")))
	return v, err == nil
}

// searchOKArgs picks a successful top-level search result (as searchOK) and
// parses its call's arguments; c is nil when there is none or they do not
// parse.
func searchOKArgs(m *mlog, name string) (*callInfo, jsonjs.Value) {
	c := searchOK(m, name)
	if c == nil {
		return nil, jsonjs.Value{}
	}
	args, ok := callArgs(m, c)
	if !ok {
		return nil, jsonjs.Value{}
	}
	return c, args
}

func mutSearchMetaOverCap(m *mlog) bool {
	c, args := searchOKArgs(m, toolGlob)
	if c == nil {
		return false
	}
	paths := make([]string, 700)
	for i := range paths {
		paths[i] = fmt.Sprintf("src/dir%03d/%s.ts", i, strings.Repeat("x", 80))
	}
	in := search.GlobInput{Args: args, Value: search.GlobValue{Root: ".", Paths: paths},
		Config: obj("maxResults", 5000, "maxMetaBytes", 1<<30, "sampleOverCap", false)}
	return rerender(m, c, reference.OpGlobResult, in, nil)
}

// bigMatches are three one-match files a.ts, b.ts, c.ts and a fourth file
// d.ts with 40 matches of 1990-byte lines: its meta group alone is over
// 80 KB, so at the default 65536 cap the meta keeps a, b and c, truncated,
// while the text (maxMatches 250) shows all 43 matches.
func bigMatches() []search.Match {
	ms := []search.Match{
		{Path: "a.ts", LineNumber: 1, Line: strings.Repeat("x", 60)},
		{Path: "b.ts", LineNumber: 2, Line: strings.Repeat("y", 60)},
		{Path: "c.ts", LineNumber: 3, Line: strings.Repeat("z", 60)},
	}
	for i := 0; i < 40; i++ {
		ms = append(ms, search.Match{Path: "d.ts", LineNumber: float64(10 + i), Line: strings.Repeat("d", 1990)})
	}
	return ms
}

func mutSearchWrongTotal(m *mlog) bool {
	c, args := searchOKArgs(m, toolGrep)
	if c == nil {
		return false
	}
	// The text of all 43 matches with the untruncated meta of the first
	// three files, whose total says 43: truncated:false, yet total > count.
	small, err := runOp(reference.OpGrepResult, search.GrepInput{Args: args, Value: search.GrepValue{Matches: bigMatches()[:3]}, Config: obj()})
	if err != nil || small.meta.IsNull() {
		return false
	}
	in := search.GrepInput{Args: args, Value: search.GrepValue{Matches: bigMatches()}, Config: obj()}
	return rerender(m, c, reference.OpGrepResult, in, func(text string, meta jsonjs.Value) (string, jsonjs.Value) {
		total, _ := meta.Get("total")
		return text, setPath(small.meta, total, "total")
	})
}

func mutSearchTruncatedFlipped(m *mlog) bool {
	c := m.index().pick(func(c *callInfo) bool {
		if !c.isSearch() || c.result < 0 || boolAt(m.val[c.result], pIsError...) {
			return false
		}
		meta, ok := getPath(m.val[c.result], pMeta...)
		total, _ := intAt(meta, "total")
		tr, isBool := getPath(meta, "truncated")
		b, _ := tr.Bool()
		return ok && isBool && !b && total > 0 && jsonjs.Size(meta) < 60000
	})
	return editMetaOf(m, c, func(v jsonjs.Value) jsonjs.Value { return setPath(v, jsonjs.BoolValue(true), "truncated") })
}

func mutSearchPathDropped(m *mlog) bool {
	c, args := searchOKArgs(m, toolGlob)
	if c == nil {
		return false
	}
	in := search.GlobInput{Args: args, Value: search.GlobValue{Root: ".", Paths: []string{"src/a.ts", "src/b.ts", "src/c.ts"}},
		Config: obj("sampleOverCap", false)}
	return rerender(m, c, reference.OpGlobResult, in, func(text string, meta jsonjs.Value) (string, jsonjs.Value) {
		return strings.Replace(text, "src/b.ts\n", "", 1), meta
	})
}

// ---------------------------------------------------------------------------
// run_code results

func runCodeResult(m *mlog, success bool) *callInfo {
	return m.index().pick(func(c *callInfo) bool {
		return c.name == toolRunCode && c.result >= 0 && boolAt(m.val[c.result], pIsError...) != success
	})
}

func mutRunCodeMeta(m *mlog) bool {
	c := runCodeResult(m, true)
	if c == nil {
		return false
	}
	m.setAt(c.result, obj("lines", 1), pMeta...)
	return true
}

// mutRunCodeEmpty empties the text of a successful or an error run_code
// result.
func mutRunCodeEmpty(success bool) func(*mlog) bool {
	return func(m *mlog) bool {
		c := runCodeResult(m, success)
		if c == nil {
			return false
		}
		m.setAt(c.result, jsonjs.StringValue(""), pText...)
		return true
	}
}

func mutRunCodeFailureKind(m *mlog) bool {
	const prefix = "Error: code run failed ("
	c := m.index().pick(func(c *callInfo) bool {
		return c.name == toolRunCode && c.result >= 0 && strAt(m.val[c.result], "data", "error", "code") == codemode.CodeRunFailedCode &&
			strings.HasPrefix(strAt(m.val[c.result], pText...), prefix)
	})
	if c == nil {
		return false
	}
	text := strAt(m.val[c.result], pText...)
	rest := text[len(prefix):]
	k := strings.Index(rest, "): ")
	if k < 0 {
		return false
	}
	m.setAt(c.result, jsonjs.StringValue(prefix+"crash"+rest[k:]), pText...)
	return true
}

func mutBlankDescription(m *mlog) bool {
	c := runCodeResult(m, true)
	if c == nil {
		return false
	}
	args, ok := callArgs(m, c)
	if !ok {
		return false
	}
	args = setPath(args, jsonjs.StringValue(" \u00a0"), "description")
	m.setAt(c.line, jsonjs.StringValue(string(jsonjs.Marshal(args))), "data", "arguments")
	return true
}

// ---------------------------------------------------------------------------
// Dispatch events

// withSubs picks a run_code call with a result and at least min sub-calls,
// each started and settled.
func withSubs(m *mlog, min int) *callInfo {
	return m.index().pick(func(c *callInfo) bool {
		return c.name == toolRunCode && c.result >= 0 && c.lastSub >= min && len(c.settles) == c.lastSub && len(c.starts) == c.lastSub
	})
}

// setSub sets data.<key> of sub-call n's start and settle.
func setSub(m *mlog, c *callInfo, n int, key, value string) {
	m.setAt(c.starts[n], jsonjs.StringValue(value), "data", key)
	m.setAt(c.settles[n], jsonjs.StringValue(value), "data", key)
}

func mutDispatchPrefix(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	n := c.lastSub
	setSub(m, c, n, "subCallId", codemode.SubCallID(c.id+"x", n))
	return true
}

func mutDispatchRoot(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	setSub(m, c, c.lastSub, "rootCallId", c.id+"-root")
	return true
}

func mutDispatchAfterResult(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	n := c.lastSub
	start, settle := c.starts[n], c.settles[n]
	// Move the settle first (it is after the start), each right after the
	// result, so they end up as result, start, settle.
	m.move(settle, c.result+1)
	res := c.result - 1 // the settle was before the result
	m.move(start, res+1)
	m.renumber()
	return true
}

// removeDispatch deletes one dispatch event, chosen by which, of a call
// with at least subs sub-calls, and renumbers the seqs.
func removeDispatch(subs int, which func(c *callInfo) int) func(*mlog) bool {
	return func(m *mlog) bool {
		c := withSubs(m, subs)
		if c == nil {
			return false
		}
		m.remove(which(c))
		m.renumber()
		return true
	}
}

var (
	mutDispatchMissingStart     = removeDispatch(2, func(c *callInfo) int { return c.starts[1] })
	mutDispatchMissingLastStart = removeDispatch(2, func(c *callInfo) int { return c.starts[c.lastSub] })
	mutDispatchMissingSettle    = removeDispatch(1, func(c *callInfo) int { return c.settles[c.lastSub] })
)

func mutDispatchSkipped(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	n := c.lastSub
	setSub(m, c, n, "subCallId", codemode.SubCallID(c.id, n+1))
	return true
}

func mutDispatchSettleArgs(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	i := c.settles[1]
	args, _ := getPath(m.val[i], "data", "arguments")
	if args.Kind() == jsonjs.Object {
		args = setPath(args, jsonjs.BoolValue(true), "conformChanged")
	} else {
		args = jsonjs.ArrayValue(args)
	}
	m.setAt(i, args, "data", "arguments")
	return true
}

func mutDispatchSettleFirst(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	m.move(c.settles[1], c.starts[1])
	m.renumber()
	return true
}

func mutToolCallForSubCall(m *mlog) bool {
	c := withSubs(m, 1)
	if c == nil {
		return false
	}
	call := m.val[c.line]
	sub := strAt(m.val[c.starts[1]], "data", "subCallId")
	at := c.result + 1
	t := jsonjs.NumberValue(float64(m.timeBefore(at)))
	turn, _ := getPath(call, "data", "turn")
	step, _ := getPath(call, "data", "step")
	args := `{"command":"echo nested","description":"Print nested"}`
	m.insert(at, obj("type", "tool/call", "seq", -2, "time", t, "data",
		obj("turn", turn, "step", step, "callId", sub, "name", toolBash, "arguments", args)))
	m.insert(at+1, obj("type", "tool/result", "seq", -1, "time", t, "data",
		obj("turn", turn, "step", step, "message", obj(
			"source", obj("kind", "tool", "callId", sub),
			"content", jsonjs.ArrayValue(obj("type", "tool-result", "toolCallId", sub,
				"content", jsonjs.ArrayValue(obj("type", "text", "text", "nested\n")), "isError", false)),
			"role", "user", "id", sub+"-result")),
		"sourceEventSeqs", intList(-2), "surfaceOp", "append"))
	// Both inserted lines carry placeholder seqs, so renumber leaves the
	// result's citation alone; point it at the call's new seq afterwards.
	renumberWithInserted(m, at)
	return true
}

// renumberWithInserted renumbers after inserting a tool/call at line at
// whose result (at+1) cites it by the placeholder seq -2.
func renumberWithInserted(m *mlog, at int) {
	m.renumber()
	s, _ := intAt(m.val[at], "seq")
	m.setAt(at+1, intList(s), "sourceEventSeqs")
}

// ---------------------------------------------------------------------------
// Error envelopes, previews, sampling and nested spills (issue 22)

// searchError picks an error grep/glob result whose text is the registry's
// envelope and, when args is set, an argument-check error (no error info).
func searchError(m *mlog, args bool) *callInfo {
	return m.index().pick(func(c *callInfo) bool {
		if !c.isSearch() || c.result < 0 || !boolAt(m.val[c.result], pIsError...) {
			return false
		}
		text := strAt(m.val[c.result], pText...)
		_, hasErr := getPath(m.val[c.result], pError...)
		return strings.HasPrefix(text, "Error: ") && (!args || !hasErr && !strings.HasPrefix(text, "Error: invalid arguments: "))
	})
}

func mutSearchErrorNoEnvelope(m *mlog) bool {
	c := searchError(m, false)
	if c == nil {
		return false
	}
	m.setAt(c.result, jsonjs.StringValue(strings.TrimPrefix(strAt(m.val[c.result], pText...), "Error: ")), pText...)
	return true
}

func mutSearchArgsErrorTyped(m *mlog) bool {
	c := searchError(m, true)
	if c == nil {
		return false
	}
	m.setAt(c.result, obj("name", "ToolArgsError", "code", "INVALID_ARGS"), pError...)
	return true
}

var pSettleText = []any{"data", "content", 0, "text"}

// searchSettle picks a grep/glob settle that is an error or a success.
func searchSettle(m *mlog, isError bool) int {
	for _, c := range m.index().calls {
		for _, i := range c.settles {
			name := strAt(m.val[i], "data", "name")
			if (name == toolGrep || name == toolGlob) && boolAt(m.val[i], "data", "isError") == isError &&
				strings.HasPrefix(strAt(m.val[i], pSettleText...), "Error: ") == isError {
				return i
			}
		}
	}
	return -1
}

func mutSettleErrorNoEnvelope(m *mlog) bool {
	i := searchSettle(m, true)
	if i < 0 {
		return false
	}
	m.setAt(i, jsonjs.StringValue(strings.TrimPrefix(strAt(m.val[i], pSettleText...), "Error: ")), pSettleText...)
	return true
}

func mutSettleStored(m *mlog) bool {
	i := searchSettle(m, false)
	if i < 0 {
		return false
	}
	text := "Found 1 of 3 matches\n\na.ts\nLine 1: x\n\n(Full grep result stored at: /spill/x1-grep.txt. Use read with offset/limit.)"
	if strAt(m.val[i], "data", "name") == toolGlob {
		text = "a.ts\n\n(Showing 1 of 3 paths. Full sorted result stored at: /spill/x1-glob.txt. Use read with offset/limit.)"
	}
	m.setAt(i, jsonjs.StringValue(text), pSettleText...)
	return true
}

func mutRunCodeErrorNoEnvelope(m *mlog) bool {
	c := m.index().pick(func(c *callInfo) bool {
		return c.name == toolRunCode && c.result >= 0 && boolAt(m.val[c.result], pIsError...) &&
			strAt(m.val[c.result], "data", "error", "code") != codemode.CodeRunFailedCode &&
			strings.HasPrefix(strAt(m.val[c.result], pText...), "Error: ")
	})
	if c == nil {
		return false
	}
	m.setAt(c.result, jsonjs.StringValue(strings.TrimPrefix(strAt(m.val[c.result], pText...), "Error: ")), pText...)
	return true
}

// loneLow is U+DC80 as WTF-8, a lone trail surrogate.
const loneLow = "\xed\xb2\x80"

func mutGrepLoneSurrogate(m *mlog) bool {
	c, args := searchOKArgs(m, toolGrep)
	if c == nil {
		return false
	}
	in := search.GrepInput{Args: args, Value: search.GrepValue{Matches: []search.Match{{Path: "src/a.ts", LineNumber: 1, Line: "fixed"}}}}
	return rerender(m, c, reference.OpGrepResult, in, func(text string, meta jsonjs.Value) (string, jsonjs.Value) {
		return strings.Replace(text, "Line 1: fixed", "Line 1: fixed"+loneLow, 1),
			setPath(meta, jsonjs.StringValue("fixed"+loneLow), "files", 0, "matches", 0, "line")
	})
}

func mutGrepCutSizes(m *mlog) bool {
	c, args := searchOKArgs(m, toolGrep)
	if c == nil {
		return false
	}
	long := func(b string) string { return strings.Repeat(b, 2100) }
	in := search.GrepInput{Args: args, Value: search.GrepValue{Matches: []search.Match{
		{Path: "src/a.ts", LineNumber: 1, Line: long("x")}, {Path: "src/a.ts", LineNumber: 2, Line: long("z")}}}}
	const mark = " (line truncated)"
	short := strings.Repeat("z", 1992) + mark
	return rerender(m, c, reference.OpGrepResult, in, func(text string, meta jsonjs.Value) (string, jsonjs.Value) {
		return strings.Replace(text, strings.Repeat("z", 2000)+mark, short, 1),
			setPath(meta, jsonjs.StringValue(short), "files", 0, "matches", 1, "line")
	})
}

func mutGlobSampleShown(m *mlog) bool {
	c, args := searchOKArgs(m, toolGlob)
	if c == nil {
		return false
	}
	in := search.GlobInput{Args: args, Value: search.GlobValue{Root: ".", Paths: []string{"a/1.ts", "a/2.ts", "b/1.ts", "c/1.ts", "d/1.ts", "e/1.ts", "f/1.ts"}},
		Config: obj("maxResults", 4, "sampleOverCap", true)}
	return rerender(m, c, reference.OpGlobResult, in, func(text string, meta jsonjs.Value) (string, jsonjs.Value) {
		return strings.Replace(text, "sampled across 4 of the 6", "sampled across 3 of the 6", 1), meta
	})
}
