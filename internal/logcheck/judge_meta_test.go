package logcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Survivors of meta.go (issue 22): a search result's meta read from the
// line, its hash (LOG-RES-3 compares a pruned replacement's meta with the
// original's by it, as JSON.parse values: LOG-7) and its size.

// baseMeta is the grep meta of valid-pruned-replacement.jsonl, on the
// original result (line 7) and on its pruned replacement (line 16).
const baseMeta = `"meta":{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}`

// metaReplaced is valid-pruned-replacement.jsonl with the original grep
// result's meta spelt orig and its replacement's spelt repl (JSON texts).
func metaReplaced(orig, repl string) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-pruned-replacement.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	lines := strings.SplitAfter(string(b), "\n")
	Expect(lines[6]).To(HavePrefix(`{"type":"tool/result","seq":7,`))
	Expect(lines[15]).To(HavePrefix(`{"type":"tool/result","seq":16,`))
	for i, m := range map[int]string{6: orig, 15: repl} {
		Expect(strings.Count(lines[i], baseMeta)).To(Equal(1))
		lines[i] = strings.Replace(lines[i], baseMeta, `"meta":`+m, 1)
	}
	return []byte(strings.Join(lines, ""))
}

// res3 are the LOG-RES-3 findings among a log's.
func res3(log []byte) []string {
	GinkgoHelper()
	var out []string
	for _, f := range findings(log) {
		if strings.HasPrefix(f, "LOG-RES-3 ") {
			out = append(out, f)
		}
	}
	return out
}

const metaDiffers = "LOG-RES-3 violation: seq 16 (call_grep): pruned replacement: meta differs from the original result's"

var _ = Describe("a pruned replacement's meta against the original's (issue 22, meta.go)", func() {
	It("the base log's replacement keeps the meta", func() {
		Expect(res3(metaReplaced(strings.TrimPrefix(baseMeta, `"meta":`), strings.TrimPrefix(baseMeta, `"meta":`)))).To(BeEmpty())
	})

	// meta.go:84:17 `&&` -> `||`: on a line that is not UTF-8, a meta
	// that does not narrow was hashed from the line's bytes instead of
	// its parse, where a JS host reads each invalid byte as U+FFFD (LOG-1):
	// the replacement that spells U+FFFD was called different.
	It("reads a meta on a line that is not UTF-8 as a JS host does, U+FFFD for the invalid byte", func() {
		for _, orig := range []string{"{\"note\":\"a\xffb\"}", "[\"a\xffb\"]", "\"a\xffb\""} {
			repl := strings.ReplaceAll(orig, "\xff", `\ufffd`)
			Expect(res3(metaReplaced(orig, repl))).To(BeEmpty(), orig)
			Expect(res3(metaReplaced(orig, strings.ReplaceAll(orig, "\xff", "?")))).To(Equal([]string{metaDiffers}), orig)
		}
	})

	// meta.go:180:5 `c.validUTF8` negated: hashMeta (the replacement's
	// meta) hashed a line that is not UTF-8 from its bytes.
	It("reads a replacement's meta on a line that is not UTF-8 as a JS host does", func() {
		plain := strings.Replace(strings.TrimPrefix(baseMeta, `"meta":`), `"line":"x"`, "\"line\":\"x\xff\"", 1)
		for _, repl := range []string{"{\"note\":\"a\xffb\"}", "[\"a\xffb\"]", "\"a\xffb\"", plain} {
			orig := strings.ReplaceAll(repl, "\xff", `\ufffd`)
			Expect(res3(metaReplaced(orig, repl))).To(BeEmpty(), repl)
			Expect(res3(metaReplaced(strings.ReplaceAll(repl, "\xff", "?"), repl))).To(Equal([]string{metaDiffers}), repl)
		}
	})

	// Every item of a list counts, not only the last: meta.go:538:56
	// foldItem's `*` -> `/` kept about 24 bits of the fold before each
	// item, so an array's hash was its last item's, and a replacement that
	// changed the first file of a grep meta passed.
	It("tells a meta whose list differs before its last item", func() {
		orig := strings.TrimPrefix(baseMeta, `"meta":`)
		for _, repl := range []string{
			strings.Replace(orig, `"path":"b.ts"`, `"path":"c.ts"`, 1),
			strings.Replace(orig, `{"lineNumber":2,"line":"x"}`, `{"lineNumber":3,"line":"x"}`, 1),
		} {
			Expect(res3(metaReplaced(orig, repl))).To(Equal([]string{metaDiffers}), repl)
		}
		Expect(res3(metaReplaced(`[1,2]`, `[3,2]`))).To(Equal([]string{metaDiffers}))
		Expect(res3(metaReplaced(`{"a":[1,[2,3],4]}`, `{"a":[1,[5,3],4]}`))).To(Equal([]string{metaDiffers}))
		Expect(res3(metaReplaced(`{"a":[1,[2,3],4]}`, `{"a": [1, [2, 3], 4.0]}`))).To(BeEmpty())
	})

	// Numbers are compared by value, -0 as 0 (LOG-7): meta.go:559:7
	// hashNumber's `f = 0` -> `f = 1` hashed 0 and -0 as 1, so a
	// replacement that changed a 0 to a 1 passed.
	It("tells 0 from 1 and -0 from 1, and -0 from 0 not", func() {
		Expect(res3(metaReplaced(`{"n":0}`, `{"n":1}`))).To(Equal([]string{metaDiffers}))
		Expect(res3(metaReplaced(`[1,-0]`, `[1,1]`))).To(Equal([]string{metaDiffers}))
		Expect(res3(metaReplaced(`[1,-0]`, `[1,0]`))).To(BeEmpty())
		orig := strings.TrimPrefix(baseMeta, `"meta":`)
		Expect(res3(metaReplaced(strings.Replace(orig, `"lineNumber":1,`, `"lineNumber":0,`, 1), orig))).To(Equal([]string{metaDiffers}))
	})

	// An object meta of more than 16 members (hashRaw leaves it to the
	// tree: meta.go:304). 305:13 `false -> true` hashed it as 0, so a
	// replacement's meta of 17 members (hashMeta) differed from the
	// original's (the tree's hash) even when JSON.parse makes them equal.
	It("compares a meta of 17 members by value, in any member order", func() {
		members := make([]string, 17)
		for i := range members {
			members[i] = fmt.Sprintf(`"k%02d":%d`, i, i)
		}
		orig := "{" + strings.Join(members, ",") + "}"
		slices.Reverse(members)
		Expect(res3(metaReplaced(orig, "{"+strings.Join(members, ",")+"}"))).To(BeEmpty())
		members[0] = `"k16":"16"`
		Expect(res3(metaReplaced(orig, "{"+strings.Join(members, ",")+"}"))).To(Equal([]string{metaDiffers}))
	})

	// meta.go:304 bounds hashRaw's duplicate-key test, quadratic in the
	// members, to objects of at most 16: a wider meta takes the tree. A
	// replacement's meta of 150,000 members is compared as any other (with
	// the bound negated, 304:5 or 304:13 `>` -> `<=`, the check ran for
	// minutes: the judge's time limit kills it).
	It("compares a meta of 150,000 members", func() {
		const n = 150_000
		var b strings.Builder
		b.WriteByte('{')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
		b.WriteByte('}')
		wide := b.String()
		Expect(res3(metaReplaced(wide, wide))).To(BeEmpty())
		Expect(res3(metaReplaced(wide, strings.Replace(wide, `"k7":7,`, `"k7":8,`, 1)))).To(Equal([]string{metaDiffers}))
	})
})

// hashMeta (a replacement's meta, LOG-RES-3) of a meta nested 10^6
// levels deep in objects (issue 23): hashRaw recurses at most hashRawDepth
// levels, through arrays and objects alike, and hashNested hashes the rest
// in a few bytes a level. meta.go:314:39 `depth+1` -> `depth+0` let it
// recurse through every object level, each keeping its members.
var _ = Describe("a pruned replacement's meta nested 10^6 levels deep in objects (issue 23, meta.go)", func() {
	It("is compared with the original's in at most 200 bytes a level", func() {
		const depth = 1_000_000
		objects := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		log := metaReplaced(objects, objects)
		before := totalAlloc()
		got := res3(log)
		cost := (totalAlloc() - before) / depth
		Expect(got).To(BeEmpty())
		Expect(cost).To(BeNumerically("<=", 200)) // 128 on the source, 64 a line; 306 through hashRaw's recursion
	})
})

// The fast path reads only a meta in the reference's layout; a meta in
// that layout but for a list item that is no string does not narrow
// (SEARCH-NARROW-5), which the tree says: meta.go:340:21 `||` -> `&&`
// read a non-string as a string up to the next quote (so [1,",x"] was two
// paths), 341:15 `false` -> `true` took it as a string.
var _ = Describe("a search meta in the reference's layout with a list item that is no string (issue 22, meta.go)", func() {
	const globMeta = `"meta":{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"],"truncated":true,"total":5}`
	It("does not narrow, for glob", func() {
		for _, paths := range []string{`[1,",x"]`, `[1]`, `[null,"vendor/a.ts"]`, `["vendor/a.ts",true]`} {
			log := edited("valid-base", globMeta, `"meta":{"shape":"paths","paths":`+paths+`,"truncated":true,"total":5}`)
			Expect(findings(log)).To(ContainElement(HavePrefix("LOG-CHECK-SEARCH-2 violation: seq 9 (call_glob): glob meta does not narrow to a search view (SEARCH-NARROW)")), paths)
		}
	})
	It("does not narrow, for grep", func() {
		for _, edit := range [][2]string{{`"path":"a.ts"`, `"path":1`}, {`"line":"y"`, `"line":5`}, {`"path":"a.ts"`, `"path":7,"x":"a.ts"`}} {
			log := edited("valid-base", edit[0], edit[1])
			Expect(findings(log)).To(ContainElement(HavePrefix("LOG-CHECK-SEARCH-2 violation: seq 7 (call_grep): grep meta does not narrow to a search view (SEARCH-NARROW)")), edit[1])
		}
	})
})

// LOG-CHECK-SEARCH-3 measures a meta as JSON.stringify spells its parse.
// The fast path takes the line's length when stringify gives the text
// back; an integer of more than 15 digits may print otherwise (10^24 as
// 1e+24): meta.go:374:5 `len(r) > 15` negated took the 25 digits as
// stringify's spelling.
var _ = Describe("a search meta's size (issue 22, meta.go)", func() {
	const grepTail = `"truncated":false,"total":3}`
	It("is JSON.stringify's length for a total of more than 15 digits", func() {
		base := string(edited("valid-base"))
		start := strings.Index(base, `"meta":{"shape":"matches"`) + len(`"meta":`)
		end := strings.Index(base, grepTail) + len(grepTail)
		total := "1" + strings.Repeat("0", 24)
		size := end - start - len("3") + len("1e+24") // the meta with total 1e+24, as stringify spells it
		log := edited("valid-base", grepTail, `"truncated":false,"total":`+total+`}`)
		search3 := func(limit int) []string {
			var out []string
			for _, f := range findings(log, withCap(limit)) {
				if strings.HasPrefix(f, "LOG-CHECK-SEARCH-3 ") {
					out = append(out, f)
				}
			}
			return out
		}
		Expect(search3(size)).To(BeEmpty())
		Expect(search3(size - 1)).To(Equal([]string{fmt.Sprintf("LOG-CHECK-SEARCH-3 violation: seq 7 (call_grep): meta is %d bytes, over searchMetaMaxBytes %d, with 2 files", size, size-1)}))
	})
})

// A meta JSON.parse reads alike is checked alike: whitespace the
// reference's layout has not (the fast path refuses it and the tree reads
// it) changes nothing. meta.go:437:11, 442:10 and 446:10 (`false` ->
// `true`) answered such a meta as read, with no view: "does not narrow".
var _ = Describe("a search meta spelt with whitespace (issue 22, meta.go)", func() {
	const globMeta = `"meta":{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"],"truncated":true,"total":5}`
	It("is read as the reference's layout is, and the log stays valid", func() {
		for _, spelt := range []string{
			`"meta":{"shape":"paths","paths":["vendor/a.ts" ,"vendor/b.ts","vendor/c.ts"],"truncated":true,"total":5}`,
			`"meta":{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"], "truncated":true,"total":5}`,
			`"meta":{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"],"truncated": true,"total":5}`,
			`"meta":{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"],"truncated":true, "total":5}`,
			`"meta":{"shape":"paths","paths":["vendor/a.ts","vendor/b.ts","vendor/c.ts"],"truncated":true,"total":5 }`,
		} {
			Expect(findings(edited("valid-base", globMeta, spelt))).To(BeEmpty(), spelt)
		}
	})
})
