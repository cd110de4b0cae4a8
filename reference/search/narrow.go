package search

import "github.com/dsh-conform/conform/reference/jsonjs"

// View is the search result card (SearchResultView). List is the meta's
// files or paths array, passed through unchanged, unknown members inside
// groups and matches included (SEARCH-NARROW-7). Total is any JSON number
// (SEARCH-NARROW-3); JSON.stringify prints a non-finite one as null.
type View struct {
	Shape     string
	List      jsonjs.Value
	Truncated bool
	Total     float64
}

// Value returns {card:"search", shape, files|paths, truncated, total}.
func (v View) Value() jsonjs.Value {
	key := "paths"
	if v.Shape == ShapeMatches {
		key = "files"
	}
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "card", Value: jsonjs.StringValue("search")},
		jsonjs.Member{Key: "shape", Value: jsonjs.StringValue(v.Shape)},
		jsonjs.Member{Key: key, Value: v.List},
		jsonjs.Member{Key: "truncated", Value: jsonjs.BoolValue(v.Truncated)},
		jsonjs.Member{Key: "total", Value: jsonjs.NumberValue(v.Total)},
	)
}

// MarshalJSON writes the view as JSON.stringify would.
func (v View) MarshalJSON() ([]byte, error) { return jsonjs.Marshal(v.Value()), nil }

// ViewFromMeta narrows any JSON value to a search view, or nil
// (searchViewFromMeta). It is total: no input makes it fail
// (SEARCH-NARROW-1). No relation between total, truncated and the list is
// checked, and duplicate paths are accepted.
func ViewFromMeta(meta jsonjs.Value) *View {
	// SEARCH-NARROW-2: an object with a boolean truncated and a number total.
	if meta.Kind() != jsonjs.Object {
		return nil
	}
	truncV, _ := meta.Get("truncated")
	truncated, ok := truncV.Bool()
	if !ok {
		return nil
	}
	totalV, _ := meta.Get("total")
	total, ok := totalV.Float() // SEARCH-NARROW-3: any number, 1e400 included
	if !ok {
		return nil
	}
	shapeV, _ := meta.Get("shape")
	shape, _ := shapeV.Str()
	var list jsonjs.Value
	switch shape { // SEARCH-NARROW-4: exact, case-sensitive; "kind" is not read
	case ShapeMatches:
		files, _ := meta.Get("files")
		if !validFiles(files) {
			return nil
		}
		list = files
	case ShapePaths:
		paths, _ := meta.Get("paths")
		if !validPaths(paths) {
			return nil
		}
		list = paths
	default:
		return nil
	}
	return &View{Shape: shape, List: list, Truncated: truncated, Total: total}
}

// validFiles checks SEARCH-NARROW-5: an array of {path: string, matches:
// [{lineNumber: number, line: string}]}; empty arrays are fine and any other
// members are ignored.
func validFiles(files jsonjs.Value) bool {
	groups, ok := files.Items()
	if !ok {
		return false
	}
	for _, g := range groups {
		if g.Kind() != jsonjs.Object {
			return false
		}
		if p, _ := g.Get("path"); p.Kind() != jsonjs.String {
			return false
		}
		mv, _ := g.Get("matches")
		matches, ok := mv.Items()
		if !ok {
			return false
		}
		for _, m := range matches {
			if m.Kind() != jsonjs.Object {
				return false
			}
			if n, _ := m.Get("lineNumber"); n.Kind() != jsonjs.Number {
				return false
			}
			if l, _ := m.Get("line"); l.Kind() != jsonjs.String {
				return false
			}
		}
	}
	return true
}

// validPaths checks SEARCH-NARROW-6: an array of strings.
func validPaths(paths jsonjs.Value) bool {
	items, ok := paths.Items()
	if !ok {
		return false
	}
	for _, p := range items {
		if p.Kind() != jsonjs.String {
			return false
		}
	}
	return true
}
