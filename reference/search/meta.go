package search

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// Shapes of search meta and views (SEARCH-NARROW-4).
const (
	ShapeMatches = "matches"
	ShapePaths   = "paths"
)

// Meta is the search presentationMeta a producer emits (SEARCH-META-2/3):
// members in the order shape, files|paths, truncated, total, and nothing else
// (SEARCH-META-4).
type Meta struct {
	Shape     string
	Files     []FileMatches // shape "matches"
	Paths     []string      // shape "paths"
	Truncated bool
	Total     int
}

// ProjectGrep projects the retained grep matches (SEARCH-META-2); the byte
// cap is applied last (SEARCH-META-5).
func ProjectGrep(r retention.RetainedItems[Match], maxMetaBytes int) Meta {
	return projectGrep(r, maxMetaBytes, JS)
}

func projectGrep(r retention.RetainedItems[Match], maxMetaBytes int, p Primitives) Meta {
	files := p.group(r.Items)
	if files == nil {
		files = []FileMatches{}
	}
	return capMeta(Meta{Shape: ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen}, maxMetaBytes, p)
}

// ProjectGlob projects the glob page (SEARCH-META-3).
func ProjectGlob(page GlobPage, maxMetaBytes int) Meta {
	return projectGlob(page, maxMetaBytes, JS)
}

func projectGlob(page GlobPage, maxMetaBytes int, p Primitives) Meta {
	return capMeta(Meta{Shape: ShapePaths, Paths: page.Items, Truncated: page.Truncated, Total: page.Seen}, maxMetaBytes, p)
}

// Value returns the meta as a JSON value, members in producer order.
func (m Meta) Value() jsonjs.Value {
	var list jsonjs.Value
	key := "paths"
	if m.Shape == ShapeMatches {
		key = "files"
		groups := make([]jsonjs.Value, len(m.Files))
		for i, g := range m.Files {
			groups[i] = groupValue(g)
		}
		list = jsonjs.ArrayValue(groups...)
	} else {
		paths := make([]jsonjs.Value, len(m.Paths))
		for i, p := range m.Paths {
			paths[i] = jsonjs.StringValue(p)
		}
		list = jsonjs.ArrayValue(paths...)
	}
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "shape", Value: jsonjs.StringValue(m.Shape)},
		jsonjs.Member{Key: key, Value: list},
		jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(m.Truncated)},
		jsonjs.Member{Key: "total", Value: jsonjs.IntValue(m.Total)},
	)
}

func groupValue(g FileMatches) jsonjs.Value {
	rows := make([]jsonjs.Value, len(g.Matches))
	for i, m := range g.Matches {
		rows[i] = jsonjs.ObjectValue(
			jsonjs.Member{Key: "lineNumber", Value: jsonjs.NumberValue(m.LineNumber)},
			jsonjs.Member{Key: "line", Value: jsonjs.StringValue(m.Line)},
		)
	}
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "path", Value: jsonjs.StringValue(g.Path)},
		jsonjs.Member{Key: "matches", Value: jsonjs.ArrayValue(rows...)},
	)
}

// MarshalJSON writes the meta as JSON.stringify would.
func (m Meta) MarshalJSON() ([]byte, error) { return jsonjs.Marshal(m.Value()), nil }

// Size is the meta's byte measure: the UTF-8 length of its compact
// JSON.stringify form (SEARCH-JSON-1), computed without serializing.
func (m Meta) Size() int {
	sizes := m.elementSizes(JS)
	return envelopeSize(m.Shape, len(sizes), sum(sizes), m.Truncated, m.Total)
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// elementSizes measures each list element once, so the cap stays linear;
// p measures the strings.
func (m Meta) elementSizes(p Primitives) []int {
	if m.Shape == ShapeMatches {
		out := make([]int, len(m.Files))
		for i, g := range m.Files {
			out[i] = groupSize(g, p)
		}
		return out
	}
	out := make([]int, len(m.Paths))
	for i, path := range m.Paths {
		out[i] = p.stringSize(path)
	}
	return out
}

// groupSize is the size of {"path":P,"matches":[{"lineNumber":N,"line":L},…]}.
func groupSize(g FileMatches, p Primitives) int {
	n := len(`{"path":`) + p.stringSize(g.Path) + len(`,"matches":[`) + len(`]}`)
	for i, m := range g.Matches {
		if i > 0 {
			n++
		}
		n += len(`{"lineNumber":`) + p.numberSize(m.LineNumber) + len(`,"line":`) + p.stringSize(m.Line) + len(`}`)
	}
	return n
}

// envelopeSize is SEARCH-CAP-2's closed form: the opening, k elements with
// k-1 commas, the truncated/total tail and the closing brace.
func envelopeSize(shape string, k, elements int, truncated bool, total int) int {
	n := len(`{"shape":"paths","paths":[`)
	if shape == ShapeMatches {
		n = len(`{"shape":"matches","files":[`)
	}
	n += elements + max(k-1, 0)
	if truncated {
		n += len(`],"truncated":true,"total":`)
	} else {
		n += len(`],"truncated":false,"total":`)
	}
	return n + jsonjs.NumberSize(float64(total)) + len(`}`)
}

// CapMeta bounds the serialized meta to maxMetaBytes (SEARCH-CAP-1..5). It
// keeps the largest prefix of whole groups/paths that fits with
// truncated=true, but never fewer than one element, and sets truncated
// whenever the uncapped meta did not fit, even if nothing is dropped
// (SEARCH-CAP-3). total never changes (SEARCH-CAP-4). Each element is
// measured once, so the cap is linear where upstream re-serializes after
// every drop.
func CapMeta(m Meta, maxMetaBytes int) Meta { return capMeta(m, maxMetaBytes, JS) }

// capMeta is CapMeta measuring strings with p.
func capMeta(m Meta, maxMetaBytes int, p Primitives) Meta {
	sizes := m.elementSizes(p)
	if envelopeSize(m.Shape, len(sizes), sum(sizes), m.Truncated, m.Total) <= maxMetaBytes {
		return m
	}
	k, acc := 0, 0
	for i, s := range sizes {
		if envelopeSize(m.Shape, i+1, acc+s, true, m.Total) > maxMetaBytes {
			break
		}
		k, acc = i+1, acc+s
	}
	if k == 0 && len(sizes) > 0 {
		k = 1 // a real result never gets an empty card
	}
	m.Truncated = true
	if m.Shape == ShapeMatches {
		m.Files = m.Files[:k]
	} else {
		m.Paths = m.Paths[:k]
	}
	return m
}
