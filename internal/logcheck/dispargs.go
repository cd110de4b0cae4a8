package logcheck

import (
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Dispatch arguments are compared by codemode.ValidateDispatches only
// between a sub-call's first start and its first settle (CODE-DISPATCH-3:
// deep-equal). Building both trees for every sub-call is most of a
// dispatch line's cost, so a start keeps the text of its arguments
// instead, and its tree is built only when it is needed:
//
//   - when the settle's arguments are the same bytes, both events get one
//     shared value: byte-equal texts parse to equal trees (whether a line
//     is UTF-8 or not, the same bytes decode alike), so FirstDifference
//     says "" as it would on the two trees;
//   - otherwise, or when the start is never paired, the tree is built from
//     the kept text as the line's reading would have built it (Parse, or
//     ParseReplacing for text that is not UTF-8).

// pendingArgs is a start's argument text whose tree is not built yet.
type pendingArgs struct {
	text    string
	pending bool
}

// sameArgs stands for both arguments of a byte-equal pair.
var sameArgs = jsonjs.NullValue()

// argsTree builds the tree of a kept argument text as the line's reading
// would (U+FFFD for bytes that are not UTF-8); null when absent.
func argsTree(text string) jsonjs.Value {
	return jsonjs.Raw(text).ValueReplacing()
}

// addStart files a start, keeping its argument text.
func (c *checker) addStart(g *dispGroup, de codemode.DispatchEvent, argsRaw raw) {
	g.events = append(g.events, de)
	g.args = append(g.args, pendingArgs{text: string(argsRaw), pending: true})
}

// addSettle files a settle and settles the arguments of the start it is
// compared with.
func (c *checker) addSettle(g *dispGroup, de codemode.DispatchEvent, argsRaw raw) {
	sub := de.Settle.SubCallID
	start := -1
	for i, ev := range g.events {
		if ev.Settle != nil && ev.Settle.SubCallID == sub {
			start = -1 // not the first settle: compared with nothing
			break
		}
		if ev.Start != nil && ev.Start.SubCallID == sub && start < 0 {
			start = i
		}
	}
	switch {
	case start >= 0 && g.args[start].pending && g.args[start].text == string(argsRaw):
		g.events[start].Start.Arguments, de.Settle.Arguments = sameArgs, sameArgs
		g.args[start] = pendingArgs{}
	case start >= 0 && g.args[start].pending:
		g.events[start].Start.Arguments = argsTree(g.args[start].text)
		g.args[start] = pendingArgs{}
		de.Settle.Arguments = c.argsValue(argsRaw)
	default:
		de.Settle.Arguments = c.argsValue(argsRaw)
	}
	g.events = append(g.events, de)
	g.args = append(g.args, pendingArgs{})
}

// argsValue is the tree of a line's arguments (null when absent).
func (c *checker) argsValue(r raw) jsonjs.Value {
	if r == nil {
		return jsonjs.NullValue()
	}
	return c.value(r)
}

// settleArgs builds the trees still pending, before the group is validated.
func (g *dispGroup) settleArgs() {
	for i, pa := range g.args {
		if pa.pending {
			g.events[i].Start.Arguments = argsTree(pa.text)
			g.args[i] = pendingArgs{}
		}
	}
}
