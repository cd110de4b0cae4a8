// Package logcheck checks upstream session logs (JSONL) offline against the
// LOG-* requirements and the log-observable parts of the search-card and
// Code Mode contracts. It streams: memory stays bounded by the longest line
// it keeps (capped) and by per-call state, whatever the file size.
//
// Fast paths (issue 10's speed target). What the harness writes most is
// recognised in the exact layout it writes it: a search meta (meta.go), a
// tool/result message and tool/call data (plain.go), an envelope's type,
// seq, time and data first (structure.go), sourceEventSeqs as [d,d,…] and
// integers of at most 15 digits, exact as doubles (lazy.go). A text in that
// layout (member order, no whitespace, no other member, keys without
// escapes) satisfies every shape rule the general walk checks, and its
// values are decoded by the same readers, so reading it in one pass gives
// the general walk's result; anything else takes the general walk (Lazy's
// members, and for a meta its tree and search.ViewFromMeta). Property tests
// (*_internal_test.go) compare the two on the layout and on perturbed
// texts. Metas are compared by an order-insensitive hash of their parse,
// computed from the line or, when a key repeats, from the tree; dispatch
// arguments are compared byte for byte first (dispargs.go).
package logcheck

// Level is how sure a finding is.
type Level string

// Levels, most severe first.
const (
	Violation  Level = "violation"  // the log breaks a MUST
	Warning    Level = "warning"    // suspicious, or a SHOULD / a rule legitimate logs may break
	Unprovable Level = "unprovable" // the log lacks the data to decide (e.g. an unknown deployment cap)
)

// Finding is one problem, located by file, line and event seq.
type Finding struct {
	File        string `json:"file"`
	Line        int    `json:"line"` // 1-based; 0 when the finding is about the whole file
	Seq         int64  `json:"seq"`  // -1 when there is no event seq (header, malformed line)
	Requirement string `json:"requirement"`
	Level       Level  `json:"level"`
	Message     string `json:"message"` // one line, names the seq and the call id where there is one
}

// Options configure a check. The zero value is not valid; use Defaults.
type Options struct {
	// ToolNames maps a canonical tool name (grep, glob, run_code) to the name
	// the harness logs it under (--tool-name grep=rg_search).
	ToolNames map[string]string
	// SearchMetaMaxBytes is the deployment's searchMetaMaxBytes (default 65536).
	SearchMetaMaxBytes int
	// MaxInlineBytes is the spill policy's cap; 0 means unknown, which makes
	// LOG-CHECK-SEARCH-6 / LOG-CHECK-CODE-8 unprovable instead of checked.
	MaxInlineBytes int
	// MaxLineBytes bounds the bytes kept of one line; a longer line is
	// skipped (read through without buffering) and reported. At most
	// LineLimit: a larger one is taken as LineLimit.
	MaxLineBytes int
	// GrepMaxMatches and GlobMaxResults are the inline caps when known (0 =
	// unknown); the capped-footer check needs them to be provable.
	GrepMaxMatches int
	GlobMaxResults int
	// ContentHooks says the deployment runs content-replacing post-tool
	// hooks, which can legitimately make a search text disagree with its
	// meta or lose its envelope: LOG-CHECK-SEARCH-5 and the text rules of
	// issue 22 (SEARCH-ERR-1, CODE-ERR-1, SEARCH-SAMPLE-5, CODE-DISPATCH-6)
	// are then reported as warnings.
	ContentHooks bool
}

// Defaults returns the upstream defaults (SEARCH-CFG-1) with unknown
// spill-policy cap and inline caps left to the log.
func Defaults() Options {
	return Options{SearchMetaMaxBytes: 65536, MaxLineBytes: 64 << 20}
}

// Stats summarise one checked stream.
type Stats struct {
	Lines          int            `json:"lines"`
	Events         int            `json:"events"` // after expanding packed chunk rows
	MalformedLines int            `json:"malformedLines"`
	UnknownTypes   map[string]int `json:"unknownTypes"`   // counted, not flagged, when ignorable
	ResultsChecked map[string]int `json:"resultsChecked"` // per canonical tool name
	Findings       map[Level]int  `json:"findings"`
	Bytes          int64          `json:"bytes"`
}
