package runner_test

import "testing"

// Each branch of the properties of the other ops (properties.go
// presentProperties, runCodeProperties, spillProperties,
// retainProperties), from each property's Doc: an output breaking it in
// one way, and one next to it that keeps it.
func TestJudgeOtherOpsPropertyBranches(t *testing.T) {
	grepMeta := `{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}`
	grepView := `{"view":{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}}`
	globMeta := `{"shape":"paths","paths":["a"],"truncated":false,"total":1}`
	globView := `{"view":{"card":"search","shape":"paths","paths":["a"],"truncated":false,"total":1}}`
	present := func(tool, meta string, isError bool) string {
		e := "false"
		if isError {
			e = "true"
		}
		return `{"tool":"` + tool + `","args":{},"result":{"isError":` + e + `,"meta":` + meta + `}}`
	}
	checkPropertyRows(t, "search.present", []propertyRow{
		// The grep presenter gives a view only for a non-error result whose
		// meta narrows to shape matches; the glob one, to shape paths.
		{"a grep view of a grep meta", present("grep", grepMeta, false), grepView, "SEARCH-PRESENT-1", false},
		{"a grep view of a glob meta", present("grep", globMeta, false), globView, "SEARCH-PRESENT-1", true},
		{"a grep view of an error result", present("grep", grepMeta, true), grepView, "SEARCH-PRESENT-1", true},
		{"a grep view of a meta that does not narrow", present("grep", `{"shape":"matches"}`, false), grepView, "SEARCH-PRESENT-1", true},
		{"no grep view of a glob meta", present("grep", globMeta, false), `{"view":null}`, "SEARCH-PRESENT-1", false},
		{"a glob view of a glob meta", present("glob", globMeta, false), globView, "SEARCH-PRESENT-2", false},
		{"a glob view of a grep meta", present("glob", grepMeta, false), grepView, "SEARCH-PRESENT-2", true},
		{"a glob view of a grep meta (not grep's)", present("glob", grepMeta, false), grepView, "SEARCH-PRESENT-1", false},
		// A view is the narrowed meta.
		{"a view of another total", present("grep", grepMeta, false), `{"view":{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":2}}`, "SEARCH-NARROW-7", true},
		{"a view of another list", present("glob", globMeta, false), `{"view":{"card":"search","shape":"paths","paths":["b"],"truncated":false,"total":1}}`, "SEARCH-NARROW-7", true},
		{"the narrowed meta", present("glob", globMeta, false), globView, "SEARCH-NARROW-7", false},
		{"no view at all", present("glob", globMeta, false), `{"view":null}`, "SEARCH-NARROW-7", false},
	})
	checkPropertyRows(t, "run_code.result", []propertyRow{
		{"a meta", `{}`, `{"content":"x","meta":{}}`, "CODE-PRESENT-3", true},
		{"a null meta", `{}`, `{"content":"x","meta":null}`, "CODE-PRESENT-3", false},
		{"a view", `{}`, `{"content":"x","view":{}}`, "CODE-PRESENT-2", true},
		{"a null view", `{}`, `{"content":"x","view":null}`, "CODE-PRESENT-2", false},
		{"an empty content", `{}`, `{"content":""}`, "CODE-RENDER-1", true},
		{"a content of one space", `{}`, `{"content":" "}`, "CODE-RENDER-1", false},
	})
	checkPropertyRows(t, "spill.preview", []propertyRow{
		// At most maxInlineBytes UTF-8 bytes, and smaller than the original.
		{"4 bytes of at most 4", `{"text":"abcdef","maxInlineBytes":4}`, `{"content":"abcd"}`, "SPILL-CAP-1", false},
		{"5 bytes of at most 4", `{"text":"abcdef","maxInlineBytes":4}`, `{"content":"abcde"}`, "SPILL-CAP-1", true},
		{"é is 2 bytes, over 1", `{"text":"abcdef","maxInlineBytes":1}`, `{"content":"é"}`, "SPILL-CAP-1", true},
		{"é is 2 bytes, at most 2", `{"text":"abcdef","maxInlineBytes":2}`, `{"content":"é"}`, "SPILL-CAP-1", false},
		{"3 bytes of a 3-byte original", `{"text":"abc","maxInlineBytes":10}`, `{"content":"abc"}`, "SPILL-CAP-1", true},
		{"2 bytes of a 3-byte original", `{"text":"abc","maxInlineBytes":10}`, `{"content":"ab"}`, "SPILL-CAP-1", false},
		{"2 bytes of a 1-character, 2-byte original", `{"text":"é","maxInlineBytes":10}`, `{"content":"ab"}`, "SPILL-CAP-1", true},
	})
	items3 := `{"strategy":{"kind":"head","maxItems":2},"items":[1,2,3]}`
	checkPropertyRows(t, "retain.items", []propertyRow{
		// kept = len(items), seen = kept + omitted count = the input's
		// items, truncated iff something was omitted.
		{"2 of 3 kept", items3, `{"items":[1,2],"kept":2,"seen":3,"truncated":true,"omitted":{"kind":"exact","count":1}}`, "RET-ITEM-3", false},
		{"kept 1 with 2 items", items3, `{"items":[1,2],"kept":1,"seen":2,"truncated":true,"omitted":{"kind":"exact","count":1}}`, "RET-ITEM-3", true},
		{"seen 4 of kept 2 and 1 omitted", items3, `{"items":[1,2],"kept":2,"seen":4,"truncated":true,"omitted":{"kind":"exact","count":2}}`, "RET-ITEM-3", true},
		{"seen 3 not kept 2 + omitted 2", items3, `{"items":[1,2],"kept":2,"seen":3,"truncated":true,"omitted":{"kind":"exact","count":2}}`, "RET-ITEM-3", true},
		{"seen 2 of an input of 3", items3, `{"items":[1,2],"kept":2,"seen":2,"truncated":false,"omitted":{"kind":"none"}}`, "RET-ITEM-3", true},
		{"an exact omission, truncated false", items3, `{"items":[1,2],"kept":2,"seen":3,"truncated":false,"omitted":{"kind":"exact","count":1}}`, "RET-ITEM-3", true},
		{"an exact omission of 0, truncated true", `{"items":[1,2]}`, `{"items":[1,2],"kept":2,"seen":2,"truncated":true,"omitted":{"kind":"exact","count":0}}`, "RET-ITEM-3", true},
		// A member missing is the comparison's to report, not a count
		// of 0 to check.
		{"no kept", items3, `{"items":[1,2],"seen":3,"truncated":true,"omitted":{"kind":"exact","count":1}}`, "RET-ITEM-3", false},
		{"no seen", items3, `{"items":[1,2],"kept":2,"truncated":true,"omitted":{"kind":"exact","count":1}}`, "RET-ITEM-3", false},
		{"nothing omitted, not truncated", `{"items":[1,2]}`, `{"items":[1,2],"kept":2,"seen":2,"truncated":false,"omitted":{"kind":"none"}}`, "RET-ITEM-3", false},
		// One push decision per input item; a kept push is never truncated
		// and the kept pushes are the kept items.
		{"three pushes, two kept", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", false},
		{"two pushes for three items", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false}]}`, "RET-ITEM-2", true},
		{"four pushes for three items", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", true},
		{"a kept push truncated", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":true},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", true},
		{"a push neither kept nor truncated", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":false}]}`, "RET-ITEM-2", true},
		{"two kept pushes, kept 1", items3, `{"items":[1],"kept":1,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", true},
		// A push whose kept or truncated is no boolean is no push list to
		// count (properties.go pushes): the comparison reports it.
		{"a push whose kept is a string", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":"yes","truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", false},
		{"a push whose truncated is a string", items3, `{"items":[1,2],"kept":2,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":"no"},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", false},
		{"two kept pushes, kept 3", items3, `{"items":[1,2],"kept":3,"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true}]}`, "RET-ITEM-2", true},
	})
	checkPropertyRows(t, "retain.text", []propertyRow{
		// Truncated iff omittedBytes is exact with a positive count, and
		// equal to the last push's truncated.
		{"truncated, 3 bytes omitted", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"kind":"exact","count":3}}`, "RET-TEXT-7", false},
		{"truncated, nothing omitted", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"kind":"none"}}`, "RET-TEXT-7", true},
		{"not truncated, 3 bytes omitted", `{}`, `{"text":"a","truncated":false,"omittedBytes":{"kind":"exact","count":3}}`, "RET-TEXT-7", true},
		{"truncated, 0 bytes omitted", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"kind":"exact","count":0}}`, "RET-TEXT-7", true},
		{"truncated, -1 bytes omitted", `{}`, `{"text":"a","truncated":true,"omittedBytes":{"kind":"exact","count":-1}}`, "RET-TEXT-7", true},
		{"not truncated, nothing omitted", `{}`, `{"text":"a","truncated":false,"omittedBytes":{"kind":"none"}}`, "RET-TEXT-7", false},
		// One push decision per input chunk (chunks, or chunksBase64).
		{"two pushes for two chunks", `{"chunks":["a","b"]}`, `{"text":"ab","pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false}]}`, "RET-TEXT-3", false},
		{"three pushes for two chunks", `{"chunks":["a","b"]}`, `{"text":"ab","pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":true,"truncated":false}]}`, "RET-TEXT-3", true},
		{"one push for two base64 chunks", `{"chunksBase64":["YQ==","Yg=="]}`, `{"text":"ab","pushes":[{"kept":true,"truncated":false}]}`, "RET-TEXT-3", true},
		{"two pushes for two base64 chunks", `{"chunksBase64":["YQ==","Yg=="]}`, `{"text":"ab","pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false}]}`, "RET-TEXT-3", false},
	})
}
