package codemode

import (
	"strconv"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// subCallInfix separates the outer call id from the sub-call number
// (CODE-DISPATCH-1).
const subCallInfix = ":code:"

// Session event types of the log-only dispatch events (LOG-DISP-1).
const (
	EventDispatchStart  = "tool/code-dispatch-start"
	EventDispatchSettle = "tool/code-dispatch"
)

// DispatchStart is the data of a tool/code-dispatch-start event
// (CODE-DISPATCH-2), members in the logged order.
type DispatchStart struct {
	RootCallID   string       `json:"rootCallId"`
	ParentCallID string       `json:"parentCallId"`
	SubCallID    string       `json:"subCallId"`
	Name         string       `json:"name"`
	Arguments    jsonjs.Value `json:"arguments"`
}

// DispatchSettle is the data of a tool/code-dispatch event
// (CODE-DISPATCH-3): the start's identity and arguments repeated, plus the
// outcome. Content is the content-block array as logged, possibly a spill
// preview (SPILL-LOG-*).
type DispatchSettle struct {
	RootCallID   string       `json:"rootCallId"`
	ParentCallID string       `json:"parentCallId"`
	SubCallID    string       `json:"subCallId"`
	Name         string       `json:"name"`
	Arguments    jsonjs.Value `json:"arguments"`
	IsError      bool         `json:"isError"`
	Content      jsonjs.Value `json:"content"`
}

// Start returns the identity and arguments the settle repeats from its
// start.
func (s DispatchSettle) Start() DispatchStart {
	return DispatchStart{RootCallID: s.RootCallID, ParentCallID: s.ParentCallID, SubCallID: s.SubCallID, Name: s.Name, Arguments: s.Arguments}
}

// SubCallID is the id of the n-th binding call of the outer call parent
// (CODE-DISPATCH-1): parent + ":code:" + n, n counted from 1.
func SubCallID(parent string, n int) string {
	return parent + subCallInfix + strconv.Itoa(n)
}

// ParseSubCallID matches sub against ^<parent>:code:([1-9][0-9]*)$ with
// parent taken literally (CODE-DISPATCH-1, LOG-CHECK-CODE-4) and returns n.
// A number too large for an int is reported as not matching.
func ParseSubCallID(parent, sub string) (n int, ok bool) {
	digits, found := strings.CutPrefix(sub, parent+subCallInfix)
	if !found || digits == "" || digits[0] < '1' || digits[0] > '9' {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, false
	}
	return n, true
}
