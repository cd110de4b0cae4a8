package generators

import (
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// namedStrengthSearch2 pins what the second mutation run of search and
// retention found unpinned: members grep's and glob's output schemas
// require or refuse, a tail budget above the 4096 bytes the text window
// buffers before it first compacts, and budgets at 2^31 - 1 and 2^31
// (SEARCH-VAL-*, RET-TEXT-*, RET-ITEM-1).
func namedStrengthSearch2() []Case {
	g, gl := nCaseOf(reference.OpGrepResult), nCaseOf(reference.OpGlobResult)
	t, it := nCaseOf(reference.OpRetainText), nCaseOf(reference.OpRetainItems)
	return []Case{
		g("grep-value-match-without-path-invalid-output", "A match without path breaks grep's output schema: path is required like lineNumber and line.",
			nGrepIn(nPattern("x"), narr(nobj("lineNumber", 1, "line", "x"))), "SEARCH-VAL-1"),
		gl("glob-value-extra-member-invalid-output", "A glob value member `Root` beside root is undeclared (additionalProperties: false), so the registry refuses the value.",
			nobj("args", nobj("pattern", "*"), "value", nobj("root", ".", "paths", []string{"a"}, "Root", "b"), "config", nobj("sampleOverCap", false)), "SEARCH-VAL-2"),
		t("retain-text-tail-5000-over-4500-bytes-keeps-all", "tail 5000 over 4500 bytes in three chunks keeps the whole stream: a tail budget above 4096 holds every byte it has room for.",
			nTextIn(nTail(5000), nrep("a", 2000), nrep("b", 2000), nrep("c", 499)+"!"), "RET-TEXT-1", "RET-TEXT-5"),
		it("retain-items-max-items-2-pow-31-minus-1", "maxItems 2147483647 (2^31 - 1) is a valid budget: both items are kept.",
			nItemsIn(2147483647, "a", "b"), "RET-ITEM-1"),
		t("retain-text-max-bytes-2-pow-31", "maxBytes 2147483648 (2^31) is a valid budget: the text is kept whole.",
			nTextIn(nHead(2147483648), "abc"), "RET-TEXT-2", "RET-TEXT-5"),
	}
}

// nCaseOf returns namedCase with the op filled in.
func nCaseOf(op string) func(name, description string, input jsonjs.Value, reqs ...string) Case {
	return func(name, description string, input jsonjs.Value, reqs ...string) Case {
		return namedCase(op, name, description, input, reqs...)
	}
}
