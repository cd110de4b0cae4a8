package codemode

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// DispatchEvent is one dispatch event of a session log, in log order:
// exactly one of Start and Settle is set. Seq is the event's log sequence
// number, used only to point at it in violations.
type DispatchEvent struct {
	Seq    int64
	Start  *DispatchStart
	Settle *DispatchSettle
}

// Violation is one broken dispatch rule: the requirement it breaks, the seq
// of the offending event and a one-line message.
type Violation struct {
	Requirement string `json:"requirement"`
	Seq         int64  `json:"seq"`
	Message     string `json:"message"`
}

// String renders the violation on one line.
func (v Violation) String() string {
	return fmt.Sprintf("%s at seq %d: %s", v.Requirement, v.Seq, v.Message)
}

// ValidateDispatches checks the dispatch events of ONE outer run_code call,
// given in log order, and returns the violations ordered by event position
// (nil when the sequence is well-formed). It checks:
//
//   - each event is exactly a start or a settle, its three ids are non-empty,
//     parentCallId is the outer call and rootCallId is the outer call or, for
//     a nested outer call "R:code:…", its root R; all events of the call share
//     one rootCallId, so a subCallId never changes it (LOG-CHECK-CODE-4);
//     a settle's content is an array (LOG-DISP-1 via LOG-CHECK-CODE-4);
//   - subCallId is "<outer>:code:<n>", n >= 1 without leading zeros
//     (CODE-DISPATCH-1);
//   - the starts' n values in log order are exactly 1, 2, …, m
//     (CODE-DISPATCH-4);
//   - at most one start and one settle per subCallId (LOG-CHECK-CODE-6);
//   - a settle comes after its start (CODE-DISPATCH-4) and repeats its name
//     and arguments, deep-equal (CODE-DISPATCH-3); rootCallId and
//     parentCallId agree already through the per-event checks;
//   - every start settles (CODE-DISPATCH-3), unless allowUnsettled: the
//     caller passes true when the outer result is a crash closer (LOG-RES-4),
//     which LOG-CHECK-CODE-6 exempts.
//
// A settle without any start is legacy (LOG-DISP-2) and accepted, but only
// when the call logs no start at all: the current harness logs every start
// before its settle (CODE-DISPATCH-2), so a call mixing both has lost one.
//
// Each violation is reported once, on the event that breaks the rule, so a
// single mutation of a well-formed sequence yields few, precise messages.
func ValidateDispatches(outerCallID string, events []DispatchEvent, allowUnsettled bool) []Violation {
	v := newValidator(outerCallID, events)
	for i := range events {
		v.check(i)
	}
	if !allowUnsettled {
		v.unsettled()
	}
	return v.result()
}

type found struct {
	at int // event index, for ordering
	v  Violation
}

type validator struct {
	outer       string
	events      []DispatchEvent
	firstStart  map[string]int // subCallId -> index of its first start
	firstSettle map[string]int // subCallId -> index of its first settle
	root        string         // the call's rootCallId, from the first acceptable one
	rootAt      int
	lastN       int // n of the previous start, for the numbering check
	out         []found
}

func newValidator(outer string, events []DispatchEvent) *validator {
	v := &validator{outer: outer, events: events, firstStart: map[string]int{}, firstSettle: map[string]int{}}
	for i, ev := range events {
		if (ev.Start == nil) == (ev.Settle == nil) {
			continue
		}
		if ev.Start != nil {
			if _, seen := v.firstStart[ev.Start.SubCallID]; !seen {
				v.firstStart[ev.Start.SubCallID] = i
			}
		} else if _, seen := v.firstSettle[ev.Settle.SubCallID]; !seen {
			v.firstSettle[ev.Settle.SubCallID] = i
		}
	}
	return v
}

func (v *validator) report(at int, requirement, format string, args ...any) {
	v.out = append(v.out, found{at: at, v: Violation{Requirement: requirement, Seq: v.events[at].Seq, Message: fmt.Sprintf(format, args...)}})
}

func (v *validator) result() []Violation {
	if len(v.out) == 0 {
		return nil
	}
	sort.SliceStable(v.out, func(a, b int) bool { return v.out[a].at < v.out[b].at })
	res := make([]Violation, len(v.out))
	for i, f := range v.out {
		res[i] = f.v
	}
	return res
}

func (v *validator) check(i int) {
	ev := v.events[i]
	if (ev.Start == nil) == (ev.Settle == nil) {
		v.report(i, "LOG-CHECK-CODE-4", "dispatch event must be exactly one of a start or a settle")
		return
	}
	var id DispatchStart
	if ev.Start != nil {
		id = *ev.Start
	} else {
		id = ev.Settle.Start()
	}
	v.checkIDs(i, id)
	if ev.Start != nil {
		v.checkStart(i, id)
	} else {
		v.checkSettle(i, *ev.Settle)
	}
}

// checkIDs holds the per-event identity rules (LOG-CHECK-CODE-4,
// CODE-DISPATCH-1).
func (v *validator) checkIDs(i int, id DispatchStart) {
	for _, f := range [...]struct{ name, value string }{{"rootCallId", id.RootCallID}, {"parentCallId", id.ParentCallID}, {"subCallId", id.SubCallID}} {
		if f.value == "" {
			v.report(i, "LOG-CHECK-CODE-4", "%s is empty", f.name)
		}
	}
	if id.ParentCallID != "" && id.ParentCallID != v.outer {
		v.report(i, "LOG-CHECK-CODE-4", "parentCallId %q is not the run_code call %q", id.ParentCallID, v.outer)
	}
	if id.SubCallID != "" {
		if _, ok := ParseSubCallID(v.outer, id.SubCallID); !ok {
			v.report(i, "CODE-DISPATCH-1", "subCallId %q is not %q followed by a number >= 1 without leading zeros", id.SubCallID, v.outer+subCallInfix)
		}
	}
	switch root := id.RootCallID; {
	case root == "":
	case !v.rootFits(root):
		v.report(i, "LOG-CHECK-CODE-4", "rootCallId %q is neither the run_code call %q nor the root of its nested call id", root, v.outer)
	case v.root == "":
		v.root, v.rootAt = root, i
	case root != v.root:
		v.report(i, "LOG-CHECK-CODE-4", "rootCallId %q differs from %q of this call's dispatch at seq %d", root, v.root, v.events[v.rootAt].Seq)
	}
}

// rootFits accepts the outer call itself (a top-level run_code) or, for a
// nested outer call "R:code:…", its root R.
func (v *validator) rootFits(root string) bool {
	return root == v.outer || strings.HasPrefix(v.outer, root+subCallInfix)
}

func (v *validator) checkStart(i int, id DispatchStart) {
	if first := v.firstStart[id.SubCallID]; first != i {
		v.report(i, "LOG-CHECK-CODE-6", "second start for subCallId %q (first at seq %d)", id.SubCallID, v.events[first].Seq)
		return
	}
	n, ok := ParseSubCallID(v.outer, id.SubCallID)
	if !ok {
		v.lastN++ // already reported; assume it held its place in the numbering
		return
	}
	if want := v.lastN + 1; n != want {
		v.report(i, "CODE-DISPATCH-4", "start of sub-call %d where %d was expected (starts are numbered 1, 2, 3, … in log order without gaps)", n, want)
	}
	v.lastN = n
}

func (v *validator) checkSettle(i int, s DispatchSettle) {
	if first := v.firstSettle[s.SubCallID]; first != i {
		v.report(i, "LOG-CHECK-CODE-6", "second settle for subCallId %q (first at seq %d)", s.SubCallID, v.events[first].Seq)
		return
	}
	if s.Content.Kind() != jsonjs.Array {
		v.report(i, "LOG-CHECK-CODE-4", "settle content is %s, not an array of content blocks", s.Content.Kind())
	}
	at, has := v.firstStart[s.SubCallID]
	if !has {
		if len(v.firstStart) > 0 { // LOG-DISP-2 excuses only calls that log no start at all
			v.report(i, "CODE-DISPATCH-2", "settle for subCallId %q has no start, though this call logs starts (only legacy logs omit them)", s.SubCallID)
		}
		return
	}
	if at > i {
		v.report(i, "CODE-DISPATCH-4", "settle for subCallId %q precedes its start at seq %d", s.SubCallID, v.events[at].Seq)
	}
	start := v.events[at].Start
	if s.Name != start.Name {
		v.report(i, "CODE-DISPATCH-3", "settle name %q differs from its start's name %q", s.Name, start.Name)
	}
	if path := jsonjs.FirstDifference(start.Arguments, s.Arguments); path != "" {
		v.report(i, "CODE-DISPATCH-3", "settle arguments differ from its start's at %s", path)
	}
}

// unsettled reports every start without a settle (CODE-DISPATCH-3).
func (v *validator) unsettled() {
	for i, ev := range v.events {
		if ev.Start == nil || ev.Settle != nil || v.firstStart[ev.Start.SubCallID] != i {
			continue
		}
		if _, ok := v.firstSettle[ev.Start.SubCallID]; !ok {
			v.report(i, "CODE-DISPATCH-3", "start for subCallId %q never settles", ev.Start.SubCallID)
		}
	}
}
