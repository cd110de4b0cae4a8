package fuzz

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// Metamorphic variants: each transforms a drawn input into another input
// the contract gives a definite answer for, and the transformed input is
// then run differentially like any other (the reference's answer on it is
// the golden). The transforms draw their own choices from rapid, so a
// variant case is still Example(s_k) of one generator and shrinks like a
// plain one, transform included.
//
//   - split-files (grep.result): the same matches spread over more files,
//     by renaming the paths of some matches (grouping, SEARCH-GREP-3, and
//     the meta's file groups and cap, SEARCH-META-2/SEARCH-CAP-*);
//   - crlf (grep.result): lines ending in "\r", which the canonical value
//     keeps (SEARCH-VAL-1): the text, previews and meta sizes carry it;
//   - caps (grep.result, glob.result, spill.preview): one cap moved to the
//     input's own size, one below or one above: maxMatches / maxResults at
//     the match or path count, maxLineBytes at a line's length, maxMetaBytes
//     at the projected meta's size, maxInlineBytes at the text's size;
//   - key-order (run_code.result): the same result value with the members
//     of every object permuted. Array-index keys sort whatever their order,
//     but the other keys keep insertion order (CODE-KEYS-1), so the output
//     must follow the permutation exactly.

// variant is one metamorphic transform of an op's typed input.
type variant struct {
	name  string
	apply func(t *rapid.T, in any) any
}

var variantsByOp = map[string][]variant{
	"grep.result":     {{"split-files", splitFiles}, {"crlf", crlfLines}, {"caps", grepCaps}},
	"glob.result":     {{"caps", globCaps}},
	"run_code.result": {{"key-order", permuteKeys}},
	"spill.preview":   {{"caps", spillCaps}},
}

// Variants lists the variant names of op, in their fixed order: the
// metamorphic ones, then the widening ones (widen.go).
func Variants(op string) []string {
	var out []string
	for _, v := range allVariants(op) {
		out = append(out, v.name)
	}
	return out
}

func allVariants(op string) []variant {
	return append(append([]variant(nil), variantsByOp[op]...), wideningByOp[op]...)
}

func findVariant(op, name string) (variant, bool) {
	for _, v := range allVariants(op) {
		if v.name == name {
			return v, true
		}
	}
	return variant{}, false
}

// splitFiles renames the path of some matches to one of up to three new
// paths derived from it ("<path>~1", …), so one file's matches become
// several files' matches, in the same order.
func splitFiles(t *rapid.T, in any) any {
	g := in.(search.GrepInput)
	if len(g.Value.Matches) == 0 {
		return g
	}
	parts := rapid.IntRange(2, 4).Draw(t, "parts")
	matches := make([]search.Match, len(g.Value.Matches))
	for i, m := range g.Value.Matches {
		if j := rapid.IntRange(0, parts-1).Draw(t, "part"); j > 0 {
			m.Path = fmt.Sprintf("%s~%d", m.Path, j)
		}
		matches[i] = m
	}
	g.Value.Matches = matches
	return g
}

// crlfLines appends "\r" to some lines (at least one), as a file with CRLF
// line ends gives them to ripgrep.
func crlfLines(t *rapid.T, in any) any {
	g := in.(search.GrepInput)
	if len(g.Value.Matches) == 0 {
		return g
	}
	matches := make([]search.Match, len(g.Value.Matches))
	marked := false
	for i, m := range g.Value.Matches {
		if rapid.Bool().Draw(t, "crlf") {
			m.Line += "\r"
			marked = true
		}
		matches[i] = m
	}
	if !marked {
		matches[0].Line += "\r"
	}
	g.Value.Matches = matches
	return g
}

// cfgInt reads a positive-integer setting of a grep/glob config (absent or
// null: the default; beyond 2^31 clamped, as the reference does).
func cfgInt(config jsonjs.Value, key string, def int) int {
	v, ok := config.Get(key)
	if !ok || v.IsNull() {
		return def
	}
	f, ok := v.Float()
	if !ok || f < 1 {
		return def
	}
	return int(min(f, 1<<31))
}

// delta draws -1, 0 or +1.
func delta(t *rapid.T) int { return rapid.IntRange(-1, 1).Draw(t, "delta") }

// grepCaps moves maxMatches, maxLineBytes or maxMetaBytes to the input's
// size ±1.
func grepCaps(t *rapid.T, in any) any {
	g := in.(search.GrepInput)
	if g.Config.Kind() != jsonjs.Object {
		g.Config = jsonjs.ObjectValue()
	}
	matches := g.Value.Matches
	switch rapid.IntRange(0, 2).Draw(t, "cap") {
	case 0:
		g.Config = g.Config.With("maxMatches", jsonjs.IntValue(max(1, len(matches)+delta(t))))
	case 1:
		n := 0
		if len(matches) > 0 {
			n = len(matches[rapid.IntRange(0, len(matches)-1).Draw(t, "line")].Line)
		}
		g.Config = g.Config.With("maxLineBytes", jsonjs.IntValue(max(1, n+delta(t))))
	default:
		r := search.RetainGrep(matches,
			cfgInt(g.Config, "maxMatches", search.DefaultGrepMaxMatches),
			cfgInt(g.Config, "maxLineBytes", search.DefaultGrepMaxLineBytes))
		files := search.GroupByFile(r.Items)
		if files == nil {
			files = []search.FileMatches{}
		}
		size := search.Meta{Shape: search.ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen}.Size()
		g.Config = g.Config.With("maxMetaBytes", jsonjs.IntValue(max(1, size+delta(t))))
	}
	return g
}

// globCaps moves maxResults or maxMetaBytes to the input's size ±1.
func globCaps(t *rapid.T, in any) any {
	g := in.(search.GlobInput)
	if g.Config.Kind() != jsonjs.Object {
		g.Config = jsonjs.ObjectValue()
	}
	paths := g.Value.Paths
	if rapid.Bool().Draw(t, "metaCap") {
		sv, _ := g.Config.Get("sampleOverCap")
		sample, _ := sv.Bool()
		p := search.PageGlob(paths, cfgInt(g.Config, "maxResults", search.DefaultGlobMaxResults), sample, g.Value.Root)
		items := p.Items
		if items == nil {
			items = []string{}
		}
		size := search.Meta{Shape: search.ShapePaths, Paths: items, Truncated: p.Truncated, Total: p.Seen}.Size()
		g.Config = g.Config.With("maxMetaBytes", jsonjs.IntValue(max(1, size+delta(t))))
	} else {
		g.Config = g.Config.With("maxResults", jsonjs.IntValue(max(1, len(paths)+delta(t))))
	}
	return g
}

// spillCaps moves maxInlineBytes to the text's UTF-8 size ±1, where the
// policy starts or stops applying (SPILL-RES-2).
func spillCaps(t *rapid.T, in any) any {
	p := in.(spill.PreviewInput)
	v := jsonjs.IntValue(max(0, jsonjs.UTF8Len(spillText(p))+delta(t)))
	p.MaxInlineBytes = &v
	return p
}

// permuteKeys permutes the members of every object in the run's result.
func permuteKeys(t *rapid.T, in any) any {
	r := in.(codemode.ResultInput)
	if r.Run.Result == nil {
		return r
	}
	v := permuteValue(t, *r.Run.Result)
	r.Run.Result = &v
	return r
}

func permuteValue(t *rapid.T, v jsonjs.Value) jsonjs.Value {
	if items, ok := v.Items(); ok {
		out := make([]jsonjs.Value, len(items))
		for i, x := range items {
			out[i] = permuteValue(t, x)
		}
		return jsonjs.ArrayValue(out...)
	}
	members, ok := v.Members()
	if !ok {
		return v
	}
	out := make([]jsonjs.Member, len(members))
	for i, m := range members {
		out[i] = jsonjs.Member{Key: m.Key, Value: permuteValue(t, m.Value)}
	}
	if len(out) > 1 {
		out = rapid.Permutation(out).Draw(t, "keys")
	}
	return jsonjs.ObjectValue(out...)
}
