// Package wrong holds deliberately wrong harnesses for the fuzzer's tests:
// each is the reference (reference, reference/search, reference/codemode,
// reference/jsonjs) with one classic porting bug, and correct everywhere
// else. The fuzz suite runs them in process (internal/fuzz/wrong_test.go)
// and as adapter processes (testdata/<name>/main.go, adapter.Serve); both
// use this one implementation so that they cannot drift apart.
//
// It lives under testdata so that `go build ./...` and `go vet ./...`
// leave it alone; it is imported by path.
package wrong

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// Names lists the wrong harnesses, as ByName and testdata/<name> know them.
var Names = []string{"meta-ascii", "number-go", "indent-uncapped", "drop-empty-logs", "grep-sorted-paths"}

// ByName returns a wrong harness, or nil.
func ByName(name string) adapter.Harness {
	switch name {
	case "meta-ascii":
		return MetaASCII{}
	case "number-go":
		return NumberGo{}
	case "indent-uncapped":
		return IndentUncapped{}
	case "drop-empty-logs":
		return DropEmptyLogs{}
	case "grep-sorted-paths":
		return GrepSortedPaths{}
	}
	return nil
}

// Implementation is the handshake identity of a wrong harness.
func Implementation(name string) adapter.Implementation {
	return adapter.Implementation{Name: "wrong/" + name, Version: "0", Language: "go", Homepage: "https://github.com/dsh-conform/conform"}
}

// base answers every op as the reference does; each harness overrides one.
type base struct{}

func (base) Ops() []string { return reference.Ops() }

// decode reads an op input; the fuzzer only sends inputs the reference
// accepts, and anything else is left to the reference's own error.
func decode(input []byte, v any) bool {
	return json.NewDecoder(bytes.NewReader(input)).Decode(v) == nil
}

// cfgInt reads a grep/glob setting the reference has already validated.
func cfgInt(config jsonjs.Value, key string, def int) int {
	v, ok := config.Get(key)
	if !ok || v.IsNull() {
		return def
	}
	f, _ := v.Float()
	return int(min(f, 1<<31))
}

// ---------------------------------------------------------------------------
// meta-ascii

// MetaASCII measures the search meta for SEARCH-CAP-1 with ASCII-only
// escaping, as Python's json.dumps does by default: every non-ASCII code
// point counts as a 6-byte \uXXXX (12 for one outside the BMP), so a meta
// with non-ASCII paths or lines looks bigger than it is and the cap drops
// more groups (or paths) than it should. The rest of the cap (largest
// fitting prefix with truncated=true, never fewer than one element) is
// right.
type MetaASCII struct{ base }

func (MetaASCII) Run(op string, input []byte) ([]byte, error) {
	switch op {
	case "grep.result":
		var in search.GrepInput
		if !decode(input, &in) {
			break
		}
		out, err := search.GrepResult(in)
		if err != nil || out.Meta == nil {
			break
		}
		r := search.RetainGrep(in.Value.Matches,
			cfgInt(in.Config, "maxMatches", search.DefaultGrepMaxMatches),
			cfgInt(in.Config, "maxLineBytes", search.DefaultGrepMaxLineBytes))
		files := search.GroupByFile(r.Items)
		if files == nil {
			files = []search.FileMatches{}
		}
		m := asciiCap(search.Meta{Shape: search.ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen},
			cfgInt(in.Config, "maxMetaBytes", search.DefaultSearchMetaMaxBytes))
		return withMeta(out, search.Grep, in.Args, m)
	case "glob.result":
		var in search.GlobInput
		if !decode(input, &in) {
			break
		}
		out, err := search.GlobResult(in)
		if err != nil || out.Meta == nil {
			break
		}
		sv, _ := in.Config.Get("sampleOverCap")
		sample, _ := sv.Bool()
		p := search.PageGlob(in.Value.Paths, cfgInt(in.Config, "maxResults", search.DefaultGlobMaxResults), sample, in.Value.Root)
		paths := p.Items
		if paths == nil {
			paths = []string{}
		}
		m := asciiCap(search.Meta{Shape: search.ShapePaths, Paths: paths, Truncated: p.Truncated, Total: p.Seen},
			cfgInt(in.Config, "maxMetaBytes", search.DefaultSearchMetaMaxBytes))
		return withMeta(out, search.Glob, in.Args, m)
	}
	return reference.Run(op, input)
}

// withMeta replaces a result's meta and the view the presenter builds from it.
func withMeta(out search.ResultOutput, tool string, args jsonjs.Value, m search.Meta) ([]byte, error) {
	out.Meta = &m
	mv := m.Value()
	out.View = search.PresentResult(tool, &args, search.ResultForView{IsError: out.IsError, Meta: &mv})
	return reference.Encode(out)
}

// asciiSize is the length of the meta's compact JSON with non-ASCII escaped.
func asciiSize(m search.Meta) int {
	b := jsonjs.Marshal(m.Value())
	n := 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r < utf8.RuneSelf:
			n++
		case r == utf8.RuneError && size == 1: // a byte of a WTF-8 lone surrogate: 3 bytes, one \uXXXX
			n += 2
		case r > 0xFFFF:
			n += 12
		default:
			n += 6
		}
		i += size
	}
	return n
}

// asciiCap is search.CapMeta with asciiSize as the measure.
func asciiCap(m search.Meta, maxBytes int) search.Meta {
	if asciiSize(m) <= maxBytes {
		return m
	}
	n := len(m.Files) + len(m.Paths)
	prefix := func(k int) search.Meta {
		p := m
		p.Truncated = true
		if m.Shape == search.ShapeMatches {
			p.Files = m.Files[:k]
		} else {
			p.Paths = m.Paths[:k]
		}
		return p
	}
	k := 0
	for k < n && asciiSize(prefix(k+1)) <= maxBytes {
		k++
	}
	return prefix(max(k, min(n, 1)))
}

// ---------------------------------------------------------------------------
// run_code renderers

// renderText is codemode.RenderText with the value renderer as a parameter.
func renderText(logs []string, result *jsonjs.Value, render func(jsonjs.Value) string) string {
	var parts []string
	if l := strings.Join(logs, "\n"); l != "" {
		parts = append(parts, l)
	}
	if result != nil {
		s, isStr := result.Str()
		if !isStr {
			s = render(*result)
		}
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return codemode.NoOutputMarker
	}
	return strings.Join(parts, "\n")
}

// rerender answers run_code.result as the reference does, then re-renders
// a successful run's text with render.
func rerender(input []byte, render func(jsonjs.Value) string) ([]byte, error) {
	var in codemode.ResultInput
	if !decode(input, &in) {
		return reference.Run("run_code.result", input)
	}
	out, err := codemode.Result(in)
	if err != nil {
		return nil, err
	}
	if !out.IsError {
		out.Content = renderText(in.Run.Logs, in.Run.Result, render)
	}
	return reference.Encode(out)
}

// NumberGo formats the numbers of a run_code result with Go's
// strconv.FormatFloat(x, 'g', -1, 64): 1e+06 where JavaScript prints
// 1000000, 1e-05 for 0.00001, 1.5e+300 for 1.5e300. Layout, strings and
// key order are right (CODE-JSON-2, CODE-STR-1, CODE-KEYS-1).
type NumberGo struct{ base }

func (NumberGo) Run(op string, input []byte) ([]byte, error) {
	if op != "run_code.result" {
		return reference.Run(op, input)
	}
	return rerender(input, func(v jsonjs.Value) string {
		return string(appendPretty(nil, v, 0, 2, 5, NumberGo{}.number))
	})
}

func (NumberGo) number(dst []byte, x float64) []byte { return strconv.AppendFloat(dst, x, 'g', -1, 64) }

// IndentUncapped lays a run_code result out as plain JSON.stringify(v,
// null, 2) at every depth, ignoring CODE-JSON-2's compact layout from depth
// 5 (the 10-space indentation cap).
type IndentUncapped struct{ base }

func (IndentUncapped) Run(op string, input []byte) ([]byte, error) {
	if op != "run_code.result" {
		return reference.Run(op, input)
	}
	return rerender(input, func(v jsonjs.Value) string {
		return string(jsonjs.AppendPretty(nil, v, 2, 1<<30))
	})
}

// appendPretty is jsonjs.AppendPretty with a number formatter (finite
// numbers only; JSON writes the others as null).
func appendPretty(dst []byte, v jsonjs.Value, depth, indent, compactFrom int, num func([]byte, float64) []byte) []byte {
	pretty := depth < compactFrom
	newline := func(d int) {
		if pretty {
			dst = append(dst, '\n')
			dst = append(dst, strings.Repeat(" ", d*indent)...)
		}
	}
	switch v.Kind() {
	case jsonjs.Number:
		f, _ := v.Float()
		if f != f || f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
			return append(dst, "null"...)
		}
		return num(dst, f)
	case jsonjs.Array:
		items, _ := v.Items()
		if len(items) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i, x := range items {
			if i > 0 {
				dst = append(dst, ',')
			}
			newline(depth + 1)
			dst = appendPretty(dst, x, depth+1, indent, compactFrom, num)
		}
		newline(depth)
		return append(dst, ']')
	case jsonjs.Object:
		members, _ := v.Members()
		if len(members) == 0 {
			return append(dst, "{}"...)
		}
		dst = append(dst, '{')
		for i, m := range jsonjs.PropertyOrder(members) {
			if i > 0 {
				dst = append(dst, ',')
			}
			newline(depth + 1)
			dst = jsonjs.AppendString(dst, m.Key)
			dst = append(dst, ':')
			if pretty {
				dst = append(dst, ' ')
			}
			dst = appendPretty(dst, m.Value, depth+1, indent, compactFrom, num)
		}
		newline(depth)
		return append(dst, '}')
	}
	return jsonjs.Append(dst, v) // null, booleans, strings
}

// DropEmptyLogs drops the empty entries of a run's captured logs before
// rendering, as a port that filters "blank lines" does: [""] and ["", ""]
// both vanish where the contract keeps ["", ""] as "\n" and ["", "x"] as
// "\nx" (CODE-RENDER-2).
type DropEmptyLogs struct{ base }

func (d DropEmptyLogs) Run(op string, input []byte) ([]byte, error) {
	if op != "run_code.result" {
		return reference.Run(op, input)
	}
	return d.rerun(input, nil)
}

// rerun answers run_code.result with the empty logs dropped, the value
// rendered by render (nil: as the reference does).
func (DropEmptyLogs) rerun(input []byte, render func(jsonjs.Value) string) ([]byte, error) {
	var in codemode.ResultInput
	if !decode(input, &in) {
		return reference.Run("run_code.result", input)
	}
	kept := in.Run.Logs[:0:0]
	for _, l := range in.Run.Logs {
		if l != "" {
			kept = append(kept, l)
		}
	}
	in.Run.Logs = kept
	out, err := codemode.Result(in)
	if err != nil {
		return nil, err
	}
	if render != nil && !out.IsError {
		out.Content = renderText(in.Run.Logs, in.Run.Result, render)
	}
	return reference.Encode(out)
}

// ---------------------------------------------------------------------------
// grep-sorted-paths

// GrepSortedPaths groups grep matches by sorted path instead of first-seen
// order (SEARCH-GREP-3), in the text, the spill text and the meta; which
// matches are kept, and their order within a file, are right.
type GrepSortedPaths struct{ base }

func (GrepSortedPaths) Run(op string, input []byte) ([]byte, error) {
	var in search.GrepInput
	if op != "grep.result" || !decode(input, &in) {
		return reference.Run(op, input)
	}
	out, err := search.GrepResult(in)
	if err != nil || out.IsError {
		return reference.Run(op, input) // errors are right as they are
	}
	maxLine := cfgInt(in.Config, "maxLineBytes", search.DefaultGrepMaxLineBytes)
	r := search.RetainGrep(in.Value.Matches, cfgInt(in.Config, "maxMatches", search.DefaultGrepMaxMatches), maxLine)
	r.Items = sortedByPath(r.Items)
	var ref *search.Ref
	if out.SpillText != nil {
		text := search.GrepSpillText(sortedByPath(in.Value.Matches), maxLine)
		out.SpillText = &text
		if in.Spill != nil && in.Spill.Saved {
			ref = &search.Ref{Locator: in.Spill.Locator, RetrievalHint: in.Spill.RetrievalHint}
		}
	}
	out.Content = search.GrepText(r, ref)
	if out.Meta != nil {
		return withMeta(out, search.Grep, in.Args, search.ProjectGrep(r, cfgInt(in.Config, "maxMetaBytes", search.DefaultSearchMetaMaxBytes)))
	}
	return reference.Encode(out)
}

// sortedByPath is a stable sort by path: grouping it first-seen groups the
// files in sorted order, each file's matches in their order.
func sortedByPath(ms []search.Match) []search.Match {
	out := append([]search.Match(nil), ms...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
