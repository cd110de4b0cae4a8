package logcheck

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// failurePrefix is the start of a CODE_RUN_FAILED text (CODE-FAIL-1/2),
// from the reference: "Error: code run failed (".
var failurePrefix = func() string {
	t := "Error: " + codemode.FailureText("\x00", "", nil)
	return t[:strings.IndexByte(t, 0)]
}()

// checkRunCode runs LOG-CHECK-CODE-1..3 on the first append result of a
// run_code call.
func (c *checker) checkRunCode(ev *event, cl *call, res *result, code string) {
	id := cl.id
	if res.meta != nil {
		c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-1", Violation, "run_code result carries meta (CODE-PRESENT-3)")
	}
	if res.blocks == nil {
		return
	}
	text, n, allText := c.blockTexts(res.bi)
	switch {
	case !res.isErrorOK:
	case !res.isError:
		switch {
		case n != 1 || !allText:
			c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-2", Violation, "successful run_code result has %d content block(s), want exactly one text block", n)
		case text == "":
			c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-2", Violation, "successful run_code result has an empty text; an empty run renders %q", codemode.NoOutputMarker)
		case text != codemode.NoOutputMarker && strings.Contains(text, codemode.NoOutputMarker):
			// A program may print the marker itself, so this is only suspicious.
			c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-2", Warning, "the no-output marker %q appears together with other text", codemode.NoOutputMarker)
		}
		if cl.argsProblem != "" {
			c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-3", Violation, "successful run_code call with invalid arguments (tool/call at seq %d): %s", cl.seq, cl.argsProblem)
		}
	case text == "":
		// Issue 10: every error text is the registry's "Error: …" envelope,
		// spilled or not, so an empty one is never a rendering of it.
		c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-2", Violation, "error run_code result has an empty text; every error text is the registry's %q envelope, spilled or not", "Error: …")
	case code == codemode.CodeRunFailedCode && !spilled(text):
		rest, ok := strings.CutPrefix(text, failurePrefix)
		kind, _, found := strings.Cut(rest, "): ")
		if !ok || !found || !codemode.IsFailureKind(kind) {
			c.report(ev.line, ev.seq, id, "LOG-CHECK-CODE-2", Violation, "CODE_RUN_FAILED text %s does not start with %q + one of the six failure kinds + \"): \"", quote(text), failurePrefix)
		}
	default:
		if why := envelopeProblem(text, res.errName, res.errCode, res.errOK); why != "" {
			c.report(ev.line, ev.seq, id, "CODE-ERR-1", c.hookLevel(), "run_code %s", why)
		}
	}
}

var (
	dispatchIDKeys = []string{"rootCallId", "parentCallId", "subCallId"}
	startKeys      = []string{"rootCallId", "parentCallId", "subCallId", "name", "arguments"}
	settleKeys     = []string{"rootCallId", "parentCallId", "subCallId", "name", "arguments", "isError", "content"}
	metaOptional   = []string{"meta"}
)

// dispatch checks one tool/code-dispatch-start or tool/code-dispatch
// event: its shape (LOG-CHECK-CODE-4), no meta (CODE-DISPATCH-6), its
// enclosure (LOG-CHECK-CODE-5) and spill bound (LOG-CHECK-CODE-8), and files
// it under its parent for the numbering and pairing rules, which
// codemode.ValidateDispatches checks when the parent's result arrives.
func (c *checker) dispatch(ev *event) {
	settle := ev.kind == evDispatchSettle
	ms := c.obj(ev.data)
	var p problems
	required := startKeys
	if settle {
		required = settleKeys
	}
	keySet(ms, required, metaOptional, &p, "data")
	var ids [3]string
	idsOK := true
	for i, k := range dispatchIDKeys {
		v, ok := get(ms, k)
		if !ok {
			idsOK = false
			continue
		}
		if ids[i], ok = c.id(v); !ok {
			p.add(k + " is not a string")
			idsOK = false
		}
	}
	root, parent, sub := ids[0], ids[1], ids[2]
	name := ""
	if v, ok := get(ms, "name"); ok {
		if name, ok = c.name(v); !ok {
			p.add("name is not a string")
		}
	}
	argsRaw, hasArgs := get(ms, "arguments")
	if hasArgs && argsRaw.Kind() == jsonjs.String {
		p.add("arguments is a string; dispatch arguments are a JSON value")
	}
	isError := false
	var content raw
	var bi blockInfo
	if settle {
		if v, ok := get(ms, "isError"); ok {
			var good bool
			if isError, good = v.Bool(); !good {
				p.add("isError is not a boolean")
			}
		}
		if v, ok := get(ms, "content"); ok {
			content = v
			if v.Kind() == jsonjs.Array { // a non-array is reported by ValidateDispatches
				var bad string
				if bi, bad = c.blocks(v, "content"); bad != "" {
					p.add(bad)
				}
			}
		}
	}
	if len(p) > 0 {
		c.report(ev.line, ev.seq, sub, "LOG-CHECK-CODE-4", Violation, "%s data: %s", ev.typ, p)
	}
	if _, ok := get(ms, "meta"); ok {
		c.report(ev.line, ev.seq, sub, "CODE-DISPATCH-6", Violation, "%s carries meta; sub-calls never compute presentationMeta", ev.typ)
	}
	if settle && content.Kind() == jsonjs.Array {
		c.dispatchSpill(ev, sub, content, bi)
		if tool := c.canon[name]; tool == toolGrep || tool == toolGlob {
			c.searchSettle(ev, sub, tool, isError, content, bi)
		}
	}
	if !idsOK {
		return
	}

	// LOG-CHECK-CODE-5: inside an open turn, between the parent's tool/call
	// and its result.
	if !c.turnOpen {
		c.report(ev.line, ev.seq, sub, "LOG-CHECK-CODE-5", Violation, "%s outside an open turn", ev.typ)
	}
	owner := c.open[parent]
	nested := false
	if owner == nil {
		if r := c.subs[parent]; r != nil {
			owner, nested = r, true
		}
	}
	if owner == nil {
		switch d := c.done.get(parent); {
		case d != nil:
			c.report(ev.line, ev.seq, sub, "LOG-CHECK-CODE-5", Violation, "%s after its parent %s's result at seq %d", ev.typ, showID(parent), d.resultSeq)
		default:
			c.report(ev.line, ev.seq, sub, "LOG-CHECK-CODE-5", Violation, "%s without an earlier open run_code tool/call %s", ev.typ, showID(parent))
		}
		return
	}
	if !nested && owner.tool != toolRunCode {
		c.report(ev.line, ev.seq, sub, "LOG-CHECK-CODE-5", Violation, "%s under parent %s, a %s call, not run_code", ev.typ, showID(parent), quote(owner.name))
		return
	}
	if owner.groups == nil {
		owner.groups = map[string]*dispGroup{}
	}
	g := owner.groups[parent]
	if g == nil {
		g = c.newGroup()
		owner.groups[parent] = g
		owner.groupOrder = append(owner.groupOrder, parent)
	}
	de := codemode.DispatchEvent{Seq: ev.seq}
	if settle {
		de.Settle = &codemode.DispatchSettle{RootCallID: root, ParentCallID: parent, SubCallID: sub, Name: name,
			IsError: isError, Content: contentStub(content)}
		c.addSettle(g, de, argsRaw)
	} else {
		de.Start = &codemode.DispatchStart{RootCallID: root, ParentCallID: parent, SubCallID: sub, Name: name}
		c.addStart(g, de, argsRaw)
	}
	g.lines = append(g.lines, ev.line)
	if sub != "" {
		if _, seen := c.subs[sub]; !seen {
			c.subs[sub] = owner
			owner.subIDs = append(owner.subIDs, sub)
		}
	}
}

// contentStub keeps only the JSON kind of a settle's content: the
// numbering and pairing rules look at nothing else, and the content can be
// large.
func contentStub(v raw) jsonjs.Value {
	switch v.Kind() {
	case jsonjs.Array:
		return jsonjs.ArrayValue()
	case jsonjs.Object:
		return jsonjs.ObjectValue()
	case jsonjs.String:
		return jsonjs.StringValue("")
	case jsonjs.Number:
		return jsonjs.IntValue(0)
	case jsonjs.Bool:
		return jsonjs.BoolValue(false)
	}
	return jsonjs.NullValue()
}

// noticeMarker is the middle of every spill notice, " bytes. Full
// formatted result stored at: ", from the reference's wording: a cheap test
// on a settle's raw content before decoding it.
var noticeMarker = func() []byte {
	n := spill.Notice(7, "\x00", "\x01")
	return []byte(n[strings.Index(n, "7")+1 : strings.Index(n, "\x00")])
}()

// dispatchSpill checks LOG-CHECK-CODE-8 on a settle's content.
func (c *checker) dispatchSpill(ev *event, sub string, content raw, bi blockInfo) {
	if !bytes.Contains(content, noticeMarker) && !bytes.Contains(content, uEscape) {
		return
	}
	text, n, allText := c.blockTexts(bi)
	if n != 1 || !allText {
		return
	}
	c.spillBound(ev, sub, "LOG-CHECK-CODE-8", text, spilled(text))
}

// searchSettle checks the text of a grep or glob sub-call's settle, which is
// what a top-level result would carry (CODE-DISPATCH-3): an error keeps the
// registry's envelope (SEARCH-ERR-1), and a success never names a saved
// full result, since the tool's own spill skips sub-calls (CODE-DISPATCH-6).
// A spilled text is a dispatch-arm preview and is not read.
func (c *checker) searchSettle(ev *event, sub, tool string, isError bool, content raw, bi blockInfo) {
	// The common settles are told apart on the raw line, without decoding:
	// an error text that opens with the envelope as written, a success of at
	// most one text block with no saved-result sentence (nor a \u escape).
	if isError && len(bi.texts) > 0 && bytes.HasPrefix(bi.texts[0], envelopeRaw) || !isError && len(bi.texts) < 2 && !bytes.Contains(content, storedAtRaw) && !bytes.Contains(content, uEscape) {
		return
	}
	text, _, _ := c.blockTexts(bi)
	if isError {
		if why := envelopeProblem(text, "", "", false); why != "" {
			c.report(ev.line, ev.seq, sub, "SEARCH-ERR-1", c.hookLevel(), "%s sub-call settle: %s", tool, why)
		}
		return
	}
	if spilled(text) {
		return
	}
	if savedRecovery(text, tool == toolGlob) {
		c.report(ev.line, ev.seq, sub, "CODE-DISPATCH-6", c.hookLevel(), "%s sub-call settle names a stored full result; the tool-owned spill runs only for top-level calls", tool)
	}
}

var (
	envelopeRaw, uEscape = []byte(`"Error: `), []byte(`\u`) // a \u escape may spell any character of the words looked for
	storedAtRaw          = []byte(" result stored at: ")    // SEARCH-GREP-5's and SEARCH-GLOB-5's saved forms
)

// savedRecovery reports whether a grep or glob text ends with the recovery
// sentence of a saved full result (SEARCH-GREP-5, SEARCH-GLOB-5).
func savedRecovery(text string, glob bool) bool {
	last, start := lastSegment(text)
	if start == 0 || !strings.HasPrefix(last, "(") || !strings.HasSuffix(last, ")") {
		return false
	}
	recovery := last[1 : len(last)-1]
	if glob {
		f, ok := search.ParseGlobFooter(last)
		if !ok {
			return false
		}
		recovery = f.Recovery
	} else if !strings.HasPrefix(text, "Found ") {
		return false
	}
	ref, ok := search.ParseRecovery(recovery, glob)
	return ok && ref != nil
}

// validateDispatches checks the numbering and pairing of a run_code call's
// dispatch events with the reference (LOG-CHECK-CODE-4/6, CODE-DISPATCH-*).
// logRule names a dispatch violation by the log check that finds it: the
// validator speaks in contract rules (CODE-DISPATCH-*), while check-log's
// authority is the digest's LOG-CHECK-* list (issue: check-log).
func logRule(contractRule string) string {
	switch contractRule {
	case "CODE-DISPATCH-1":
		return "LOG-CHECK-CODE-4" // subCallId = <parent>:code:<n>
	case "CODE-DISPATCH-2", "CODE-DISPATCH-3", "CODE-DISPATCH-4":
		return "LOG-CHECK-CODE-6" // numbering, one start and one settle each, pairing
	}
	return contractRule
}

func (c *checker) validateDispatches(cl *call, allowUnsettled bool) {
	for _, parent := range cl.groupOrder {
		g := cl.groups[parent]
		g.settleArgs()
		for _, v := range codemode.ValidateDispatches(parent, g.events, allowUnsettled) {
			c.report(g.lineOf(v.Seq), v.Seq, parent, logRule(v.Requirement), Violation, "%s", v.Message)
		}
		c.freeGroup(g)
	}
	cl.groups, cl.groupOrder = nil, nil
}

// freeGroupsMax bounds the validated groups kept for reuse.
const freeGroupsMax = 64

// newGroup returns an empty group, reusing a validated one's slices: most
// run_code calls file a few dispatch events, and growing three slices
// from nothing for each was most of a dispatch line's allocations.
func (c *checker) newGroup() *dispGroup {
	if n := len(c.freeGroups); n > 0 {
		g := c.freeGroups[n-1]
		c.freeGroups = c.freeGroups[:n-1]
		return g
	}
	return &dispGroup{}
}

// freeGroup empties a validated group (nothing refers to it any more) and
// keeps it for newGroup, unless the spare list is full or it is large.
func (c *checker) freeGroup(g *dispGroup) {
	if len(c.freeGroups) >= freeGroupsMax || cap(g.events) > arenaKeep {
		return
	}
	clear(g.events)
	clear(g.args)
	g.events, g.lines, g.args = g.events[:0], g.lines[:0], g.args[:0]
	c.freeGroups = append(c.freeGroups, g)
}
