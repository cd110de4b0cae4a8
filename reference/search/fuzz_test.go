package search_test

import (
	"math"
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// fuzzMetaSeeds are the metas of the narrowing table (search-card.md §13),
// accepted and rejected ones, plus a few producer metas.
var fuzzMetaSeeds = []string{
	`null`, `"nope"`, `42`, `true`, `[]`,
	`{"shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`,
	`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":5}`,
	`{"shape":"matches","files":[],"truncated":false,"total":0}`,
	`{"shape":"paths","paths":[],"truncated":false,"total":0}`,
	`{"shape":"paths","paths":[],"truncated":"false","total":0}`,
	`{"shape":"paths","paths":[],"truncated":false,"total":"0"}`,
	`{"shape":"paths","paths":["a"],"truncated":false,"total":1e400}`,
	`{"shape":"paths","paths":["a"],"truncated":false,"total":-3}`,
	`{"shape":"paths","paths":["a"],"truncated":false,"total":2.5}`,
	`{"shape":"paths","paths":["a","b","c"],"truncated":false,"total":1}`,
	`{"shape":"Paths","paths":[],"truncated":false,"total":0}`,
	`{"kind":"paths","paths":[],"truncated":false,"total":0}`,
	`{"shape":"paths","paths":[1],"truncated":false,"total":1}`,
	`{"shape":"paths","files":[],"truncated":false,"total":0}`,
	`{"shape":"matches","files":[null],"truncated":false,"total":0}`,
	`{"shape":"matches","files":[{"path":1,"matches":[]}],"truncated":false,"total":0}`,
	`{"shape":"matches","files":[{"path":"a","matches":"x"}],"truncated":false,"total":0}`,
	`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":"1","line":"x"}]}],"truncated":false,"total":0}`,
	`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":-1.5,"line":"x"}]}],"truncated":false,"total":0}`,
	`{"shape":"paths","paths":["a"],"truncated":false,"total":1,"extra":1,"card":"other","title":"T"}`,
	`{"shape":"matches","files":[{"path":"a","extraF":1,"matches":[{"lineNumber":1,"line":"x","extraM":true}]}],"truncated":false,"total":1,"extra":2}`,
	`{"shape":"paths","paths":["\ud800x","日本/ファイル.ts","a<b>&c.ts","x` + "\u2028" + `y"],"truncated":true,"total":3,"shape":"paths"}`,
	`{"total":0,"truncated":true,"paths":[],"shape":"matches","files":[]}`,
}

// finite reports whether every number in v is finite: JSON.stringify
// writes a non-finite one as null, so only finite values survive a
// marshal/parse round trip unchanged.
func finite(v jsonjs.Value) bool {
	return !jsonjs.AnyNumber(v, func(f float64) bool { return math.IsInf(f, 0) || math.IsNaN(f) })
}

// FuzzViewFromMeta feeds arbitrary bytes through jsonjs.Parse into
// ViewFromMeta: it never panics (SEARCH-NARROW-1); a view it returns
// marshals to JSON that parses back to the same view (unless a number in it
// is non-finite, which JSON.stringify writes as null), and that JSON, an
// object with shape, list, truncated, total and an extra card member,
// narrows again to the same view (SEARCH-NARROW-7).
func FuzzViewFromMeta(f *testing.F) {
	for _, s := range fuzzMetaSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		meta, err := jsonjs.Parse(data)
		if err != nil {
			return
		}
		view := search.ViewFromMeta(meta)
		if view == nil {
			return
		}
		if view.Shape != search.ShapeMatches && view.Shape != search.ShapePaths {
			t.Fatalf("view shape %q", view.Shape)
		}
		v := view.Value()
		text := jsonjs.Marshal(v)
		back, err := jsonjs.Parse(text)
		if err != nil {
			t.Fatalf("view JSON does not parse: %v\n%s", err, text)
		}
		if !finite(v) {
			return
		}
		if d := jsonjs.FirstDifference(back, v); d != "" {
			t.Fatalf("view JSON differs from the view at %s:\n%s", d, text)
		}
		again := search.ViewFromMeta(back)
		if again == nil {
			t.Fatalf("a view does not narrow again: %s", text)
		}
		if d := jsonjs.FirstDifference(again.Value(), v); d != "" {
			t.Fatalf("re-narrowed view differs at %s: %s", d, text)
		}
	})
}
