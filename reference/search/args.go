// Package search is the reference for the grep and glob search-card contract
// (SEARCH-*): argument checks, line previews, the shared retention pass, the
// model-facing text, the tool-owned spill text, the presentationMeta
// projection and its byte cap, narrowing meta back to a view, and the
// presenters.
package search

import (
	"errors"
	"strings"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// GrepArgs are grep's validated arguments.
type GrepArgs struct {
	Pattern string
	Path    *string
	Include *string
}

// GlobArgs are glob's validated arguments.
type GlobArgs struct {
	Pattern string
	Path    *string
}

var (
	grepParams = []registry.Param{{Name: "pattern", Required: true}, {Name: "path"}, {Name: "include"}}
	globParams = []registry.Param{{Name: "pattern", Required: true}, {Name: "path"}}
)

func optional(args jsonjs.Value, name string) *string {
	if s, ok := registry.StringArg(args, name); ok {
		return &s
	}
	return nil
}

// DecodeGrepArgs applies grep's parameter schema (SEARCH-PRESENT-3): an
// object with a string pattern and optional string path and include; other
// members are allowed. It returns the schema violations, if any.
func DecodeGrepArgs(args jsonjs.Value) (GrepArgs, []string) {
	if v := registry.CheckArgs(args, grepParams); v != nil {
		return GrepArgs{}, v
	}
	p, _ := registry.StringArg(args, "pattern")
	return GrepArgs{Pattern: p, Path: optional(args, "path"), Include: optional(args, "include")}, nil
}

// DecodeGlobArgs applies glob's parameter schema.
func DecodeGlobArgs(args jsonjs.Value) (GlobArgs, []string) {
	if v := registry.CheckArgs(args, globParams); v != nil {
		return GlobArgs{}, v
	}
	p, _ := registry.StringArg(args, "pattern")
	return GlobArgs{Pattern: p, Path: optional(args, "path")}, nil
}

// Argument error messages (SEARCH-ARGS-1/2), exact.
const (
	msgPattern        = "pattern must be a non-empty string"
	msgPath           = "path must be a non-empty string when given"
	msgInclude        = "include must be a non-empty glob when given"
	msgIncludeNegated = `include must be a positive glob filter; negated patterns ("!…") are not supported`
	msgIncludeList    = "include must be one glob, not a comma-separated list (use {a,b} alternation instead)"
)

// CheckGrepArgs applies grep's own checks, in upstream's order
// (SEARCH-ARGS-1). A whitespace-only pattern is allowed; values are not
// trimmed, only tested for blankness with ECMAScript trim (SEARCH-ARGS-3).
func CheckGrepArgs(a GrepArgs) error {
	switch {
	case a.Pattern == "":
		return errors.New(msgPattern)
	case a.Path != nil && jsonjs.IsBlank(*a.Path):
		return errors.New(msgPath)
	case a.Include != nil && jsonjs.IsBlank(*a.Include):
		return errors.New(msgInclude)
	case a.Include != nil && strings.HasPrefix(*a.Include, "!"):
		return errors.New(msgIncludeNegated)
	case a.Include != nil && hasTopLevelComma(*a.Include):
		return errors.New(msgIncludeList)
	}
	return nil
}

// hasTopLevelComma reports a comma at brace depth 0; depth never goes below 0.
func hasTopLevelComma(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// CheckGlobArgs applies glob's own checks (SEARCH-ARGS-2): unlike grep, a
// blank pattern is rejected.
func CheckGlobArgs(a GlobArgs) error {
	switch {
	case jsonjs.IsBlank(a.Pattern):
		return errors.New(msgPattern)
	case a.Path != nil && jsonjs.IsBlank(*a.Path):
		return errors.New(msgPath)
	}
	return nil
}
