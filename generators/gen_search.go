package generators

import (
	"strings"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// This file generates the inputs of grep.result, glob.result and
// search.present, and their building blocks: display paths with a
// consistent search root, matched lines, argument objects and search metas
// (well-formed, and every malformed class of SEARCH-NARROW-2..6).

// ---------------------------------------------------------------------------
// Paths and roots

// genRoots are glob search roots in display form (SEARCH-VAL-2, SEARCH-SAMPLE-1):
// the default ".", relative roots with and without a trailing separator, a
// "./" root, the filesystem root and a root made of separators only.
var genRoots = []string{".", ".", ".", "src", "src/", "./tree", "tree", "/", "//", "/w/proj"}

// Root draws a glob search root. Paths(root) draws paths consistent with it.
func Root() *rapid.Generator[string] { return rapid.SampledFrom(genRoots) }

// genTopLevelNames are the top-level entries paths share, so that a top-level
// sample (SEARCH-SAMPLE-*) has several groups of several paths. A backslash
// is an ordinary character on POSIX (SEARCH-SAMPLE-2).
var genTopLevelNames = []string{"vendor", "src", "guide", "a", "b", "docs", ".hidden", "日本", "old\\one", "x y", "tree", "node_modules"}

// genFileNames are leaf names, including the ones whose JSON size differs from
// Go's encoding/json (SEARCH-JSON-2) and multi-byte ones.
var genFileNames = []string{"a.ts", "b.ts", "c.md", "main.go", "README", "ファイル.ts", "a<b>&c.ts", "x\u2028y.txt", "é.txt", "😀.md", "q\"uote.ts", "back\\slash.ts", ".env", "top.txt"}

// Paths draws up to 24 distinct display paths of a search under root: paths
// inside the root under a few shared top-level entries (so sampling groups
// are interesting), files directly under the root, deep paths, the root
// itself, "./"-prefixed and absolute paths, paths outside the root, and
// backslashes. No path is empty or holds "\n".
func Paths(root string) *rapid.Generator[[]string] {
	return rapid.Custom(func(t *rapid.T) []string {
		tops := genDrawTops(t)
		n := rapid.IntRange(0, 24).Draw(t, "pathCount")
		if n > 12 && rapid.Bool().Draw(t, "fewPaths") {
			n -= 12
		}
		seen := make(map[string]bool, n) // membership only; never iterated
		out := make([]string, 0, n)
		for i := 0; i < n; i++ {
			p := genDrawPath(t, root, tops)
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		return out
	})
}

func genDrawTops(t *rapid.T) []string {
	n := rapid.IntRange(1, 5).Draw(t, "topCount")
	return rapid.SliceOfNDistinct(rapid.SampledFrom(genTopLevelNames), n, n, rapid.ID[string]).Draw(t, "tops")
}

// genRootPrefix is how a path under root starts: "" or "./" under ".", the root
// and one separator elsewhere (sometimes two, which SEARCH-SAMPLE-2 strips).
func genRootPrefix(t *rapid.T, root string) string {
	switch root {
	case ".":
		if genChoice(t, "dotSlash", 4) == 0 {
			return "./"
		}
		return ""
	case "/", "//":
		return rapid.SampledFrom([]string{"/", "/", "//"}).Draw(t, "slashes")
	}
	r := strings.TrimRight(root, "/")
	if genChoice(t, "doubleSep", 8) == 0 {
		return r + "//"
	}
	return r + "/"
}

func genDrawSegments(t *rapid.T, lo, hi int) string {
	n := rapid.IntRange(lo, hi).Draw(t, "depth")
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(rapid.SampledFrom([]string{"lib", "x", "internal", "pkg", "deep", "日", "v1"}).Draw(t, "segment"))
		b.WriteString("/")
	}
	return b.String()
}

func genDrawFileName(t *rapid.T) string {
	if genChoice(t, "oddName", 6) == 0 {
		s := PlainString().Draw(t, "name")
		if s != "" {
			return s
		}
	}
	return rapid.SampledFrom(genFileNames).Draw(t, "fileName")
}

func genDrawPath(t *rapid.T, root string, tops []string) string {
	top := rapid.SampledFrom(tops).Draw(t, "top")
	switch genChoice(t, "pathKind", 14) {
	case 7: // a file directly under the root: its own top-level entry
		return genRootPrefix(t, root) + genDrawFileName(t)
	case 8: // a deep path
		return genRootPrefix(t, root) + top + "/" + genDrawSegments(t, 5, 9) + genDrawFileName(t)
	case 9: // absolute, outside the workdir (SEARCH-EXEC-5 keeps it)
		return "/" + rapid.SampledFrom([]string{"out", "away", "usr/lib"}).Draw(t, "abs") + "/" + genDrawFileName(t)
	case 10: // relative, outside a non-"." root
		return rapid.SampledFrom([]string{"other", "lib"}).Draw(t, "outside") + "/" + genDrawFileName(t)
	case 11: // the root itself (root-relative form empty)
		if r := strings.TrimRight(root, "/"); r != "" && r != "." {
			return r
		}
		return genRootPrefix(t, root) + top
	case 12: // backslashes are ordinary characters on POSIX
		return genRootPrefix(t, root) + top + "\\" + genDrawFileName(t)
	}
	return genRootPrefix(t, root) + top + "/" + genDrawSegments(t, 0, 2) + genDrawFileName(t)
}

// GlobValue draws glob's canonical value: a root and paths under it
// (SEARCH-VAL-2).
func GlobValue() *rapid.Generator[search.GlobValue] {
	return rapid.Custom(func(t *rapid.T) search.GlobValue {
		root := Root().Draw(t, "root")
		return search.GlobValue{Root: root, Paths: Paths(root).Draw(t, "paths")}
	})
}

// ---------------------------------------------------------------------------
// Grep lines and matches

// genMultiByteRuns are characters repeated to build lines in which a preview
// budget can cut at every byte offset inside a 2-, 3- and 4-byte sequence.
var genMultiByteRuns = []string{"é", "€", "😀", "aé", "a€", "a😀", "ab€"}

// Line draws a matched line as ripgrep reports it (SEARCH-EXEC-4): never a
// "\n"; often multi-byte (runs of 2-, 3- and 4-byte characters, so that
// every cut position of a preview budget is reached), sometimes empty,
// starting with U+FEFF (SEARCH-PREVIEW-3), the literal
// "(line is not valid UTF-8)", or longer than the default preview budget.
func Line() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		switch genChoice(t, "lineKind", 20) {
		case 0:
			return ""
		case 1:
			return "(line is not valid UTF-8)"
		case 2, 3:
			return "\uFEFF" + PlainString().Draw(t, "afterBOM")
		case 4, 5, 6, 7:
			run := rapid.SampledFrom(genMultiByteRuns).Draw(t, "run")
			return strings.Repeat(run, rapid.IntRange(1, 8).Draw(t, "runCount"))
		case 8:
			if genChoice(t, "long", 3) == 0 {
				// Over the default grepMaxLineBytes (2000) with a 3-byte
				// character straddling byte 2000.
				return strings.Repeat("x", 1999) + "€" + strings.Repeat("y", rapid.IntRange(0, 40).Draw(t, "longTail"))
			}
		}
		return PlainString().Draw(t, "line")
	})
}

// Matches draws grep matches in ripgrep order (SEARCH-VAL-1): up to 24
// matches over a small pool of paths, interleaved so that grouping by file
// (SEARCH-GREP-3) reorders them, and with paths differing only in case.
func Matches() *rapid.Generator[[]search.Match] {
	return rapid.Custom(func(t *rapid.T) []search.Match {
		tops := genDrawTops(t)
		poolSize := rapid.IntRange(1, 5).Draw(t, "pathPool")
		pool := make([]string, poolSize)
		for i := range pool {
			pool[i] = genDrawPath(t, ".", tops)
			if i > 0 && genChoice(t, "caseTwin", 10) == 0 {
				pool[i] = strings.ToUpper(pool[i-1]) // exact string equality groups these apart
			}
		}
		n := rapid.IntRange(0, 24).Draw(t, "matchCount")
		if n > 10 && rapid.Bool().Draw(t, "fewMatches") {
			n -= 10
		}
		matches := make([]search.Match, n)
		for i := range matches {
			line := 1 + i
			if genChoice(t, "bigLineNumber", 5) == 0 {
				line = rapid.SampledFrom([]int{9, 10, 99, 100, 12345, 1000000}).Draw(t, "lineNumber")
			}
			matches[i] = search.Match{Path: rapid.SampledFrom(pool).Draw(t, "matchPath"), LineNumber: float64(line), Line: Line().Draw(t, "line")}
		}
		return matches
	})
}

// ---------------------------------------------------------------------------
// Arguments

func genMember(k string, v jsonjs.Value) jsonjs.Member { return jsonjs.Member{Key: k, Value: v} }

func genStr(s string) jsonjs.Value { return jsonjs.StringValue(s) }

// genInvalidArgs are argument values that fail every tool's parameter schema
// (SEARCH-PRESENT-3, CODE-ERR-1).
var genInvalidArgs = []jsonjs.Value{
	jsonjs.NullValue(), jsonjs.ArrayValue(), genStr("pattern"), jsonjs.IntValue(1),
	jsonjs.ObjectValue(),
	jsonjs.ObjectValue(genMember("pattern", jsonjs.IntValue(1))),
	jsonjs.ObjectValue(genMember("pattern", genStr("x")), genMember("path", jsonjs.BoolValue(true))),
	jsonjs.ObjectValue(genMember("path", genStr("src"))),
}

// genSearchArgs draws grep (include=true) or glob arguments: mostly valid, with
// the optional members present or not and sometimes an extra member; then
// argument-check failures (SEARCH-ARGS-1/2) and schema failures.
func genSearchArgs(t *rapid.T, include bool) jsonjs.Value {
	switch genChoice(t, "argsKind", 20) {
	case 0:
		return rapid.SampledFrom(genInvalidArgs).Draw(t, "invalidArgs")
	case 1:
		bad := []jsonjs.Value{
			jsonjs.ObjectValue(genMember("pattern", genStr(""))),
			jsonjs.ObjectValue(genMember("pattern", genStr("x")), genMember("path", genStr(" \uFEFF\u00a0"))),
		}
		if include {
			bad = append(bad,
				jsonjs.ObjectValue(genMember("pattern", genStr("x")), genMember("include", genStr("!*.ts"))),
				jsonjs.ObjectValue(genMember("pattern", genStr("x")), genMember("include", genStr("*.ts,*.js"))),
				jsonjs.ObjectValue(genMember("pattern", genStr("x")), genMember("include", genStr("\t"))))
		} else {
			bad = append(bad, jsonjs.ObjectValue(genMember("pattern", genStr(" \u2028"))))
		}
		return rapid.SampledFrom(bad).Draw(t, "failingArgs")
	}
	pattern := rapid.SampledFrom([]string{"todo", "TODO|FIXME", `\bfoo\b`, "é", "a.*b", " ", "*.ts", "**/*.{ts,tsx}"}).Draw(t, "pattern")
	if genChoice(t, "oddPattern", 5) == 0 {
		if s := PlainString().Draw(t, "patternText"); !jsonjs.IsBlank(s) {
			pattern = s
		}
	}
	members := []jsonjs.Member{genMember("pattern", genStr(pattern))}
	if rapid.Bool().Draw(t, "hasPath") {
		members = append(members, genMember("path", genStr(rapid.SampledFrom([]string{"src", "./src", "/abs/dir", "日本", "a b"}).Draw(t, "path"))))
	}
	if include && rapid.Bool().Draw(t, "hasInclude") {
		members = append(members, genMember("include", genStr(rapid.SampledFrom([]string{"*.ts", "*.{ts,tsx}", "**/*.md", "{a,b}/*.go"}).Draw(t, "include"))))
	}
	if genChoice(t, "extraArg", 6) == 0 {
		members = append(members, genMember("context", jsonjs.IntValue(2)))
	}
	return jsonjs.ObjectValue(members...)
}

// ---------------------------------------------------------------------------
// grep.result and glob.result

// genSpillStore draws the spill store a call sees: none loaded, a failed save,
// or a saved artifact.
func genSpillStore(t *rapid.T) *search.SpillStore {
	switch genChoice(t, "spillKind", 5) {
	case 0, 1:
		return nil
	case 2:
		return &search.SpillStore{Saved: false}
	}
	return &search.SpillStore{
		Saved:         true,
		Locator:       rapid.SampledFrom([]string{"/spill/session-ab12/x1y2-grep-results.txt", "/srv/spill/session-3f2a91c04b7e/9c1d2e3f4a5b-glob-results.txt", "C:\\spill\\é.txt"}).Draw(t, "locator"),
		RetrievalHint: rapid.SampledFrom([]string{"Use read with offset/limit, or grep this path to search within it.", "Use the stub retrieval path.", ""}).Draw(t, "hint"),
	}
}

// genSetting draws an optional positive-integer genSetting near n: absent (the
// default) or genSizeNear(n) clamped to >= 1.
func genSetting(t *rapid.T, label string, n int, members *[]jsonjs.Member, key string) (int, bool) {
	if genChoice(t, label+"Absent", 5) == 0 {
		return 0, false
	}
	v := genSizeNear(t, label, n, 1)
	*members = append(*members, genMember(key, jsonjs.IntValue(v)))
	return v, true
}

// genMetaCap draws searchMetaMaxBytes relative to a projected meta: exactly its
// size, one byte less (which only flips truncated, SEARCH-CAP-3 c), one
// more, the size of a k-element prefix with truncated=true and its
// neighbours, tiny caps below the envelope (SEARCH-CAP-3 a/b), and large.
func genMetaCap(t *rapid.T, m search.Meta) int {
	size := m.Size()
	n := len(m.Files) + len(m.Paths)
	switch genChoice(t, "metaCapKind", 6) {
	case 0, 1:
		k := rapid.IntRange(0, n).Draw(t, "metaCapPrefix")
		p := m
		p.Truncated = true
		if m.Shape == search.ShapeMatches {
			p.Files = m.Files[:k]
		} else {
			p.Paths = m.Paths[:k]
		}
		return max(1, p.Size()+rapid.IntRange(-1, 1).Draw(t, "metaCapDelta"))
	case 2:
		return rapid.SampledFrom([]int{1, 10, 40, 57, 58, 100}).Draw(t, "metaCapTiny")
	}
	return genSizeNear(t, "genMetaCap", size, 1)
}

// GrepInput draws a grep.result input: arguments (mostly valid), matches,
// a configuration whose caps sit at the boundaries of the drawn input
// (maxMatches at N, N±1, 1 or large; maxLineBytes at a line's length, ±1,
// tiny or absent; maxMetaBytes at the projected meta's size, ±1, at a
// prefix's size, tiny or large), a spill store that is absent, failing or
// saved, and nested true or false.
func GrepInput() *rapid.Generator[search.GrepInput] {
	return rapid.Custom(func(t *rapid.T) search.GrepInput {
		in := search.GrepInput{Args: genSearchArgs(t, true), Value: search.GrepValue{Matches: Matches().Draw(t, "matches")}}
		var cfg []jsonjs.Member
		matches := in.Value.Matches
		maxMatches, ok := genSetting(t, "maxMatches", len(matches), &cfg, "maxMatches")
		if !ok {
			maxMatches = search.DefaultGrepMaxMatches
		}
		lineLen := 0
		if len(matches) > 0 {
			lineLen = len(rapid.SampledFrom(matches).Draw(t, "cutLine").Line)
		}
		maxLine, ok := genSetting(t, "maxLineBytes", lineLen, &cfg, "maxLineBytes")
		if !ok {
			maxLine = search.DefaultGrepMaxLineBytes
		}
		if genChoice(t, "metaCapAbsent", 5) != 0 {
			r := search.RetainGrep(matches, maxMatches, maxLine)
			files := search.GroupByFile(r.Items)
			m := search.Meta{Shape: search.ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen}
			cfg = append(cfg, genMember("maxMetaBytes", jsonjs.IntValue(genMetaCap(t, m))))
		}
		in.Config = jsonjs.ObjectValue(cfg...)
		in.Spill = genSpillStore(t)
		in.Nested = genChoice(t, "nested", 7) == 0
		return in
	})
}

// GlobInput draws a glob.result input: arguments, a root with paths
// consistent with it, sampleOverCap on or off, maxResults at the
// boundaries of the path count, maxMetaBytes at the boundaries of the
// page's meta, a spill store and nested true or false.
func GlobInput() *rapid.Generator[search.GlobInput] {
	return rapid.Custom(func(t *rapid.T) search.GlobInput {
		in := search.GlobInput{Args: genSearchArgs(t, false), Value: GlobValue().Draw(t, "value")}
		paths := in.Value.Paths
		cfg := []jsonjs.Member{}
		maxResults, ok := genSetting(t, "maxResults", len(paths), &cfg, "maxResults")
		if !ok {
			maxResults = search.DefaultGlobMaxResults
		}
		sample := rapid.Bool().Draw(t, "sampleOverCap")
		cfg = append(cfg, genMember("sampleOverCap", jsonjs.BoolValue(sample)))
		if genChoice(t, "metaCapAbsent", 5) != 0 {
			p := search.PageGlob(paths, maxResults, sample, in.Value.Root)
			m := search.Meta{Shape: search.ShapePaths, Paths: p.Items, Truncated: p.Truncated, Total: p.Seen}
			cfg = append(cfg, genMember("maxMetaBytes", jsonjs.IntValue(genMetaCap(t, m))))
		}
		in.Config = jsonjs.ObjectValue(cfg...)
		in.Spill = genSpillStore(t)
		in.Nested = genChoice(t, "nested", 7) == 0
		return in
	})
}

// ---------------------------------------------------------------------------
// Search metas

// genMetaNumber draws a total or lineNumber: usually a small non-negative
// integer as producers emit, sometimes any finite number, which narrowing
// accepts (SEARCH-NARROW-3).
func genMetaNumber(t *rapid.T, label string) jsonjs.Value {
	if genChoice(t, label+"Odd", 4) == 0 {
		return jsonjs.NumberValue(JSNumber().Draw(t, label))
	}
	return jsonjs.IntValue(rapid.IntRange(0, 300).Draw(t, label))
}

// genWellFormedMeta draws a meta that narrows (SEARCH-NARROW-2..7) with the
// given shape: lists of any length (empty ones included), WTF-8 strings,
// duplicate paths, any finite numbers, unknown members at every level and
// sometimes a permuted member order. nonEmpty forces at least one file group
// with at least one match (matches) or one path.
func genWellFormedMeta(t *rapid.T, shape string, nonEmpty bool) jsonjs.Value {
	var list jsonjs.Value
	listKey := "paths"
	lo := 0
	if nonEmpty {
		lo = 1
	}
	if shape == search.ShapeMatches {
		listKey = "files"
		groups := make([]jsonjs.Value, rapid.IntRange(lo, 4).Draw(t, "groups"))
		for i := range groups {
			rows := make([]jsonjs.Value, rapid.IntRange(lo, 3).Draw(t, "rows"))
			for j := range rows {
				ms := []jsonjs.Member{genMember("lineNumber", genMetaNumber(t, "lineNumber")), genMember("line", genStr(WTF8String().Draw(t, "line")))}
				if genChoice(t, "matchExtra", 8) == 0 {
					ms = append(ms, genMember("extraM", jsonjs.BoolValue(true)))
				}
				rows[j] = jsonjs.ObjectValue(ms...)
			}
			gm := []jsonjs.Member{genMember("path", genStr(WTF8String().Draw(t, "path"))), genMember("matches", jsonjs.ArrayValue(rows...))}
			if genChoice(t, "groupExtra", 8) == 0 {
				gm = []jsonjs.Member{gm[0], genMember("extraF", jsonjs.IntValue(1)), gm[1]}
			}
			groups[i] = jsonjs.ObjectValue(gm...)
		}
		list = jsonjs.ArrayValue(groups...)
	} else {
		paths := make([]jsonjs.Value, rapid.IntRange(lo, 6).Draw(t, "pathCount"))
		for i := range paths {
			if i > 0 && genChoice(t, "duplicatePath", 6) == 0 {
				paths[i] = paths[i-1]
				continue
			}
			paths[i] = genStr(WTF8String().Draw(t, "path"))
		}
		list = jsonjs.ArrayValue(paths...)
	}
	members := []jsonjs.Member{
		genMember("shape", genStr(shape)),
		genMember(listKey, list),
		genMember("truncated", jsonjs.BoolValue(rapid.Bool().Draw(t, "truncated"))),
		genMember("total", genMetaNumber(t, "total")),
	}
	if genChoice(t, "permuted", 5) == 0 {
		members = rapid.Permutation(members).Draw(t, "memberOrder")
	}
	// Unknown members are ignored, including the other shape's list and an
	// old "kind" beside the real "shape" (SEARCH-NARROW-5..7).
	extras := []jsonjs.Member{
		genMember("extra", jsonjs.IntValue(1)), genMember("card", genStr("other")), genMember("title", genStr("T")),
		genMember("kind", genStr("paths")), genMember("content", genStr("Found 1 match")),
	}
	if shape == search.ShapeMatches {
		extras = append(extras, genMember("paths", jsonjs.IntValue(7)))
	} else {
		extras = append(extras, genMember("files", genStr("x")))
	}
	for i, n := 0, rapid.IntRange(0, 2).Draw(t, "extras"); i < n; i++ {
		members = append(members, rapid.SampledFrom(extras).Draw(t, "extraMember"))
	}
	return jsonjs.ObjectValue(members...)
}

// MalformedMetaClasses lists the classes of metas that narrowing must
// reject (SEARCH-NARROW-2..6), one per way of breaking a well-formed meta.
func MalformedMetaClasses() []string {
	return []string{
		"not-object", "truncated-missing", "truncated-not-boolean", "total-missing", "total-not-number",
		"shape-missing", "shape-unknown", "kind-instead-of-shape",
		"paths-missing", "paths-not-array", "paths-element-not-string",
		"files-missing", "files-not-array", "file-not-object", "file-path-not-string", "file-matches-not-array",
		"match-not-object", "match-lineNumber-not-number", "match-line-not-string",
	}
}

var (
	genNotBoolean = []jsonjs.Value{genStr("false"), genStr("true"), jsonjs.IntValue(0), jsonjs.IntValue(1), jsonjs.NullValue(), jsonjs.ArrayValue(), jsonjs.ObjectValue()}
	genNotNumber  = []jsonjs.Value{genStr("0"), genStr("1"), jsonjs.NullValue(), jsonjs.BoolValue(true), jsonjs.ArrayValue(), jsonjs.ObjectValue()}
	genNotString  = []jsonjs.Value{jsonjs.IntValue(1), jsonjs.NullValue(), jsonjs.BoolValue(false), jsonjs.ArrayValue(genStr("a")), jsonjs.ObjectValue()}
	genNotArray   = []jsonjs.Value{genStr("x"), jsonjs.NullValue(), jsonjs.ObjectValue(), jsonjs.IntValue(1), jsonjs.BoolValue(true)}
	genNotObject  = []jsonjs.Value{jsonjs.NullValue(), genStr("x"), jsonjs.ArrayValue(), jsonjs.ArrayValue(jsonjs.IntValue(1), genStr("x")), jsonjs.IntValue(1)}
	genBadShapes  = []jsonjs.Value{genStr("other"), genStr("Paths"), genStr("MATCHES"), genStr(""), genStr(" paths"), genStr("matches\u0000"), jsonjs.IntValue(1), jsonjs.NullValue()}
)

// MalformedMeta draws a meta of one class of MalformedMetaClasses: a
// well-formed meta broken in exactly that way. It panics on an unknown
// class.
func MalformedMeta(class string) *rapid.Generator[jsonjs.Value] {
	return rapid.Custom(func(t *rapid.T) jsonjs.Value {
		shape := rapid.SampledFrom([]string{search.ShapeMatches, search.ShapePaths}).Draw(t, "shape")
		pick := func(vs []jsonjs.Value, label string) jsonjs.Value { return rapid.SampledFrom(vs).Draw(t, label) }
		switch class {
		case "not-object":
			if rapid.Bool().Draw(t, "wrapped") {
				return jsonjs.ArrayValue(genWellFormedMeta(t, shape, false))
			}
			return pick([]jsonjs.Value{jsonjs.NullValue(), genStr("nope"), jsonjs.IntValue(42), jsonjs.BoolValue(true), jsonjs.ArrayValue()}, "scalar")
		case "truncated-missing":
			return genDeleteMember(genWellFormedMeta(t, shape, false), "truncated")
		case "truncated-not-boolean":
			return genWellFormedMeta(t, shape, false).With("truncated", pick(genNotBoolean, "truncated"))
		case "total-missing":
			return genDeleteMember(genWellFormedMeta(t, shape, false), "total")
		case "total-not-number":
			return genWellFormedMeta(t, shape, false).With("total", pick(genNotNumber, "total"))
		case "shape-missing":
			return genDeleteMember(genWellFormedMeta(t, shape, false), "shape")
		case "shape-unknown":
			return genWellFormedMeta(t, shape, false).With("shape", pick(genBadShapes, "shape"))
		case "kind-instead-of-shape":
			return genRenameMember(genDeleteMember(genWellFormedMeta(t, shape, false), "kind"), "shape", "kind")
		case "paths-missing": // sometimes with a valid files list: the wrong list for the shape
			m := genDeleteMember(genWellFormedMeta(t, search.ShapePaths, false), "paths")
			if rapid.Bool().Draw(t, "withFiles") {
				m = m.With("files", jsonjs.ArrayValue())
			}
			return m
		case "paths-not-array":
			return genWellFormedMeta(t, search.ShapePaths, false).With("paths", pick(genNotArray, "paths"))
		case "paths-element-not-string":
			m := genWellFormedMeta(t, search.ShapePaths, true)
			paths, _ := m.Get("paths")
			items, _ := paths.Items()
			i := rapid.IntRange(0, len(items)-1).Draw(t, "index")
			return m.With("paths", genSetItem(paths, i, pick(genNotString, "element")))
		case "files-missing":
			m := genDeleteMember(genWellFormedMeta(t, search.ShapeMatches, false), "files")
			if rapid.Bool().Draw(t, "withPaths") {
				m = m.With("paths", jsonjs.ArrayValue(genStr("a.ts")))
			}
			return m
		case "files-not-array":
			return genWellFormedMeta(t, search.ShapeMatches, false).With("files", pick(genNotArray, "files"))
		case "file-not-object":
			return genMutateFile(t, func(jsonjs.Value) jsonjs.Value { return pick(genNotObject, "file") })
		case "file-path-not-string":
			return genMutateFile(t, func(g jsonjs.Value) jsonjs.Value {
				if rapid.Bool().Draw(t, "pathMissing") {
					return genDeleteMember(g, "path")
				}
				return g.With("path", pick(genNotString, "path"))
			})
		case "file-matches-not-array":
			return genMutateFile(t, func(g jsonjs.Value) jsonjs.Value {
				if rapid.Bool().Draw(t, "matchesMissing") {
					return genDeleteMember(g, "matches")
				}
				return g.With("matches", pick(genNotArray, "matches"))
			})
		case "match-not-object":
			return genMutateMatch(t, func(jsonjs.Value) jsonjs.Value { return pick(genNotObject, "match") })
		case "match-lineNumber-not-number":
			return genMutateMatch(t, func(m jsonjs.Value) jsonjs.Value {
				if rapid.Bool().Draw(t, "lineNumberMissing") {
					return genDeleteMember(m, "lineNumber")
				}
				return m.With("lineNumber", pick(genNotNumber, "lineNumber"))
			})
		case "match-line-not-string":
			return genMutateMatch(t, func(m jsonjs.Value) jsonjs.Value {
				if rapid.Bool().Draw(t, "lineMissing") {
					return genDeleteMember(m, "line")
				}
				return m.With("line", pick(genNotString, "line"))
			})
		}
		panic("generators.MalformedMeta: unknown class " + class)
	})
}

// genMutateFile replaces one file group of a non-empty matches meta.
func genMutateFile(t *rapid.T, f func(jsonjs.Value) jsonjs.Value) jsonjs.Value {
	m := genWellFormedMeta(t, search.ShapeMatches, true)
	files, _ := m.Get("files")
	items, _ := files.Items()
	i := rapid.IntRange(0, len(items)-1).Draw(t, "fileIndex")
	return m.With("files", genSetItem(files, i, f(items[i])))
}

// genMutateMatch replaces one match of a non-empty matches meta.
func genMutateMatch(t *rapid.T, f func(jsonjs.Value) jsonjs.Value) jsonjs.Value {
	return genMutateFile(t, func(g jsonjs.Value) jsonjs.Value {
		rows, _ := g.Get("matches")
		items, _ := rows.Items()
		j := rapid.IntRange(0, len(items)-1).Draw(t, "matchIndex")
		return g.With("matches", genSetItem(rows, j, f(items[j])))
	})
}

// Meta draws a search meta: with wellFormed, one that narrows to a view
// (either shape, with extras, any numbers, empty lists); otherwise one of
// MalformedMetaClasses, drawn uniformly.
func Meta(wellFormed bool) *rapid.Generator[jsonjs.Value] {
	return rapid.Custom(func(t *rapid.T) jsonjs.Value {
		if wellFormed {
			shape := rapid.SampledFrom([]string{search.ShapeMatches, search.ShapePaths}).Draw(t, "shape")
			return genWellFormedMeta(t, shape, false)
		}
		class := rapid.SampledFrom(MalformedMetaClasses()).Draw(t, "class")
		return MalformedMeta(class).Draw(t, "meta")
	})
}

// AnyMeta draws a well-formed meta, a malformed one or any JSON value.
func AnyMeta() *rapid.Generator[jsonjs.Value] {
	return rapid.Custom(func(t *rapid.T) jsonjs.Value {
		switch genChoice(t, "metaKind", 5) {
		case 0, 1:
			return Meta(true).Draw(t, "meta")
		case 2, 3:
			return Meta(false).Draw(t, "meta")
		}
		return JSONValue(4).Draw(t, "meta")
	})
}

// PresentInput draws a search.present input: grep or glob; arguments absent
// (no soft check), valid or failing the schema; an error flag; and a meta
// that is absent, well-formed of either shape, malformed or any JSON.
func PresentInput() *rapid.Generator[search.PresentInput] {
	return rapid.Custom(func(t *rapid.T) search.PresentInput {
		var in search.PresentInput
		in.Tool = rapid.SampledFrom([]string{search.Grep, search.Glob}).Draw(t, "tool")
		switch genChoice(t, "argsKind", 4) {
		case 0: // absent: no soft check
		case 1: // failing the parameter schema (SEARCH-PRESENT-3)
			in.Args = jsonjs.Some(rapid.SampledFrom(genInvalidArgs).Draw(t, "invalidArgs"))
		default:
			in.Args = jsonjs.Some(genSearchArgs(t, in.Tool == search.Grep))
		}
		in.Result.IsError = genChoice(t, "isError", 6) == 0
		switch genChoice(t, "metaKind", 10) {
		case 0: // absent
		case 1, 2, 3: // well-formed with the tool's shape: a view unless args or isError say no
			shape := search.ShapePaths
			if in.Tool == search.Grep {
				shape = search.ShapeMatches
			}
			in.Result.Meta = jsonjs.Some(genWellFormedMeta(t, shape, false))
		default:
			in.Result.Meta = jsonjs.Some(AnyMeta().Draw(t, "meta"))
		}
		return in
	})
}

// ---------------------------------------------------------------------------
// Value surgery (jsonjs values are immutable)

// genDeleteMember returns o without key.
func genDeleteMember(o jsonjs.Value, key string) jsonjs.Value {
	members, _ := o.Members()
	out := make([]jsonjs.Member, 0, len(members))
	for _, m := range members {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return jsonjs.ObjectValue(out...)
}

// genRenameMember returns o with the genMember from renamed to to, in place.
func genRenameMember(o jsonjs.Value, from, to string) jsonjs.Value {
	members, _ := o.Members()
	out := make([]jsonjs.Member, len(members))
	for i, m := range members {
		if m.Key == from {
			m.Key = to
		}
		out[i] = m
	}
	return jsonjs.ObjectValue(out...)
}

// genSetItem returns array a with element i replaced by v.
func genSetItem(a jsonjs.Value, i int, v jsonjs.Value) jsonjs.Value {
	items, _ := a.Items()
	out := append([]jsonjs.Value(nil), items...)
	out[i] = v
	return jsonjs.ArrayValue(out...)
}
