package runner

import (
	"fmt"
	"math"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// Property is a check on one answer alone, without the golden answer: an
// invariant of the contract that every conforming output satisfies. The
// runner runs every property of the case's op on every output, also when
// the output equals the golden one, and reports each broken property as a
// Diff with comparator "property" naming its requirement. This table is
// the one statement of each property (issue 20, item 5): the rapid suite
// (generators/properties_test.go, TestPropertyTable) checks it on the
// reference's answers to generated inputs of every op, and states none of
// it again; the runner checks it on any harness's answer to any fixture.
// It never fires on the reference's own outputs (tested over every fixture
// and over generated inputs).
type Property struct {
	Requirement string // the requirement a failure breaks
	Op          string
	Field       string // the output field it concerns
	Path        string // the JSON path it concerns; "" means the field's
	Doc         string // what must hold, one sentence
	// Check returns "" when the property holds, else a one-line message.
	// input is the case input, output the harness's output object.
	Check func(input, output jsonjs.Value) string
}

// Properties is every property, by op.
var Properties = buildProperties()

func (p Property) path() string {
	if p.Path != "" {
		return p.Path
	}
	return memberPath("$", p.Field)
}

// PropertiesFor returns the properties of one op.
func PropertiesFor(op string) []Property {
	var out []Property
	for _, p := range Properties {
		if p.Op == op {
			out = append(out, p)
		}
	}
	return out
}

// CheckProperties runs the properties of op on an output and returns one
// Diff per broken property.
func CheckProperties(op string, input, output jsonjs.Value) []Diff {
	if output.Kind() != jsonjs.Object {
		return nil // the comparison already reports a non-object output
	}
	var diffs []Diff
	var seen Diff // the got of the field last measured, which the properties of one field share
	for _, p := range Properties {
		if p.Op != op {
			continue
		}
		if msg := p.Check(input, output); msg != "" {
			d := Diff{
				Field:        p.Field,
				Comparator:   CmpProperty,
				Path:         p.path(),
				Requirements: []string{p.Requirement},
				Want:         p.Doc, // what must hold: a property has no golden value
				Message:      msg,
			}
			// What the property looked at (issue 20): the field's value,
			// so a report's reader sees what broke it.
			if v, ok := output.Get(p.Field); ok {
				if seen.Field != p.Field {
					seen = Diff{Field: p.Field, Got: excerptJSON(v)}
					seen.setGot(v) // bounded: a huge or deep value keeps its excerpt only
				}
				d.Got, d.GotJSON, d.GotTooLarge = seen.Got, seen.GotJSON, seen.GotTooLarge
			}
			diffs = append(diffs, d)
		}
	}
	return diffs
}

// ---------------------------------------------------------------------------
// accessors: tolerant of any shape; a shape error is some other check's

func member(v jsonjs.Value, keys ...string) (jsonjs.Value, bool) {
	for _, k := range keys {
		var ok bool
		if v, ok = v.Get(k); !ok {
			return jsonjs.Value{}, false
		}
	}
	return v, true
}

func boolAt(v jsonjs.Value, keys ...string) bool {
	m, _ := member(v, keys...)
	b, _ := m.Bool()
	return b
}

// nonNull reports whether v has the member and it is not null.
func nonNull(v jsonjs.Value, key string) bool {
	m, ok := v.Get(key)
	return ok && !m.IsNull()
}

func itemsAt(v jsonjs.Value, keys ...string) ([]jsonjs.Value, bool) {
	m, ok := member(v, keys...)
	if !ok {
		return nil, false
	}
	return m.Items()
}

func numberAt(v jsonjs.Value, keys ...string) (float64, bool) {
	m, ok := member(v, keys...)
	if !ok {
		return 0, false
	}
	return m.Float()
}

func stringAt(v jsonjs.Value, keys ...string) (string, bool) {
	m, ok := member(v, keys...)
	if !ok {
		return "", false
	}
	return m.Str()
}

func num(f float64) string { return jsonjs.FormatNumber(f) }

// ---------------------------------------------------------------------------
// search helpers

// toolShape is the meta shape of a search op's tool.
func toolShape(op string) string {
	if op == "glob.result" {
		return search.ShapePaths
	}
	return search.ShapeMatches
}

// valueCount is N: the matches (grep) or paths (glob) of the input value.
func valueCount(op string, input jsonjs.Value) (int, bool) {
	key := "matches"
	if op == "glob.result" {
		key = "paths"
	}
	items, ok := itemsAt(input, "value", key)
	return len(items), ok
}

// metaCounts returns the meta's list length (groups or paths) and its item
// count (matches summed over groups, or paths).
func metaCounts(meta jsonjs.Value) (elements, items int, ok bool) {
	if files, isArr := itemsAt(meta, "files"); isArr && shapeOf(meta) == search.ShapeMatches {
		for _, f := range files {
			ms, _ := itemsAt(f, "matches")
			items += len(ms)
		}
		return len(files), items, true
	}
	if paths, isArr := itemsAt(meta, "paths"); isArr && shapeOf(meta) == search.ShapePaths {
		return len(paths), len(paths), true
	}
	return 0, 0, false
}

func shapeOf(meta jsonjs.Value) string {
	s, _ := stringAt(meta, "shape")
	return s
}

// metaOverCap says how a meta (what) is over the cap c bytes, or "". It
// measures up to 2*floor(c)+1 bytes (64 KiB at least) and no further (issue 23: a meta nested
// 10^6 levels deep costs the cap, not its 2 MB), naming the size when it
// got there.
func metaOverCap(meta jsonjs.Value, c float64, what string) string {
	if math.IsNaN(c) || c >= 1<<40 {
		return "" // no JSON text fits a size over it
	}
	limit := int(math.Floor(max(c, -1))) // size > c exactly when size > floor(c)
	bound := max(2*limit+1, 1<<16)
	size, whole := jsonjs.SizeUpTo(meta, bound)
	switch {
	case size <= limit:
		return ""
	case !whole:
		return fmt.Sprintf("%s is over %d bytes, over maxMetaBytes %s", what, bound, num(c))
	}
	return fmt.Sprintf("%s is %d bytes, over maxMetaBytes %s", what, size, num(c))
}

// maxMetaBytes is the case's meta cap C: config.maxMetaBytes, default 65536.
func maxMetaBytes(input jsonjs.Value) float64 {
	if c, ok := numberAt(input, "config", "maxMetaBytes"); ok {
		return c
	}
	return search.DefaultSearchMetaMaxBytes
}

// narrowFailure names the narrowing requirement a meta value fails
// (SEARCH-NARROW-2 envelope, -4 discriminant, -5 matches shape, -6 paths
// shape), or "" when it narrows to a view.
func narrowFailure(meta jsonjs.Value) string {
	if search.ViewFromMeta(meta) != nil {
		return ""
	}
	if meta.Kind() != jsonjs.Object {
		return "SEARCH-NARROW-2"
	}
	if _, ok := numberAt(meta, "total"); !ok {
		return "SEARCH-NARROW-2"
	}
	if t, _ := meta.Get("truncated"); t.Kind() != jsonjs.Bool {
		return "SEARCH-NARROW-2"
	}
	switch shapeOf(meta) {
	case search.ShapeMatches:
		return "SEARCH-NARROW-5"
	case search.ShapePaths:
		return "SEARCH-NARROW-6"
	}
	return "SEARCH-NARROW-4"
}

// viewDifference compares a harness's view with the narrowed meta as it
// travels: serialized with JSON.stringify, so a non-finite number (1e400 in
// the input) is null on the wire. It returns "" when they are JSON-equal,
// else a message naming the first differing path.
func viewDifference(want *search.View, got jsonjs.Value) string {
	wire, err := jsonjs.Parse(jsonjs.Marshal(want.Value()))
	if err != nil {
		return "the narrowed meta does not serialize"
	}
	ds := jsonjs.Differences(wire, got, 1)
	if len(ds) == 0 {
		return ""
	}
	at := func(v jsonjs.Value, ok bool) string {
		if ok {
			return excerptJSON(v)
		}
		return "nothing"
	}
	d := ds[0]
	return fmt.Sprintf("the view is not narrow(meta): at %s the view has %s, the narrowed meta %s", d.Path, at(d.B, d.InB), at(d.A, d.InA))
}

// searchMeta returns the output's meta when there is one.
func searchMeta(output jsonjs.Value) (jsonjs.Value, bool) {
	m, ok := output.Get("meta")
	return m, ok && !m.IsNull()
}

// renderGrepGroups renders meta files as grep's text body does
// (SEARCH-GREP-3): path, "\nLine N: line" rows, groups separated by a blank
// line. ok is false when a group is not well formed.
func renderGrepGroups(files []jsonjs.Value) (string, bool) {
	var b strings.Builder
	for i, f := range files {
		p, ok := stringAt(f, "path")
		rows, rowsOK := itemsAt(f, "matches")
		if !ok || !rowsOK {
			return "", false
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(p)
		for _, r := range rows {
			n, nOK := numberAt(r, "lineNumber")
			line, lOK := stringAt(r, "line")
			if !nOK || !lOK {
				return "", false
			}
			b.WriteString("\nLine " + num(n) + ": " + line)
		}
	}
	return b.String(), true
}

// prefixFailure describes where text stops agreeing with the rendered meta
// list, which must be followed by sep or the end of text.
func prefixFailure(text, rendered, sep, what string) string {
	if !strings.HasPrefix(text, rendered) {
		i := 0
		for i < len(text) && i < len(rendered) && text[i] == rendered[i] {
			i++
		}
		return fmt.Sprintf("the meta %s are not a prefix of the text: they differ at text byte %d (text %s, meta %s)",
			what, i, Excerpt(text, i), Excerpt(rendered, i))
	}
	if rest := text[len(rendered):]; rest != "" && !strings.HasPrefix(rest, sep) {
		return fmt.Sprintf("the meta %s end inside a text %s: text continues %s", what, strings.TrimSuffix(what, "s"), Excerpt(rest, 0))
	}
	return ""
}

// ---------------------------------------------------------------------------
// the table

func buildProperties() []Property {
	var ps []Property
	for _, op := range []string{"grep.result", "glob.result"} {
		ps = append(ps, searchResultProperties(op)...)
	}
	ps = append(ps, presentProperties()...)
	ps = append(ps, runCodeProperties()...)
	ps = append(ps, spillProperties()...)
	ps = append(ps, retainProperties()...)
	return ps
}

func searchResultProperties(op string) []Property {
	shape := toolShape(op)
	presentReq, listKey, unit := "SEARCH-PRESENT-1", "files", "matches"
	if op == "glob.result" {
		presentReq, listKey, unit = "SEARCH-PRESENT-2", "paths", "paths"
	}
	nested := func(input jsonjs.Value) bool { return boolAt(input, "nested") }
	return []Property{
		{
			Requirement: "SEARCH-META-1", Op: op, Field: "meta",
			Doc: "an error result carries no meta; a successful top-level result always has one",
			Check: func(input, output jsonjs.Value) string {
				isErr := boolAt(output, "isError")
				switch {
				case isErr && nonNull(output, "meta"):
					return "an error result (isError true) carries a meta"
				case !isErr && !nested(input) && !nonNull(output, "meta"):
					return "a successful top-level result has no meta"
				}
				return ""
			},
		},
		{
			Requirement: "CODE-DISPATCH-6", Op: op, Field: "meta",
			Doc: "a nested call (Code Mode sub-call) computes no meta and attempts no tool-owned spill",
			Check: func(input, output jsonjs.Value) string {
				if !nested(input) {
					return ""
				}
				switch {
				case nonNull(output, "meta"):
					return "a nested call carries a meta"
				case nonNull(output, "spillText"):
					return "a nested call attempted a spill (spillText is not null)"
				}
				return ""
			},
		},
		{
			Requirement: "CODE-PRESENT-4", Op: op, Field: "view",
			Doc: "a nested call produces no cards: view and callView are null",
			Check: func(input, output jsonjs.Value) string {
				if !nested(input) {
					return ""
				}
				for _, k := range []string{"view", "callView"} {
					if nonNull(output, k) {
						return "a nested call carries a " + k
					}
				}
				return ""
			},
		},
		{
			Requirement: presentReq, Op: op, Field: "view",
			Doc: "an error result gets no view",
			Check: func(_, output jsonjs.Value) string {
				if boolAt(output, "isError") && nonNull(output, "view") {
					return "an error result (isError true) carries a view"
				}
				return ""
			},
		},
		narrowProperty(op, "SEARCH-NARROW-2", "the meta is an object with a boolean truncated and a number total"),
		narrowProperty(op, "SEARCH-NARROW-4", `the meta's shape is exactly "matches" or "paths"`),
		narrowProperty(op, map[string]string{"grep.result": "SEARCH-NARROW-5", "glob.result": "SEARCH-NARROW-6"}[op],
			"the meta's list is well formed for its shape"),
		{
			Requirement: presentReq, Op: op, Field: "meta",
			Doc: "the meta has the tool's own shape (" + shape + "), so that it narrows to the tool's view",
			Check: func(_, output jsonjs.Value) string {
				meta, ok := searchMeta(output)
				if !ok || narrowFailure(meta) != "" {
					return ""
				}
				if s := shapeOf(meta); s != shape {
					return fmt.Sprintf("the meta has shape %q, want %q", s, shape)
				}
				return ""
			},
		},
		{
			Requirement: "SEARCH-NARROW-7", Op: op, Field: "view",
			Doc: "the view of a successful top-level result is the narrowed meta",
			Check: func(input, output jsonjs.Value) string {
				meta, ok := searchMeta(output)
				if !ok || boolAt(output, "isError") || nested(input) {
					return ""
				}
				v := search.ViewFromMeta(meta)
				if v == nil || v.Shape != shape {
					return ""
				}
				view, _ := output.Get("view")
				return viewDifference(v, view)
			},
		},
		{
			Requirement: "SEARCH-CAP-5", Op: op, Field: "meta",
			Doc: "the meta's compact JSON is at most maxMetaBytes (config, default 65536) bytes unless its list has at most one element",
			Check: func(input, output jsonjs.Value) string {
				meta, ok := searchMeta(output)
				if !ok {
					return ""
				}
				n, _, ok := metaCounts(meta)
				if !ok || n <= 1 {
					return ""
				}
				return metaOverCap(meta, maxMetaBytes(input), fmt.Sprintf("the meta of %d %s", n, listKey))
			},
		},
		{
			Requirement: "SEARCH-CAP-4", Op: op, Field: "meta", Path: "$.meta.total",
			Doc: "meta.total is the number of " + unit + " in the input value",
			Check: func(input, output jsonjs.Value) string {
				meta, ok := searchMeta(output)
				if !ok {
					return ""
				}
				total, tOK := numberAt(meta, "total")
				n, nOK := valueCount(op, input)
				if tOK && nOK && total != float64(n) {
					return fmt.Sprintf("meta.total is %s, the value has %d %s", num(total), n, unit)
				}
				return ""
			},
		},
		{
			Requirement: "SEARCH-CAP-3", Op: op, Field: "meta", Path: "$.meta.truncated",
			Doc: "meta.truncated is true whenever the meta shows fewer " + unit + " than the input value has",
			Check: func(input, output jsonjs.Value) string {
				meta, ok := searchMeta(output)
				if !ok {
					return ""
				}
				_, shown, ok := metaCounts(meta)
				n, nOK := valueCount(op, input)
				if truncV, _ := meta.Get("truncated"); ok && nOK && shown < n && !boolAt(meta, "truncated") && truncV.Kind() == jsonjs.Bool {
					return fmt.Sprintf("the meta shows %d of %d %s but truncated is false", shown, n, unit)
				}
				return ""
			},
		},
		{
			Requirement: "SEARCH-META-6", Op: op, Field: "meta",
			Doc: "the meta list is the first groups (grep) or page lines (glob) of the text",
			Check: func(_, output jsonjs.Value) string {
				meta, ok := searchMeta(output)
				content, cOK := stringAt(output, "content")
				if !ok || !cOK || boolAt(output, "isError") || shapeOf(meta) != shape {
					return ""
				}
				if op == "glob.result" {
					paths, ok := itemsAt(meta, "paths")
					if !ok || len(paths) == 0 {
						return ""
					}
					lines := make([]string, len(paths))
					for i, p := range paths {
						if lines[i], ok = p.Str(); !ok {
							return ""
						}
					}
					return prefixFailure(content, strings.Join(lines, "\n"), "\n", "paths")
				}
				files, ok := itemsAt(meta, "files")
				if !ok || len(files) == 0 {
					return ""
				}
				rendered, ok := renderGrepGroups(files)
				if !ok {
					return ""
				}
				_, body, found := strings.Cut(content, "\n\n")
				if !found {
					return fmt.Sprintf("the meta has %d file groups but the text has no body: %s", len(files), Excerpt(content, 0))
				}
				return prefixFailure(body, rendered, "\n\n", "groups")
			},
		},
	}
}

// narrowProperty checks that a search meta narrows, naming the first
// narrowing requirement it fails.
func narrowProperty(op, req, doc string) Property {
	return Property{
		Requirement: req, Op: op, Field: "meta", Doc: doc,
		Check: func(_, output jsonjs.Value) string {
			meta, ok := searchMeta(output)
			if !ok || narrowFailure(meta) != req {
				return ""
			}
			return "the meta does not narrow to a search view: " + excerptJSON(meta)
		},
	}
}

func presentProperties() []Property {
	op := "search.present"
	var ps []Property
	for _, t := range []struct{ tool, req, shape string }{
		{search.Grep, "SEARCH-PRESENT-1", search.ShapeMatches},
		{search.Glob, "SEARCH-PRESENT-2", search.ShapePaths},
	} {
		ps = append(ps, Property{
			Requirement: t.req, Op: op, Field: "view",
			Doc: "the " + t.tool + " presenter gives a view only for a non-error result whose meta narrows to shape " + t.shape,
			Check: func(input, output jsonjs.Value) string {
				if tool, _ := stringAt(input, "tool"); tool != t.tool || !nonNull(output, "view") {
					return ""
				}
				if boolAt(input, "result", "isError") {
					return "a view for an error result"
				}
				meta, ok := member(input, "result", "meta")
				if !ok {
					return "a view for a result without meta"
				}
				v := search.ViewFromMeta(meta)
				switch {
				case v == nil:
					return "a view for a meta that does not narrow (" + narrowFailure(meta) + "): " + excerptJSON(meta)
				case v.Shape != t.shape:
					return fmt.Sprintf("a view for a %s meta of shape %q", t.tool, v.Shape)
				}
				return ""
			},
		})
	}
	ps = append(ps, Property{
		Requirement: "SEARCH-NARROW-7", Op: op, Field: "view",
		Doc: "a view is the narrowed meta",
		Check: func(input, output jsonjs.Value) string {
			view, _ := output.Get("view")
			meta, ok := member(input, "result", "meta")
			if view.IsNull() || !ok {
				return ""
			}
			v := search.ViewFromMeta(meta)
			if v == nil {
				return ""
			}
			return viewDifference(v, view)
		},
	})
	return ps
}

func runCodeProperties() []Property {
	op := "run_code.result"
	// carriesNo checks that the output's field is null.
	carriesNo := func(field string) func(_, output jsonjs.Value) string {
		return func(_, output jsonjs.Value) string {
			if nonNull(output, field) {
				return "a run_code result carries a " + field + ": " + excerptJSON(mustGet(output, field))
			}
			return ""
		}
	}
	return []Property{
		{
			Requirement: "CODE-PRESENT-3", Op: op, Field: "meta",
			Doc:   "a run_code result carries no meta",
			Check: carriesNo("meta"),
		},
		{
			Requirement: "CODE-PRESENT-2", Op: op, Field: "view",
			Doc:   "run_code has no result presenter: view is null",
			Check: carriesNo("view"),
		},
		{
			Requirement: "CODE-RENDER-1", Op: op, Field: "content",
			Doc: "the content is never empty (no output renders as the no-output marker)",
			Check: func(_, output jsonjs.Value) string {
				if s, ok := stringAt(output, "content"); ok && s == "" {
					return "the content is empty"
				}
				return ""
			},
		},
	}
}

func mustGet(v jsonjs.Value, key string) jsonjs.Value {
	m, _ := v.Get(key)
	return m
}

// originalText is the spill.preview input's flattened text (SPILL-RES-3),
// and false when a block is not text.
func originalText(input jsonjs.Value) (string, bool) {
	if s, ok := stringAt(input, "text"); ok {
		return s, true
	}
	blocks, ok := itemsAt(input, "blocks")
	if !ok {
		return "", false
	}
	var b strings.Builder
	for _, bl := range blocks {
		if t, _ := stringAt(bl, "type"); t != "text" {
			return "", false
		}
		s, ok := stringAt(bl, "text")
		if !ok {
			s = "undefined"
		}
		b.WriteString(s)
	}
	return b.String(), true
}

func spillProperties() []Property {
	return []Property{{
		Requirement: "SPILL-CAP-1", Op: "spill.preview", Field: "content",
		Doc: "a replacement is at most maxInlineBytes UTF-8 bytes and smaller than the original",
		Check: func(input, output jsonjs.Value) string {
			content, ok := stringAt(output, "content")
			if !ok {
				return ""
			}
			size := jsonjs.UTF8Len(content)
			if c, ok := numberAt(input, "maxInlineBytes"); ok && float64(size) > c {
				return fmt.Sprintf("the replacement is %d bytes, over maxInlineBytes %s", size, num(c))
			}
			if orig, ok := originalText(input); ok && size >= jsonjs.UTF8Len(orig) {
				return fmt.Sprintf("the replacement is %d bytes, not smaller than the original's %d", size, jsonjs.UTF8Len(orig))
			}
			return ""
		},
	}}
}

// omission reads {kind: "none"} / {kind: "exact", count}.
func omission(v jsonjs.Value) (exact bool, count float64, ok bool) {
	kind, kOK := stringAt(v, "kind")
	switch {
	case !kOK:
		return false, 0, false
	case kind == "none":
		return false, 0, true
	case kind == "exact":
		c, cOK := numberAt(v, "count")
		return true, c, cOK
	}
	return false, 0, false
}

// pushes reads [{kept, truncated}].
func pushes(output jsonjs.Value) (kept, truncated []bool, ok bool) {
	items, ok := itemsAt(output, "pushes")
	if !ok {
		return nil, nil, false
	}
	for _, p := range items {
		k, kOK := member(p, "kept")
		t, tOK := member(p, "truncated")
		kb, kIsBool := k.Bool()
		tb, tIsBool := t.Bool()
		if !kOK || !tOK || !kIsBool || !tIsBool {
			return nil, nil, false
		}
		kept, truncated = append(kept, kb), append(truncated, tb)
	}
	return kept, truncated, true
}

func retainProperties() []Property {
	return []Property{
		{
			Requirement: "RET-ITEM-3", Op: "retain.items", Field: "omitted",
			Doc: "kept = len(items), seen = kept + omitted count = the number of input items, truncated iff something was omitted",
			Check: func(input, output jsonjs.Value) string {
				items, iOK := itemsAt(output, "items")
				kept, kOK := numberAt(output, "kept")
				seen, sOK := numberAt(output, "seen")
				truncV, _ := output.Get("truncated")
				trunc, tOK := truncV.Bool()
				om, _ := output.Get("omitted")
				exact, count, oOK := omission(om)
				if !iOK || !kOK || !sOK || !tOK || !oOK {
					return ""
				}
				in, inOK := itemsAt(input, "items")
				switch {
				case kept != float64(len(items)):
					return fmt.Sprintf("kept is %s but items has %d elements", num(kept), len(items))
				case seen != kept+count:
					return fmt.Sprintf("seen %s != kept %s + omitted %s", num(seen), num(kept), num(count))
				case inOK && seen != float64(len(in)):
					return fmt.Sprintf("seen is %s, the input has %d items", num(seen), len(in))
				case trunc != exact || (exact && count <= 0):
					return fmt.Sprintf("truncated %v with omitted %s", trunc, excerptJSON(om))
				}
				return ""
			},
		},
		{
			Requirement: "RET-ITEM-2", Op: "retain.items", Field: "pushes",
			Doc: "one push decision per input item; a kept push is never truncated and the kept pushes are the kept items",
			Check: func(input, output jsonjs.Value) string {
				kept, trunc, ok := pushes(output)
				in, inOK := itemsAt(input, "items")
				keptN, kOK := numberAt(output, "kept")
				if !ok || !inOK {
					return ""
				}
				if len(kept) != len(in) {
					return fmt.Sprintf("%d push decisions for %d items", len(kept), len(in))
				}
				n := 0
				for i := range kept {
					if kept[i] == trunc[i] {
						return fmt.Sprintf("push %d is {kept: %v, truncated: %v}", i, kept[i], trunc[i])
					}
					if kept[i] {
						n++
					}
				}
				if kOK && float64(n) != keptN {
					return fmt.Sprintf("%d pushes kept their item but kept is %s", n, num(keptN))
				}
				return ""
			},
		},
		{
			Requirement: "RET-TEXT-7", Op: "retain.text", Field: "omittedBytes",
			Doc: "truncated iff omittedBytes is exact (with a positive count), and equal to the last push's truncated",
			Check: func(_, output jsonjs.Value) string {
				truncV, _ := output.Get("truncated")
				trunc, tOK := truncV.Bool()
				om, _ := output.Get("omittedBytes")
				exact, count, oOK := omission(om)
				if !tOK || !oOK {
					return ""
				}
				if trunc != exact || (exact && count <= 0) {
					return fmt.Sprintf("truncated %v with omittedBytes %s", trunc, excerptJSON(om))
				}
				if _, pt, ok := pushes(output); ok && len(pt) > 0 && pt[len(pt)-1] != trunc {
					return fmt.Sprintf("truncated %v but the last push reports truncated %v", trunc, pt[len(pt)-1])
				}
				return ""
			},
		},
		{
			Requirement: "RET-TEXT-3", Op: "retain.text", Field: "pushes",
			Doc: "one push decision per input chunk",
			Check: func(input, output jsonjs.Value) string {
				_, pt, ok := pushes(output)
				if !ok {
					return ""
				}
				chunks, cOK := itemsAt(input, "chunks")
				if !cOK {
					chunks, cOK = itemsAt(input, "chunksBase64")
				}
				if cOK && len(pt) != len(chunks) {
					return fmt.Sprintf("%d push decisions for %d chunks", len(pt), len(chunks))
				}
				return ""
			},
		},
	}
}
