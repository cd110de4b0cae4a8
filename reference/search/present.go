package search

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// Tool names.
const (
	Grep = "grep"
	Glob = "glob"
)

// ResultForView is what a presenter sees of a result: the view never needs
// the content (SEARCH-PRESENT-4). Meta is nil when the result has none.
type ResultForView struct {
	IsError bool
	Meta    *jsonjs.Value
}

// PresentResult is the registry's presentResult for grep or glob: the
// logged arguments must pass the tool's parameter schema (SEARCH-PRESENT-3;
// nil args skips that check), the result must not be an error, and the meta
// must narrow to the tool's own shape (SEARCH-PRESENT-1/2).
func PresentResult(tool string, args *jsonjs.Value, r ResultForView) *View {
	want := ShapeMatches
	if tool == Glob {
		want = ShapePaths
	}
	if args != nil && !argsValid(tool, *args) {
		return nil
	}
	if r.IsError || r.Meta == nil {
		return nil
	}
	v := ViewFromMeta(*r.Meta)
	if v == nil || v.Shape != want {
		return nil
	}
	return v
}

func argsValid(tool string, args jsonjs.Value) bool {
	if tool == Glob {
		_, bad := DecodeGlobArgs(args)
		return bad == nil
	}
	_, bad := DecodeGrepArgs(args)
	return bad == nil
}

// PresentGrepCall is grep's pending-call view (SEARCH-CALL-1), or nil when
// the arguments fail the schema (SEARCH-CALL-3). "Given" means present, even
// when empty.
func PresentGrepCall(args jsonjs.Value) *registry.GenericCallView {
	a, bad := DecodeGrepArgs(args)
	if bad != nil {
		return nil
	}
	title := "Grep " + a.Pattern
	if a.Path != nil {
		title += " in " + *a.Path
	}
	if a.Include != nil {
		title += " (" + *a.Include + ")"
	}
	return registry.NewCallView(title, "search", jsonjs.StringValue(a.Pattern))
}

// PresentGlobCall is glob's pending-call view (SEARCH-CALL-2).
func PresentGlobCall(args jsonjs.Value) *registry.GenericCallView {
	a, bad := DecodeGlobArgs(args)
	if bad != nil {
		return nil
	}
	title := "Glob " + a.Pattern
	if a.Path != nil {
		title += " in " + *a.Path
	}
	return registry.NewCallView(title, "search", jsonjs.StringValue(a.Pattern))
}

// ToolArgsErrorInfo returns the typed error of an argument schema failure.
func ToolArgsErrorInfo() registry.ErrorInfo { return *registry.ToolArgsError }
