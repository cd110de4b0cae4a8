package logcheck

// evKind classifies the event types the checker looks into.
type evKind uint8

const (
	evOther evKind = iota // known, only the envelope is checked
	evTurnStart
	evTurnEnd
	evToolCall
	evToolResult
	evDispatchStart
	evDispatchSettle
	evPrune
	evMessage // user/message, assistant/message: may carry surfaceOp/sourceEventSeqs
)

// knownEventTypes is the upstream event vocabulary (LOG-6): the names of
// KNOWN_SESSION_EVENT_TYPES in @deepseek-ai/dsh-session
// (packages/core/session/src/known-event-types.ts, 0.1.0-rc.8), mapped to
// what the checker does with them.
var knownEventTypes = map[string]evKind{
	"agent-preset/selected":           evOther,
	"agent/inbox/spliced":             evOther,
	"approval/asked":                  evOther,
	"approval/decided":                evOther,
	"approval/policy":                 evOther,
	"assistant/chunk":                 evOther,
	"assistant/message":               evMessage,
	"command/done":                    evOther,
	"command/run":                     evOther,
	"compaction/end":                  evOther,
	"compaction/prune":                evPrune,
	"compaction/start":                evOther,
	"compaction/summary":              evOther,
	"feedback/record":                 evOther,
	"goal/change":                     evOther,
	"hook/invoked":                    evOther,
	"hook/result":                     evOther,
	"llm/retry":                       evOther,
	"llm/retry-started":               evOther,
	"permission/preset":               evOther,
	"plan/mode":                       evOther,
	"request/context":                 evOther,
	"request/header":                  evOther,
	"sandbox/mode":                    evOther,
	"schedule/change":                 evOther,
	"session/end-seed":                evOther,
	"session/title":                   evOther,
	"session/title-llm-request":       evOther,
	"step/end":                        evOther,
	"step/start":                      evOther,
	"subagent/descriptor":             evOther,
	"team/member":                     evOther,
	"team/message/delivered":          evOther,
	"team/message/queued":             evOther,
	"team/task":                       evOther,
	"todo/write":                      evOther,
	"tool-workflow/agent-end":         evOther,
	"tool-workflow/agent-start":       evOther,
	"tool-workflow/run-end":           evOther,
	"tool-workflow/run-start":         evOther,
	"tool/call":                       evToolCall,
	"tool/code-dispatch":              evDispatchSettle,
	"tool/code-dispatch-start":        evDispatchStart,
	"tool/result":                     evToolResult,
	"turn/end":                        evTurnEnd,
	"turn/start":                      evTurnStart,
	"user/message":                    evMessage,
	"web/deepseek-search-llm-request": evOther,
}

// Line kinds beyond the event vocabulary: the session header and the
// packed chunk rows, told apart by the same one lookup of the type.
const (
	evHeader evKind = iota + 100
	evRow
)

// typeInfo is what a line's type says: the decoded name, how the checker
// treats the line, and whether the name is in the event vocabulary.
type typeInfo struct {
	name  string
	kind  evKind
	known bool
}

// typeTable holds the info of every type the checker knows (events, the
// header, the rows), bucketed by typeSlot: a line's type is found by
// comparing it with the names of its slot (cheaper than hashing it; for
// today's vocabulary every slot holds at most one name), and known names
// are not decoded or copied.
var typeTable = func() (out [256][]typeInfo) {
	all := []typeInfo{{name: headerType, kind: evHeader}}
	for _, r := range []string{rowText, rowReasoning, rowToolCall} {
		all = append(all, typeInfo{name: r, kind: evRow})
	}
	for k, v := range knownEventTypes {
		all = append(all, typeInfo{name: k, kind: v, known: true})
	}
	for _, t := range all {
		out[typeSlot(t.name)] = append(out[typeSlot(t.name)], t)
	}
	return out
}()

// typeSlot mixes a name's length and its first and last bytes.
func typeSlot[T ~string | ~[]byte](name T) uint8 {
	if len(name) == 0 {
		return 0
	}
	return uint8(len(name)*30 + int(name[0])*9 + int(name[len(name)-1]))
}

// lookupType finds a known type by its name.
func lookupType[T ~string | ~[]byte](name T) (typeInfo, bool) {
	for _, t := range typeTable[typeSlot(name)] {
		if t.name == string(name) {
			return t, true
		}
	}
	return typeInfo{}, false
}

// Packed chunk rows (LOG-4): storage rows, not events.
const (
	rowText      = "text-chunks"
	rowReasoning = "reasoning-chunks"
	rowToolCall  = "tool-call-chunks"
	headerType   = "session"
)

// Crash-closer error codes (LOG-RES-4) and their error names.
const (
	codeNotStarted     = "TOOL_NOT_STARTED"
	codeOutcomeUnknown = "TOOL_OUTCOME_UNKNOWN"
	nameNotStarted     = "ToolNotStartedError"
	nameOutcomeUnknown = "ToolOutcomeUnknownError"
	closerIDPrefix     = "interrupted-tool-result-"
)

// Canonical tool names.
const (
	toolGrep    = "grep"
	toolGlob    = "glob"
	toolRunCode = "run_code"
)
