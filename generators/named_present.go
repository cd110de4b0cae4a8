package generators

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// nPresentIn is a search.present input; args are given only when the case
// applies the registry's soft argument check.
func nPresentIn(tool string, result jsonjs.Value, args ...jsonjs.Value) jsonjs.Value {
	members := []jsonjs.Member{{Key: "tool", Value: jsonjs.StringValue(tool)}}
	if len(args) == 1 {
		members = append(members, jsonjs.Member{Key: "args", Value: args[0]})
	}
	members = append(members, jsonjs.Member{Key: "result", Value: result})
	return jsonjs.ObjectValue(members...)
}

// nResult is the logged result a presenter sees; meta is absent unless given.
func nResult(isError bool, meta ...jsonjs.Value) jsonjs.Value {
	if len(meta) == 1 {
		return nobj("isError", isError, "meta", meta[0])
	}
	return nobj("isError", isError)
}

func namedPresent() []Case {
	p := func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(reference.OpSearchPresent, name, description, input, reqs...)
	}
	// narrow applies narrowing to a meta given as JSON text, without args.
	narrow := func(name, description, tool, meta string, reqs ...string) Case {
		return p(name, description, nPresentIn(tool, nResult(false, In(meta))), reqs...)
	}
	const (
		pathsMeta   = `{"shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`
		matchesMeta = `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":5}`
	)
	// file and match rows wrap one file group or one match in a matches meta.
	file := func(group string) string {
		return `{"shape":"matches","files":[` + group + `],"truncated":false,"total":1}`
	}
	match := func(m string) string { return file(`{"path":"a.ts","matches":[` + m + `]}`) }
	return []Case{
		// search-card.md §13 narrowing table.
		p("narrow-absent-meta", "A result without meta gets no view (§13 row 1, absent).", nPresentIn("grep", nResult(false)), "SEARCH-NARROW-1", "SEARCH-NARROW-2", "SEARCH-PRESENT-1"),
		narrow("narrow-null-meta", "A null meta gets no view (§13 row 1, null).", "glob", `null`, "SEARCH-NARROW-1", "SEARCH-NARROW-2"),
		narrow("narrow-string-meta", "A string meta gets no view (§13 row 1, \"nope\").", "grep", `"nope"`, "SEARCH-NARROW-1", "SEARCH-NARROW-2"),
		narrow("narrow-number-meta", "A number meta gets no view (§13 row 1, 42).", "glob", `42`, "SEARCH-NARROW-1", "SEARCH-NARROW-2"),
		narrow("narrow-boolean-meta", "A boolean meta gets no view (§13 row 1, true).", "grep", `true`, "SEARCH-NARROW-1", "SEARCH-NARROW-2"),
		narrow("narrow-array-meta", "An array meta gets no view (§13 row 1, []).", "glob", `[]`, "SEARCH-NARROW-1", "SEARCH-NARROW-2"),
		narrow("narrow-paths-valid", "A valid paths meta becomes `{card:\"search\", shape:\"paths\", paths, truncated, total}` (§13 row 2).", "glob", pathsMeta, "SEARCH-NARROW-6", "SEARCH-NARROW-7", "SEARCH-PRESENT-2"),
		narrow("narrow-matches-valid", "A valid matches meta becomes a matches card with the same files and total 5 (§13 row 3).", "grep", matchesMeta, "SEARCH-NARROW-5", "SEARCH-NARROW-7", "SEARCH-PRESENT-1"),
		narrow("narrow-empty-matches-card", "Empty files give an empty matches card (§13 row 4).", "grep", `{"shape":"matches","files":[],"truncated":false,"total":0}`, "SEARCH-NARROW-5"),
		narrow("narrow-empty-paths-card", "Empty paths give an empty paths card (§13 row 5).", "glob", `{"shape":"paths","paths":[],"truncated":false,"total":0}`, "SEARCH-NARROW-6"),
		narrow("narrow-truncated-missing", "A meta without truncated gets no view (§13 row 6).", "glob", `{"shape":"paths","paths":[],"total":0}`, "SEARCH-NARROW-2"),
		narrow("narrow-truncated-string", "truncated \"false\" is not a boolean: no view (§13 row 6).", "glob", `{"shape":"paths","paths":[],"truncated":"false","total":0}`, "SEARCH-NARROW-2"),
		narrow("narrow-truncated-zero", "truncated 0 is not a boolean: no view (§13 row 6).", "grep", `{"shape":"matches","files":[],"truncated":0,"total":0}`, "SEARCH-NARROW-2"),
		narrow("narrow-truncated-null", "truncated null is not a boolean: no view (§13 row 6).", "grep", `{"shape":"matches","files":[],"truncated":null,"total":0}`, "SEARCH-NARROW-2"),
		narrow("narrow-total-missing", "A meta without total gets no view (§13 row 7).", "glob", `{"shape":"paths","paths":[],"truncated":false}`, "SEARCH-NARROW-2"),
		narrow("narrow-total-string", "total \"0\" is not a number: no view (§13 row 7).", "grep", `{"shape":"matches","files":[],"truncated":false,"total":"0"}`, "SEARCH-NARROW-2"),
		narrow("narrow-total-null", "total null is not a number: no view (§13 row 7).", "glob", `{"shape":"paths","paths":[],"truncated":false,"total":null}`, "SEARCH-NARROW-2"),
		narrow("narrow-total-negative-accepted", "A negative total -3 is accepted as is (§13 row 8).", "glob", `{"shape":"paths","paths":["a"],"truncated":true,"total":-3}`, "SEARCH-NARROW-3"),
		narrow("narrow-total-fractional-accepted", "A fractional total 2.5 is accepted as is (§13 row 8).", "grep", `{"shape":"matches","files":[],"truncated":false,"total":2.5}`, "SEARCH-NARROW-3"),
		narrow("narrow-total-unrelated-to-list", "No relation between total, truncated and the list is checked: three paths with total 1 are accepted unchanged (§13 row 9).", "glob", `{"shape":"paths","paths":["a","b","c"],"truncated":false,"total":1}`, "SEARCH-NARROW-3", "SEARCH-NARROW-7"),
		narrow("narrow-shape-other", "shape \"other\" gets no view (§13 row 10).", "glob", `{"shape":"other","paths":[],"truncated":false,"total":0}`, "SEARCH-NARROW-4"),
		narrow("narrow-shape-wrong-case", "shape is case-sensitive: \"Paths\" gets no view (§13 row 10).", "glob", `{"shape":"Paths","paths":[],"truncated":false,"total":0}`, "SEARCH-NARROW-4"),
		narrow("narrow-shape-missing", "A meta without shape gets no view (§13 row 10).", "grep", `{"files":[],"truncated":false,"total":0}`, "SEARCH-NARROW-4"),
		narrow("narrow-legacy-kind-rejected", "The old `kind` discriminant is rejected (§13 row 10).", "glob", `{"kind":"paths","paths":[],"truncated":false,"total":0}`, "SEARCH-NARROW-4"),
		narrow("narrow-paths-not-array", "paths \"x\" is not an array: no view (§13 row 11).", "glob", `{"shape":"paths","paths":"x","truncated":false,"total":0}`, "SEARCH-NARROW-6"),
		narrow("narrow-paths-number-item", "A number in paths gets no view (§13 row 11).", "glob", `{"shape":"paths","paths":[1],"truncated":false,"total":1}`, "SEARCH-NARROW-6"),
		narrow("narrow-paths-null-item", "A null in paths gets no view (§13 row 11).", "glob", `{"shape":"paths","paths":[null],"truncated":false,"total":1}`, "SEARCH-NARROW-6"),
		narrow("narrow-paths-shape-with-files-only", "A paths meta that carries files instead of paths gets no view (§13 row 11).", "glob", `{"shape":"paths","files":[],"truncated":false,"total":0}`, "SEARCH-NARROW-6"),
		narrow("narrow-files-missing", "A matches meta without files gets no view (§13 row 12).", "grep", `{"shape":"matches","truncated":false,"total":0}`, "SEARCH-NARROW-5"),
		narrow("narrow-files-not-array", "files \"x\" gets no view (§13 row 12).", "grep", `{"shape":"matches","files":"x","truncated":false,"total":0}`, "SEARCH-NARROW-5"),
		narrow("narrow-files-null-item", "A null file group gets no view (§13 row 12).", "grep", `{"shape":"matches","files":[null],"truncated":false,"total":0}`, "SEARCH-NARROW-5"),
		narrow("narrow-files-string-item", "A string file group gets no view (§13 row 12).", "grep", `{"shape":"matches","files":["x"],"truncated":false,"total":0}`, "SEARCH-NARROW-5"),
		narrow("narrow-files-array-item", "An array file group gets no view (§13 row 12).", "grep", `{"shape":"matches","files":[[]],"truncated":false,"total":0}`, "SEARCH-NARROW-5"),
		narrow("narrow-file-path-number", "A file group with a numeric path gets no view (§13 row 13).", "grep", file(`{"path":1,"matches":[]}`), "SEARCH-NARROW-5"),
		narrow("narrow-file-matches-string", "A file group whose matches is a string gets no view (§13 row 13).", "grep", file(`{"path":"a","matches":"x"}`), "SEARCH-NARROW-5"),
		narrow("narrow-file-matches-missing", "A file group without matches gets no view (§13 row 13).", "grep", file(`{"path":"a"}`), "SEARCH-NARROW-5"),
		narrow("narrow-file-empty-matches-accepted", "A file group with empty matches is accepted (§13 row 14).", "grep", file(`{"path":"a","matches":[]}`), "SEARCH-NARROW-5"),
		narrow("narrow-match-null", "A null match gets no view (§13 row 15).", "grep", match(`null`), "SEARCH-NARROW-5"),
		narrow("narrow-match-array", "An array match gets no view (§13 row 15).", "grep", match(`[1,"x"]`), "SEARCH-NARROW-5"),
		narrow("narrow-match-line-number-string", "A string lineNumber gets no view (§13 row 15).", "grep", match(`{"lineNumber":"1","line":"x"}`), "SEARCH-NARROW-5"),
		narrow("narrow-match-line-number-type", "A numeric line gets no view (§13 row 15).", "grep", match(`{"lineNumber":1,"line":2}`), "SEARCH-NARROW-5"),
		narrow("narrow-match-negative-fractional-line-number-accepted", "lineNumber -1.5 is accepted (§13 row 16).", "grep", match(`{"lineNumber":-1.5,"line":"x"}`), "SEARCH-NARROW-3", "SEARCH-NARROW-5"),
		narrow("narrow-top-level-extras-dropped", "Extra top-level members (extra, card, title) are dropped from the view (§13 row 17).", "glob", `{"shape":"paths","paths":["a"],"truncated":false,"total":1,"extra":1,"card":"other","title":"T"}`, "SEARCH-NARROW-7", "SEARCH-PRESENT-4"),
		narrow("narrow-nested-extras-kept", "Unknown members inside file groups and matches pass through unchanged (§13 row 18).", "grep", `{"shape":"matches","files":[{"path":"a","extraF":1,"matches":[{"lineNumber":1,"line":"x","extraM":true}]}],"truncated":false,"total":1,"extra":2}`, "SEARCH-NARROW-7"),
		narrow("narrow-duplicate-paths-accepted", "Duplicate paths are accepted as is.", "glob", `{"shape":"paths","paths":["a","a"],"truncated":false,"total":2}`, "SEARCH-NARROW-7", "SEARCH-NARROW-6"),
		narrow("narrow-matches-shape-ignores-paths-member", "A matches meta ignores any paths member, even a malformed one.", "grep", `{"shape":"matches","files":[],"paths":"x","truncated":false,"total":0}`, "SEARCH-NARROW-5", "SEARCH-NARROW-7"),
		narrow("narrow-paths-shape-ignores-files-member", "A paths meta ignores any files member, even a malformed one.", "glob", `{"shape":"paths","paths":[],"files":"x","truncated":false,"total":0}`, "SEARCH-NARROW-6", "SEARCH-NARROW-7"),
		narrow("narrow-content-and-title-dropped", "A meta carrying content and title members yields a view without them: the view never holds the result text.", "grep", `{"shape":"matches","content":"Found 1 match\n\na.ts\nLine 1: x","title":"Grep x","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}`, "SEARCH-PRESENT-4", "SEARCH-NARROW-7"),
		narrow("narrow-member-order-irrelevant", "Members in any order narrow to a view in the fixed order card, shape, list, truncated, total.", "glob", `{"total":2,"truncated":true,"paths":["b","a"],"shape":"paths"}`, "SEARCH-NARROW-7"),

		// search-card.md §14 presenters: error results, wrong shapes, logged arguments.
		p("presenter-grep-error-result", "An error result gets no view even with a valid matches meta.", nPresentIn("grep", nResult(true, In(matchesMeta)), nPattern("x")), "SEARCH-PRESENT-1"),
		p("presenter-glob-error-result", "An error result gets no view even with a valid paths meta.", nPresentIn("glob", nResult(true, In(pathsMeta)), nPattern("*")), "SEARCH-PRESENT-2"),
		p("presenter-error-without-meta", "An error result without meta gets no view.", nPresentIn("grep", nResult(true), nPattern("x")), "SEARCH-PRESENT-1"),
		p("presenter-grep-given-paths-meta", "A grep result carrying a paths meta gets no view.", nPresentIn("grep", nResult(false, In(pathsMeta)), nPattern("x")), "SEARCH-PRESENT-1", "SEARCH-PRESENT-2"),
		p("presenter-glob-given-matches-meta", "A glob result carrying a matches meta gets no view.", nPresentIn("glob", nResult(false, In(matchesMeta)), nPattern("*")), "SEARCH-PRESENT-2"),
		p("presenter-grep-valid-args", "Valid grep arguments and a matches meta give the narrowed view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nobj("pattern", "x", "path", "src", "include", "*.ts")), "SEARCH-PRESENT-1", "SEARCH-PRESENT-3"),
		p("presenter-glob-valid-args", "Valid glob arguments and a paths meta give the narrowed view.", nPresentIn("glob", nResult(false, In(pathsMeta)), nobj("pattern", "*", "path", "src")), "SEARCH-PRESENT-2", "SEARCH-PRESENT-3"),
		p("presenter-grep-absent-args", "Without logged arguments the soft check is skipped and the view is built.", nPresentIn("grep", nResult(false, In(matchesMeta))), "SEARCH-PRESENT-3"),
		p("presenter-grep-null-args", "Logged arguments that are null fail the soft check: no view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nv(nil)), "SEARCH-PRESENT-3"),
		p("presenter-grep-args-pattern-number", "A numeric pattern fails the soft check: no view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nobj("pattern", 1)), "SEARCH-PRESENT-3"),
		p("presenter-grep-args-missing-pattern", "Arguments without pattern fail the soft check: no view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nobj("path", "src")), "SEARCH-PRESENT-3"),
		p("presenter-grep-args-path-number", "A numeric path fails the soft check: no view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nobj("pattern", "x", "path", 1)), "SEARCH-PRESENT-3"),
		p("presenter-grep-args-include-number", "A numeric include fails grep's soft check: no view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nobj("pattern", "x", "include", 1)), "SEARCH-PRESENT-3"),
		p("presenter-glob-args-include-number", "glob has no include parameter, so a numeric include is an allowed extra member and the view is built.", nPresentIn("glob", nResult(false, In(pathsMeta)), nobj("pattern", "*", "include", 1)), "SEARCH-PRESENT-3"),
		p("presenter-glob-args-array", "An array of arguments fails the soft check: no view.", nPresentIn("glob", nResult(false, In(pathsMeta)), narr("*")), "SEARCH-PRESENT-3"),
		p("presenter-glob-args-string", "A string instead of an arguments object fails the soft check: no view.", nPresentIn("glob", nResult(false, In(pathsMeta)), nv("*")), "SEARCH-PRESENT-3"),
		p("presenter-grep-args-extra-members", "Extra argument members are allowed by the schema, so the view is built.", nPresentIn("grep", nResult(false, In(matchesMeta)), nobj("pattern", "x", "context", 2)), "SEARCH-PRESENT-3"),
		p("presenter-grep-args-empty-pattern", "The soft check is the schema only: an empty pattern (which the tool itself rejects) still gets a view.", nPresentIn("grep", nResult(false, In(matchesMeta)), nPattern("")), "SEARCH-PRESENT-3"),
		p("presenter-glob-args-blank-pattern", "A blank glob pattern passes the schema, so the view is built.", nPresentIn("glob", nResult(false, In(pathsMeta)), nPattern("  ")), "SEARCH-PRESENT-3"),
		p("presenter-bad-args-and-bad-meta", "Failing arguments and a malformed meta together still give no view and no error.", nPresentIn("grep", nResult(false, In(`{"shape":"matches"}`)), nobj("pattern", 1)), "SEARCH-NARROW-1", "SEARCH-PRESENT-3"),
	}
}
