package search_test

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

const hint = "Use read with offset/limit, or grep this path to search within it."

func grepInput(matches string, maxMatches, maxLineBytes int, locator string) string {
	spill := ""
	if locator != "" {
		spill = fmt.Sprintf(`,"spill":{"saved":true,"locator":%s,"retrievalHint":%s}`, quote(locator), quote(hint))
	}
	return fmt.Sprintf(`{"args":{"pattern":"x"},"value":%s,"config":{"maxMatches":%d,"maxLineBytes":%d}%s}`,
		grepValueJSON(matchesFrom(matches)), maxMatches, maxLineBytes, spill)
}

func globInput(paths string, maxResults int, sampling bool, root, locator string) string {
	spill := ""
	if locator != "" {
		spill = fmt.Sprintf(`,"spill":{"saved":true,"locator":%s,"retrievalHint":%s}`, quote(locator), quote(hint))
	}
	list, _ := json.Marshal(append([]string{}, strings.Fields(paths)...))
	return fmt.Sprintf(`{"args":{"pattern":"*"},"value":{"root":%s,"paths":%s},"config":{"maxResults":%d,"sampleOverCap":%t}%s}`,
		quote(root), list, maxResults, sampling, spill)
}

var _ = Describe("line preview (SEARCH-PREVIEW-1..3)", func() {
	DescribeTable("search-card.md §4",
		func(line string, maxBytes int, want string) {
			Expect(search.PreviewLine(line, maxBytes)).To(Equal(want))
		},
		Entry(nil, "aéaéaéaé", 7, "aéaéa (line truncated)"),
		Entry(nil, "abcdef", 6, "abcdef"),
		Entry(nil, "abcdefg", 6, "abcdef (line truncated)"),
		Entry(nil, "a€b", 2, "a (line truncated)"),
		Entry(nil, "a€b", 3, "a (line truncated)"),
		Entry(nil, "a€b", 4, "a€ (line truncated)"),
		Entry(nil, "ab€", 3, "ab (line truncated)"),
		Entry(nil, "€", 2, " (line truncated)"),
		Entry(nil, "😀😀", 5, "😀 (line truncated)"),
		Entry(nil, "", 1, ""),
		Entry(nil, "\uFEFFabc", 2000, "abc"),
		Entry(nil, "\uFEFFxxxxxxxxxx", 5, "xx (line truncated)"),
	)
	It("turns a lone surrogate into U+FFFD", func() {
		line, _ := parse(`"a\ud800b"`).Str()
		Expect(search.PreviewLine(line, 2000)).To(Equal("a\uFFFDb"))
	})
})

var _ = Describe("grep text (SEARCH-GREP-1..5, SEARCH-SPILL-2)", func() {
	DescribeTable("search-card.md §6",
		func(matches string, maxMatches int, locator, want string) {
			Expect(grepOp(grepInput(matches, maxMatches, 2000, locator)).Content).To(Equal(want))
		},
		Entry(nil, "", 250, "", "No matches found"),
		Entry(nil, "a.ts:1:hit", 250, "", "Found 1 match\n\na.ts\nLine 1: hit"),
		Entry(nil, "b.ts:2:x a.ts:1:y b.ts:5:z", 250, "", "Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y"),
		Entry(nil, "a.ts:1:p b.ts:2:q a.ts:3:r A.ts:4:s", 250, "", "Found 4 matches\n\na.ts\nLine 1: p\nLine 3: r\n\nb.ts\nLine 2: q\n\nA.ts\nLine 4: s"),
		Entry(nil, "a.ts:7:", 250, "", "Found 1 match\n\na.ts\nLine 7: "),
		Entry(nil, "a.ts:1:one a.ts:2:two b.ts:3:three", 2, "", "Found 2 of 3 matches\n\na.ts\nLine 1: one\nLine 2: two\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"),
		Entry(nil, "a.ts:1:one a.ts:2:two b.ts:3:three", 1, "", "Found 1 of 3 matches\n\na.ts\nLine 1: one\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"),
		Entry(nil, "a.ts:1:one a.ts:2:two b.ts:3:three", 2, "/spill/session-ab12/x1y2-grep-results.txt", "Found 2 of 3 matches\n\na.ts\nLine 1: one\nLine 2: two\n\n(Full grep result stored at: /spill/session-ab12/x1y2-grep-results.txt. Use read with offset/limit, or grep this path to search within it.)"),
	)
	It("hands the complete formatted result to the spill store (SEARCH-SPILL-2)", func() {
		out := grepOp(grepInput("a.ts:1:one a.ts:2:two b.ts:3:three", 2, 2000, "/s"))
		Expect(out.SpillText).To(HaveValue(Equal("Found 3 matches\n\na.ts\nLine 1: one\nLine 2: two\n\nb.ts\nLine 3: three")))
	})
	It("still hands the text over when the save fails, and says it was not saved (SEARCH-SPILL-6)", func() {
		out := grepOp(`{"args":{"pattern":"x"},"value":` + grepValueJSON(matchesFrom("a:1:x a:2:y")) + `,"config":{"maxMatches":1},"spill":{"saved":false}}`)
		Expect(out.SpillText).To(HaveValue(Equal("Found 2 matches\n\na\nLine 1: x\nLine 2: y")))
		Expect(out.Content).To(HaveSuffix("(The complete result could not be saved; narrow pattern, path, or include to see more.)"))
	})
	It("attempts no save within the cap, when nested, or with no store", func() {
		Expect(grepOp(grepInput("a:1:x", 250, 2000, "/s")).SpillText).To(BeNil())
		Expect(grepOp(grepInput("a:1:x a:2:y", 1, 2000, "")).SpillText).To(BeNil())
		nested := grepOp(`{"args":{"pattern":"x"},"value":` + grepValueJSON(matchesFrom("a:1:x a:2:y")) + `,"config":{"maxMatches":1},"spill":{"saved":true,"locator":"/s","retrievalHint":"h"},"nested":true}`)
		Expect(nested.SpillText).To(BeNil())
		Expect(nested.Content).To(HaveSuffix("(The complete result could not be saved; narrow pattern, path, or include to see more.)"))
		Expect(nested.Meta).To(BeNil())
		Expect(nested.View).To(BeNil())
		Expect(nested.CallView).To(BeNil())
	})
})

var _ = Describe("glob text (SEARCH-GLOB-1..5)", func() {
	const ref = "/spill/session-ab12/x1y2-glob-results.txt"
	DescribeTable("search-card.md §7",
		func(paths string, maxResults int, sampling bool, root, locator, want string) {
			Expect(globOp(globInput(paths, maxResults, sampling, root, locator)).Content).To(Equal(want))
		},
		Entry(nil, "", 100, true, ".", "", "No files found"),
		Entry(nil, "vendor/a.ts vendor/b.ts src/c.ts", 4, true, ".", "", "vendor/a.ts\nvendor/b.ts\nsrc/c.ts"),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md", 3, false, ".", "", "vendor/a.ts\nvendor/b.ts\nvendor/c.ts\n\n(Showing 3 of 5 paths. The complete result could not be saved; narrow pattern or path to see more.)"),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md", 3, false, ".", ref, "vendor/a.ts\nvendor/b.ts\nvendor/c.ts\n\n(Showing 3 of 5 paths. Full sorted result stored at: /spill/session-ab12/x1y2-glob-results.txt. Use read with offset/limit, or grep this path to search within it.)"),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md top.txt", 3, true, ".", "", "vendor/a.ts\nsrc/d.ts\nguide/e.md\n\n(Showing 3 of 6 paths, sampled across 3 of the 4 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. The complete result could not be saved; narrow pattern or path to see more.)"),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md top.txt", 3, true, ".", ref, "vendor/a.ts\nsrc/d.ts\nguide/e.md\n\n(Showing 3 of 6 paths, sampled across 3 of the 4 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. Full sorted result stored at: /spill/session-ab12/x1y2-glob-results.txt. Use read with offset/limit, or grep this path to search within it.)"),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts", 3, true, ".", "", "vendor/a.ts\nvendor/b.ts\nsrc/d.ts\n\n(Showing 3 of 4 paths, sampled across 2 of the 2 top-level entries this pattern matched instead of taken in modification-time order. The complete result could not be saved; narrow pattern or path to see more.)"),
		Entry(nil, "a.ts b.ts c.ts", 2, true, ".", "", "a.ts\nb.ts\n\n(Showing 2 of 3 paths. The complete result could not be saved; narrow pattern or path to see more.)"),
		Entry(nil, "tree/z/1 tree/z/2 tree/y/1 tree/x/1 tree/x/2 tree/w.txt tree/z/3", 5, true, "tree", "", "tree/z/1\ntree/z/2\ntree/y/1\ntree/x/1\ntree/w.txt\n\n(Showing 5 of 7 paths, sampled across 4 of the 4 top-level entries this pattern matched instead of taken in modification-time order. The complete result could not be saved; narrow pattern or path to see more.)"),
		Entry(nil, "tree/z/1 tree/z/2 tree/y/1 tree/x/1 tree/x/2 tree/w.txt tree/z/3", 5, true, ".", "", "tree/z/1\ntree/z/2\ntree/y/1\ntree/x/1\ntree/x/2\n\n(Showing 5 of 7 paths, sampled across 1 of the 1 top-level entries this pattern matched instead of taken in modification-time order. The complete result could not be saved; narrow pattern or path to see more.)"),
	)
	It("spills every path in canonical order, never the sample (SEARCH-SPILL-3)", func() {
		out := globOp(globInput("a.ts b.ts c.ts d.ts", 2, true, ".", ref))
		Expect(out.SpillText).To(HaveValue(Equal("a.ts\nb.ts\nc.ts\nd.ts")))
	})
})

var _ = Describe("top-level sampling (SEARCH-SAMPLE-1..5)", func() {
	DescribeTable("search-card.md §8",
		func(paths string, maxItems int, root, items string, shown, total int) {
			s := search.SampleAcrossTopLevel(strings.Fields(paths), maxItems, root)
			Expect(s.Items).To(Equal(strings.Fields(items)))
			Expect(s.Shown).To(Equal(shown))
			Expect(s.Total).To(Equal(total))
		},
		Entry(nil, "v/a v/b v/c v/d src/e guide/f", 3, ".", "v/a src/e guide/f", 3, 3),
		Entry(nil, "v/a v/b v/c v/d src/e guide/f", 5, ".", "v/a v/b v/c src/e guide/f", 3, 3),
		Entry(nil, "solo/a many/b many/c many/d", 3, ".", "solo/a many/b many/c", 2, 2),
		Entry(nil, "a/1 b/1 c/1 d/1", 2, ".", "a/1 b/1", 2, 4),
		Entry(nil, "a/1 b/1 a/2 c/1 a/3 b/2 a/4", 6, ".", "a/1 a/2 a/3 b/1 b/2 c/1", 3, 3),
		Entry(nil, "/out/a /out/b /away/c /away/d", 2, ".", "/out/a /away/c", 2, 2),
		Entry(nil, "a.ts b.ts c.ts", 2, ".", "a.ts b.ts", 2, 3),
		Entry(nil, "./vendor/a.ts ./vendor/b.ts ./src/b.ts", 2, ".", "./vendor/a.ts ./src/b.ts", 2, 2),
		Entry(nil, "./a/1 a/2", 2, ".", "./a/1 a/2", 1, 1),
		Entry(nil, "/vendor/a.ts /vendor/b.ts /src/b.ts", 2, "/", "/vendor/a.ts /src/b.ts", 2, 2),
		Entry(nil, "src src/a src/b/c", 2, "src", "src src/a", 2, 3),
		Entry(nil, "src/a/1 src/a/2 src/b/1", 2, "src/", "src/a/1 src/b/1", 2, 2),
		Entry(nil, "other/a.ts other/b.ts src/x/y", 2, "src", "other/a.ts src/x/y", 2, 2),
		Entry(nil, "./tree/a/1 ./tree/a/2 ./tree/b/1", 2, "./tree", "./tree/a/1 ./tree/b/1", 2, 2),
		Entry(nil, "//x/1 x/2 /x/3", 3, ".", "//x/1 x/2 /x/3", 1, 1),
		Entry(nil, `old\one old\two src/a`, 2, ".", `old\one old\two`, 2, 3),
	)
})

var _ = Describe("meta projection (SEARCH-META-2..5, SEARCH-JSON-1)", func() {
	DescribeTable("search-card.md §10 grep rows",
		func(matches string, maxMatches, maxLineBytes int, want string, size int) {
			out := grepOp(grepInput(matches, maxMatches, maxLineBytes, ""))
			Expect(metaJSON(out.Meta)).To(Equal(want))
			if size > 0 {
				Expect(out.Meta.Size()).To(Equal(size))
			}
		},
		Entry(nil, "b.ts:2:x a.ts:1:y b.ts:5:z", 250, 2000, `{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}`, 197),
		Entry(nil, "a.ts:1:one a.ts:2:two b.ts:3:three", 2, 2000, `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"one"},{"lineNumber":2,"line":"two"}]}],"truncated":true,"total":3}`, 144),
		Entry(nil, "", 250, 2000, `{"shape":"matches","files":[],"truncated":false,"total":0}`, 58),
		Entry(nil, "a.txt:1:aéaéaéaé", 250, 7, `{"shape":"matches","files":[{"path":"a.txt","matches":[{"lineNumber":1,"line":"aéaéa (line truncated)"}]}],"truncated":false,"total":1}`, 0),
	)
	DescribeTable("search-card.md §10 glob rows",
		func(paths string, maxResults int, sampling bool, want string, size int) {
			out := globOp(globInput(paths, maxResults, sampling, ".", ""))
			Expect(metaJSON(out.Meta)).To(Equal(want))
			Expect(out.Meta.Size()).To(Equal(size))
		},
		Entry(nil, "", 100, false, `{"shape":"paths","paths":[],"truncated":false,"total":0}`, 56),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md top.txt", 3, true, `{"shape":"paths","paths":["vendor/a.ts","src/d.ts","guide/e.md"],"truncated":true,"total":6}`, 92),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md top.txt", 3, false, `{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"],"truncated":true,"total":6}`, 96),
		Entry(nil, "vendor/a.ts vendor/b.ts vendor/c.ts src/d.ts guide/e.md top.txt", 10, true, `{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts","src/d.ts","guide/e.md","top.txt"],"truncated":false,"total":6}`, 131),
	)
	It("measures the §11 example at 100 bytes, not Go's 118", func() {
		m := search.Meta{Shape: search.ShapePaths, Paths: []string{"日本/ファイル.ts", "a<b>&c.ts", "x\u2028y"}, Total: 3}
		Expect(metaJSON(&m)).To(Equal(`{"shape":"paths","paths":["日本/ファイル.ts","a<b>&c.ts","x` + "\u2028" + `y"],"truncated":false,"total":3}`))
		Expect(m.Size()).To(Equal(100))
		goBytes, err := json.Marshal(struct {
			Shape     string   `json:"shape"`
			Paths     []string `json:"paths"`
			Truncated bool     `json:"truncated"`
			Total     int      `json:"total"`
		}{"paths", m.Paths, false, 3})
		Expect(err).NotTo(HaveOccurred())
		Expect(goBytes).To(HaveLen(118), "the pitfall SEARCH-JSON-2 warns about")
	})
	It("carries no text, title or other member (SEARCH-META-4)", func() {
		out := grepOp(grepInput("a:1:x", 250, 2000, ""))
		members, _ := out.Meta.Value().Members()
		var keys []string
		for _, m := range members {
			keys = append(keys, m.Key)
		}
		Expect(keys).To(Equal([]string{"shape", "files", "truncated", "total"}))
	})
})

var _ = Describe("meta byte cap (SEARCH-CAP-1..5, SEARCH-META-6)", func() {
	x60 := func(c string) string { return strings.Repeat(c, 60) }
	three := fmt.Sprintf("a.ts:1:%s b.ts:2:%s c.ts:3:%s", x60("x"), x60("y"), x60("z"))
	DescribeTable("the worked example",
		func(c int, kept []string, truncated bool, size int) {
			out := grepOp(fmt.Sprintf(`{"args":{"pattern":"x"},"value":%s,"config":{"maxMetaBytes":%d}}`, grepValueJSON(matchesFrom(three)), c))
			var paths []string
			for _, f := range out.Meta.Files {
				paths = append(paths, f.Path)
			}
			Expect(paths).To(Equal(kept))
			Expect(out.Meta.Truncated).To(Equal(truncated))
			Expect(out.Meta.Size()).To(Equal(size))
			Expect(len(metaJSON(out.Meta))).To(Equal(size))
			Expect(out.Meta.Total).To(Equal(3))
		},
		Entry("402", 402, []string{"a.ts", "b.ts", "c.ts"}, false, 402),
		Entry("401", 401, []string{"a.ts", "b.ts", "c.ts"}, true, 401),
		Entry("400", 400, []string{"a.ts", "b.ts"}, true, 286),
		Entry("286", 286, []string{"a.ts", "b.ts"}, true, 286),
		Entry("285", 285, []string{"a.ts"}, true, 171),
		Entry("171", 171, []string{"a.ts"}, true, 171),
		Entry("170", 170, []string{"a.ts"}, true, 171),
	)
	It("keeps both 1-match files at C=168 with truncated set", func() {
		out := grepOp(`{"args":{"pattern":"x"},"value":` + grepValueJSON(matchesFrom("a.ts:1:q b.ts:2:r")) + `,"config":{"maxMetaBytes":168}}`)
		Expect(out.Meta.Files).To(HaveLen(2))
		Expect(out.Meta.Truncated).To(BeTrue())
		Expect(out.Meta.Size()).To(Equal(168))
	})
	It("keeps one oversized group (500-byte line, C=50)", func() {
		line := strings.Repeat("l", 500)
		out := grepOp(`{"args":{"pattern":"x"},"value":` + grepValueJSON(matchesFrom("a.ts:1:"+line)) + `,"config":{"maxMetaBytes":50}}`)
		Expect(out.Meta.Files).To(HaveLen(1))
		Expect(out.Meta.Truncated).To(BeTrue())
		Expect(out.Meta.Size()).To(Equal(611))
	})
	It("sets truncated on an empty list with a tiny cap", func() {
		Expect(metaJSON(grepOp(`{"args":{"pattern":"x"},"value":{"matches":[]},"config":{"maxMetaBytes":10}}`).Meta)).
			To(Equal(`{"shape":"matches","files":[],"truncated":true,"total":0}`))
		Expect(metaJSON(globOp(`{"args":{"pattern":"x"},"value":{"root":".","paths":[]},"config":{"maxMetaBytes":40,"sampleOverCap":false}}`).Meta)).
			To(Equal(`{"shape":"paths","paths":[],"truncated":true,"total":0}`))
	})
	It("keeps one of three 103-character paths at C=180", func() {
		var paths []string
		for _, c := range "abc" {
			paths = append(paths, strings.Repeat(string(c), 103))
		}
		out := globOp(globInput(strings.Join(paths, " "), 100, false, ".", ""))
		Expect(out.Meta.Size()).To(Equal(373))
		out = globOp(strings.Replace(globInput(strings.Join(paths, " "), 100, false, ".", ""), `"maxResults":100`, `"maxResults":100,"maxMetaBytes":180`, 1))
		Expect(out.Meta.Paths).To(HaveLen(1))
		Expect(out.Meta.Truncated).To(BeTrue())
		Expect(out.Meta.Size()).To(Equal(160))
	})
	It("caps meta below the text's groups: meta is a prefix of the text (SEARCH-META-6)", func() {
		spec := fmt.Sprintf("a.ts:1:%s b.ts:2:%s c.ts:3:s d.ts:4:t", strings.Repeat("q", 50), strings.Repeat("r", 50))
		out := grepOp(`{"args":{"pattern":"x"},"value":` + grepValueJSON(matchesFrom(spec)) + `,"config":{"maxMatches":2,"maxMetaBytes":150}}`)
		Expect(metaJSON(out.Meta)).To(Equal(`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"` + strings.Repeat("q", 50) + `"}]}],"truncated":true,"total":4}`))
		Expect(out.Content).To(ContainSubstring("\n\nb.ts\nLine 2: "))
	})
})

var _ = Describe("narrowing (SEARCH-NARROW-1..7)", func() {
	view := func(meta string) string {
		v := search.ViewFromMeta(parse(meta))
		if v == nil {
			return "none"
		}
		return string(jsonjs.Marshal(v.Value()))
	}
	DescribeTable("rejects",
		func(meta string) { Expect(view(meta)).To(Equal("none")) },
		Entry(nil, `null`), Entry(nil, `"nope"`), Entry(nil, `42`), Entry(nil, `true`), Entry(nil, `[]`),
		Entry(nil, `{"shape":"paths","paths":[],"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":"false","total":0}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":0,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":null,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":false}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":false,"total":"0"}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":false,"total":null}`),
		Entry(nil, `{"shape":"other","paths":[],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"Paths","paths":[],"truncated":false,"total":0}`),
		Entry(nil, `{"paths":[],"truncated":false,"total":0}`),
		Entry(nil, `{"kind":"paths","paths":[],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":"x","truncated":false,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[1],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[null],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"paths","files":[],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":"x","truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[null],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":["x"],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[[]],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":1,"matches":[]}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":"x"}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a"}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":[null]}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":[[1,"x"]]}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":"1","line":"x"}]}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":2}]}],"truncated":false,"total":0}`),
	)
	DescribeTable("accepts",
		func(meta, want string) { Expect(view(meta)).To(Equal(want)) },
		Entry(nil, `{"shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`, `{"card":"search","shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":5}`, `{"card":"search","shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":5}`),
		Entry(nil, `{"shape":"matches","files":[],"truncated":false,"total":0}`, `{"card":"search","shape":"matches","files":[],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":false,"total":0}`, `{"card":"search","shape":"paths","paths":[],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":false,"total":-3}`, `{"card":"search","shape":"paths","paths":[],"truncated":false,"total":-3}`),
		Entry(nil, `{"shape":"paths","paths":[],"truncated":false,"total":2.5}`, `{"card":"search","shape":"paths","paths":[],"truncated":false,"total":2.5}`),
		Entry("1e400 is Infinity, which JSON.stringify prints as null", `{"shape":"paths","paths":[],"truncated":false,"total":1e400}`, `{"card":"search","shape":"paths","paths":[],"truncated":false,"total":null}`),
		Entry(nil, `{"shape":"paths","paths":["a","b","c"],"truncated":false,"total":1}`, `{"card":"search","shape":"paths","paths":["a","b","c"],"truncated":false,"total":1}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":[]}],"truncated":false,"total":0}`, `{"card":"search","shape":"matches","files":[{"path":"a","matches":[]}],"truncated":false,"total":0}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":-1.5,"line":"x"}]}],"truncated":false,"total":1}`, `{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":-1.5,"line":"x"}]}],"truncated":false,"total":1}`),
		Entry(nil, `{"shape":"paths","paths":["a"],"truncated":false,"total":1,"extra":1,"card":"other","title":"T"}`, `{"card":"search","shape":"paths","paths":["a"],"truncated":false,"total":1}`),
		Entry(nil, `{"shape":"matches","files":[{"path":"a","extraF":1,"matches":[{"lineNumber":1,"line":"x","extraM":true}]}],"truncated":false,"total":1,"extra":2}`, `{"card":"search","shape":"matches","files":[{"path":"a","extraF":1,"matches":[{"lineNumber":1,"line":"x","extraM":true}]}],"truncated":false,"total":1}`),
		Entry("duplicate keys: the last shape wins", `{"shape":"paths","paths":["a"],"truncated":false,"total":1,"shape":"matches","files":[]}`, `{"card":"search","shape":"matches","files":[],"truncated":false,"total":1}`),
	)
})

var _ = Describe("presenters (SEARCH-PRESENT-*, SEARCH-CALL-*)", func() {
	present := func(tool, args string, isError bool, meta string) string {
		in := fmt.Sprintf(`{"tool":%q,"result":{"isError":%t`, tool, isError)
		if meta != "" {
			in += `,"meta":` + meta
		}
		in += "}"
		if args != "" {
			in += `,"args":` + args
		}
		in += "}"
		var pi search.PresentInput
		Expect(json.Unmarshal([]byte(in), &pi)).To(Succeed())
		out, err := search.Present(pi)
		Expect(err).NotTo(HaveOccurred())
		if out.View == nil {
			return "none"
		}
		return string(jsonjs.Marshal(out.View.Value()))
	}
	paths := `{"shape":"paths","paths":["a"],"truncated":false,"total":1}`
	matches := `{"shape":"matches","files":[],"truncated":false,"total":0}`
	It("gives the tool's own shape only", func() {
		Expect(present("glob", `{"pattern":"*"}`, false, paths)).NotTo(Equal("none"))
		Expect(present("grep", `{"pattern":"*"}`, false, paths)).To(Equal("none"))
		Expect(present("grep", `{"pattern":"x"}`, false, matches)).NotTo(Equal("none"))
		Expect(present("glob", `{"pattern":"x"}`, false, matches)).To(Equal("none"))
	})
	It("gives no view for errors or absent meta", func() {
		Expect(present("glob", `{"pattern":"*"}`, true, paths)).To(Equal("none"))
		Expect(present("glob", `{"pattern":"*"}`, false, "")).To(Equal("none"))
		Expect(present("glob", `{"pattern":"*"}`, false, "null")).To(Equal("none"))
	})
	It("soft-checks the logged arguments (SEARCH-PRESENT-3)", func() {
		Expect(present("grep", `{}`, false, matches)).To(Equal("none"))
		Expect(present("grep", `null`, false, matches)).To(Equal("none"))
		Expect(present("grep", `{"pattern":"x","include":null}`, false, matches)).To(Equal("none"))
		Expect(present("glob", `{"pattern":"x","include":null}`, false, paths)).NotTo(Equal("none"), "glob's schema has no include")
		Expect(present("grep", `{"pattern":"x","other":1}`, false, matches)).NotTo(Equal("none"))
		Expect(present("grep", "", false, matches)).NotTo(Equal("none"), "absent args are not checked")
	})
	callTitle := func(view any) string {
		b, _ := json.Marshal(view)
		return string(b)
	}
	DescribeTable("grep call view",
		func(args, want string) { Expect(callTitle(search.PresentGrepCall(parse(args)))).To(Equal(want)) },
		Entry(nil, `{"pattern":"todo"}`, `{"card":"generic","title":"Grep todo","kind":"search","rawInput":"todo"}`),
		Entry(nil, `{"pattern":"todo","path":"src","include":"*.ts"}`, `{"card":"generic","title":"Grep todo in src (*.ts)","kind":"search","rawInput":"todo"}`),
		Entry(nil, `{"pattern":"x","include":"*.md"}`, `{"card":"generic","title":"Grep x (*.md)","kind":"search","rawInput":"x"}`),
		Entry(nil, `{"pattern":"","path":"","include":""}`, `{"card":"generic","title":"Grep  in  ()","kind":"search","rawInput":""}`),
		Entry(nil, `{"pattern":1}`, `null`),
	)
	DescribeTable("glob call view",
		func(args, want string) { Expect(callTitle(search.PresentGlobCall(parse(args)))).To(Equal(want)) },
		Entry(nil, `{"pattern":"**/*.ts"}`, `{"card":"generic","title":"Glob **/*.ts","kind":"search","rawInput":"**/*.ts"}`),
		Entry(nil, `{"pattern":"*.md","path":"docs"}`, `{"card":"generic","title":"Glob *.md in docs","kind":"search","rawInput":"*.md"}`),
		Entry(nil, `{"pattern":"*","path":""}`, `{"card":"generic","title":"Glob * in ","kind":"search","rawInput":"*"}`),
		Entry(nil, `"x"`, `null`),
	)
})

var _ = Describe("arguments and errors (SEARCH-ARGS-*, SEARCH-ERR-1)", func() {
	DescribeTable("grep",
		func(args, content string, typed bool) {
			out := grepOp(`{"args":` + args + `,"value":{"matches":[]}}`)
			Expect(out.IsError).To(BeTrue())
			Expect(out.Content).To(Equal(content))
			Expect(out.Meta).To(BeNil())
			Expect(out.View).To(BeNil())
			if typed {
				Expect(out.Error).To(HaveValue(Equal(search.ToolArgsErrorInfo())))
			} else {
				Expect(out.Error).To(BeNil())
			}
		},
		Entry(nil, `{}`, `Error: invalid arguments: missing required property "pattern"`, true),
		Entry(nil, `{"pattern":1,"path":2,"include":3}`, `Error: invalid arguments: "pattern" must be a string; "path" must be a string; "include" must be a string`, true),
		Entry(nil, `null`, `Error: invalid arguments: "arguments" must be an object`, true),
		Entry(nil, `[]`, `Error: invalid arguments: "arguments" must be an object`, true),
		Entry(nil, `{"pattern":""}`, `Error: pattern must be a non-empty string`, false),
		Entry(nil, `{"pattern":"x","path":" \uFEFF"}`, `Error: path must be a non-empty string when given`, false),
		Entry(nil, `{"pattern":"x","include":"\u3000"}`, `Error: include must be a non-empty glob when given`, false),
		Entry(nil, `{"pattern":"x","include":"!a"}`, `Error: include must be a positive glob filter; negated patterns ("!…") are not supported`, false),
		Entry(nil, `{"pattern":"x","include":"*.ts,*.js"}`, `Error: include must be one glob, not a comma-separated list (use {a,b} alternation instead)`, false),
		Entry(nil, `{"pattern":"x","include":"}a,b"}`, `Error: include must be one glob, not a comma-separated list (use {a,b} alternation instead)`, false),
	)
	DescribeTable("grep accepts",
		func(args string) {
			Expect(grepOp(`{"args":` + args + `,"value":{"matches":[]}}`).IsError).To(BeFalse())
		},
		Entry(nil, `{"pattern":" "}`),
		Entry(nil, `{"pattern":"x","include":"*.{ts,tsx}"}`),
		Entry(nil, `{"pattern":"x","include":" !a"}`),
		Entry(nil, `{"pattern":"x","path":"\u0085"}`),
	)
	DescribeTable("glob",
		func(args, content string) {
			out := globOp(`{"args":` + args + `,"value":{"root":".","paths":[]},"config":{"sampleOverCap":false}}`)
			Expect(out.IsError).To(BeTrue())
			Expect(out.Content).To(Equal(content))
		},
		Entry(nil, `{"pattern":" "}`, `Error: pattern must be a non-empty string`),
		Entry(nil, `{"pattern":"x","path":"\u3000"}`, `Error: path must be a non-empty string when given`),
		Entry(nil, `{"pattern":1}`, `Error: invalid arguments: "pattern" must be a string`),
	)
	It("keeps the call view for argument errors that pass the schema", func() {
		out := grepOp(`{"args":{"pattern":""},"value":{"matches":[]}}`)
		Expect(out.CallView).NotTo(BeNil())
		Expect(grepOp(`{"args":{},"value":{"matches":[]}}`).CallView).To(BeNil())
	})
})

var _ = Describe("configuration (SEARCH-CFG-1/2)", func() {
	It("uses the defaults when settings are absent", func() {
		var ms []search.Match
		for i := 0; i < 251; i++ {
			ms = append(ms, search.Match{Path: fmt.Sprintf("f%d", i), LineNumber: float64(i + 1), Line: strings.Repeat("x", 2001)})
		}
		out := grepOp(`{"args":{"pattern":"x"},"value":` + grepValueJSON(ms) + `}`)
		Expect(out.Content).To(HavePrefix("Found 250 of 251 matches"))
		Expect(out.Content).To(ContainSubstring("Line 1: " + strings.Repeat("x", 2000) + " (line truncated)\n"))
		Expect(out.Meta.Files).To(HaveLen(31), "65536 bytes hold 31 groups of one 2017-byte line")
		Expect(out.Meta.Size()).To(BeNumerically("<=", 65536))
		var paths []string
		for i := 0; i < 101; i++ {
			paths = append(paths, fmt.Sprintf("p%d", i))
		}
		g := globOp(globInput(strings.Join(paths, " "), 100, false, ".", ""))
		Expect(g.Content).To(ContainSubstring("(Showing 100 of 101 paths."))
	})
	DescribeTable("rejects bad settings with upstream's message",
		func(op, config, message string) {
			var err error
			if op == "grep" {
				var in search.GrepInput
				Expect(json.Unmarshal([]byte(`{"args":{"pattern":"x"},"value":{"matches":[]},"config":`+config+`}`), &in)).To(Succeed())
				_, err = search.GrepResult(in)
			} else {
				var in search.GlobInput
				Expect(json.Unmarshal([]byte(`{"args":{"pattern":"x"},"value":{"root":".","paths":[]},"config":`+config+`}`), &in)).To(Succeed())
				_, err = search.GlobResult(in)
			}
			Expect(err).To(MatchError(message))
		},
		Entry(nil, "grep", `{"maxMatches":0}`, "tool-fs-search: grepMaxMatches must be a positive integer"),
		Entry(nil, "grep", `{"maxLineBytes":1.5}`, "tool-fs-search: grepMaxLineBytes must be a positive integer"),
		Entry(nil, "grep", `{"maxMatches":"10"}`, "invalid config:\n  - $.grepMaxMatches expected number but got 10 (at grepMaxMatches)"),
		Entry(nil, "glob", `{"sampleOverCap":false,"maxResults":-1}`, "tool-fs-search: globMaxResults must be a positive integer"),
		Entry(nil, "glob", `{}`, "invalid config:\n  - $.sampleOverCapGlobResults missing required value (at sampleOverCapGlobResults)"),
	)
})
