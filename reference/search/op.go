package search

import (
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// Default configuration (SEARCH-CFG-1).
const (
	DefaultGrepMaxMatches     = 250
	DefaultGrepMaxLineBytes   = 2000
	DefaultGlobMaxResults     = 100
	DefaultSearchMetaMaxBytes = 65536
)

// SpillStore describes the spill store a call sees. A nil *SpillStore means
// no store is loaded: no save is attempted.
type SpillStore struct {
	Saved         bool   `json:"saved"`
	Locator       string `json:"locator,omitempty"`
	RetrievalHint string `json:"retrievalHint,omitempty"`
}

// GrepValue is grep's canonical value (SEARCH-VAL-1).
type GrepValue struct {
	Matches []Match `json:"matches"`
}

// GlobValue is glob's canonical value (SEARCH-VAL-2).
type GlobValue struct {
	Root  string   `json:"root"`
	Paths []string `json:"paths"`
}

// GrepInput is the input of the grep.result op.
type GrepInput struct {
	Args   jsonjs.Value `json:"args"`
	Value  GrepValue    `json:"value"`
	Config jsonjs.Value `json:"config"` // {maxMatches?, maxLineBytes?, maxMetaBytes?}
	Spill  *SpillStore  `json:"spill,omitempty"`
	Nested bool         `json:"nested,omitempty"`
	// Invalid holds the registry's violations when the value read from JSON
	// breaks the tool's output schema (Value is then empty).
	Invalid []string `json:"-"`
}

// GlobInput is the input of the glob.result op.
type GlobInput struct {
	Args   jsonjs.Value `json:"args"`
	Value  GlobValue    `json:"value"`
	Config jsonjs.Value `json:"config"` // {maxResults?, maxMetaBytes?, sampleOverCap}
	Spill  *SpillStore  `json:"spill,omitempty"`
	Nested bool         `json:"nested,omitempty"`
	// Invalid: as GrepInput.Invalid.
	Invalid []string `json:"-"`
}

// ResultOutput is a grep.result or glob.result output: the final tool result
// as the harness logs it, plus the cards a UI builds from it. Nil pointers
// serialize as null.
type ResultOutput struct {
	IsError   bool                      `json:"isError"`
	Content   string                    `json:"content"`
	Error     *registry.ErrorInfo       `json:"error"`
	Meta      *Meta                     `json:"meta"`
	View      *View                     `json:"view"`
	CallView  *registry.GenericCallView `json:"callView"`
	SpillText *string                   `json:"spillText"`
}

// positiveSetting reads a numeric setting (SEARCH-CFG-2). Upstream's config
// schema runs first: absent or null means the default, and a value that is
// not a number fails with the schema's message; the plugin then requires an
// integer >= 1. Both wordings were taken from the real package.
func positiveSetting(config jsonjs.Value, key, name string, def int) (int, error) {
	v, ok := config.Get(key)
	if !ok || v.IsNull() {
		return def, nil
	}
	f, isNum := v.Float()
	if !isNum {
		return 0, fmt.Errorf("invalid config:\n  - $.%s expected number but got %s (at %s)", name, jsonjs.ToString(v), name)
	}
	if !v.IsInteger() || f < 1 {
		return 0, fmt.Errorf("tool-fs-search: %s must be a positive integer", name)
	}
	return int(min(f, 1<<31)), nil // 2^31: beyond anything a case can hold
}

func checkConfigObject(config jsonjs.Value) error {
	if k := config.Kind(); k != jsonjs.Object && k != jsonjs.Null {
		return fmt.Errorf("config must be an object, not %s", k)
	}
	return nil
}

func spillRef(s *SpillStore) *Ref {
	if s == nil || !s.Saved {
		return nil
	}
	return &Ref{Locator: s.Locator, RetrievalHint: s.RetrievalHint}
}

// finish fills the cards: the view is presentResult over the logged result
// and the call view is presentCall; nested calls get no cards
// (CODE-PRESENT-4).
func finish(tool string, args jsonjs.Value, out ResultOutput, nested bool) ResultOutput {
	if nested {
		return out
	}
	var meta *jsonjs.Value
	if out.Meta != nil {
		v := out.Meta.Value()
		meta = &v
	}
	out.View = PresentResult(tool, &args, ResultForView{IsError: out.IsError, Meta: meta})
	if tool == Grep {
		out.CallView = PresentGrepCall(args)
	} else {
		out.CallView = PresentGlobCall(args)
	}
	return out
}

func argsFailure(violations []string) ResultOutput {
	return ResultOutput{IsError: true, Content: registry.ErrorText(registry.ArgsErrorMessage(violations)), Error: registry.ToolArgsError}
}

func plainFailure(err error) ResultOutput {
	return ResultOutput{IsError: true, Content: registry.ErrorText(err.Error())}
}

// GrepResult runs the grep.result op. A configuration error is returned as
// an error (the harness would refuse to load); argument errors are error
// results, as the harness logs them.
func GrepResult(in GrepInput) (ResultOutput, error) { return GrepResultWith(in, JS) }

// GlobResult runs the glob.result op.
func GlobResult(in GlobInput) (ResultOutput, error) { return GlobResultWith(in, JS) }

// GlobResultWith runs the glob.result op measuring its meta with p's
// primitives.
func GlobResultWith(in GlobInput, p Primitives) (ResultOutput, error) {
	if err := checkConfigObject(in.Config); err != nil {
		return ResultOutput{}, err
	}
	sv, ok := in.Config.Get("sampleOverCap")
	sample, isBool := sv.Bool()
	switch {
	case !ok || sv.IsNull():
		return ResultOutput{}, fmt.Errorf("invalid config:\n  - $.sampleOverCapGlobResults missing required value (at sampleOverCapGlobResults)")
	case !isBool:
		return ResultOutput{}, fmt.Errorf("invalid config:\n  - $.sampleOverCapGlobResults expected boolean but got %s (at sampleOverCapGlobResults)", jsonjs.ToString(sv))
	}
	maxResults, err := positiveSetting(in.Config, "maxResults", "globMaxResults", DefaultGlobMaxResults)
	if err != nil {
		return ResultOutput{}, err
	}
	maxMeta, err := positiveSetting(in.Config, "maxMetaBytes", "searchMetaMaxBytes", DefaultSearchMetaMaxBytes)
	if err != nil {
		return ResultOutput{}, err
	}
	args, violations := DecodeGlobArgs(in.Args)
	if violations != nil {
		return finish(Glob, in.Args, argsFailure(violations), in.Nested), nil
	}
	if err := CheckGlobArgs(args); err != nil {
		return finish(Glob, in.Args, plainFailure(err), in.Nested), nil
	}
	if in.Invalid != nil { // SEARCH-VAL-2
		return finish(Glob, in.Args, invalidOutput(Glob, in.Invalid), in.Nested), nil
	}
	paths := in.Value.Paths
	page := PageGlob(paths, maxResults, sample, in.Value.Root)
	out := ResultOutput{}
	var ref *Ref
	if !in.Nested && len(paths) > maxResults && in.Spill != nil {
		text := GlobSpillText(paths)
		out.SpillText = &text
		ref = spillRef(in.Spill)
	}
	out.Content = GlobText(page, ref)
	if !in.Nested {
		m := projectGlob(page, maxMeta, p)
		out.Meta = &m
	}
	return finish(Glob, in.Args, out, in.Nested), nil
}

// PresentInput is the input of the search.present op. Args nil means the
// registry's soft argument check is not applied.
type PresentInput struct {
	Tool   string          `json:"tool"`
	Args   jsonjs.Optional `json:"args,omitzero"`
	Result struct {
		IsError bool            `json:"isError"`
		Meta    jsonjs.Optional `json:"meta,omitzero"`
	} `json:"result"`
}

// PresentOutput is the output of the search.present op.
type PresentOutput struct {
	View *View `json:"view"`
}

// Present runs the search.present op.
func Present(in PresentInput) (PresentOutput, error) {
	if in.Tool != Grep && in.Tool != Glob {
		return PresentOutput{}, fmt.Errorf("tool must be \"grep\" or \"glob\", not %q", in.Tool)
	}
	return PresentOutput{View: PresentResult(in.Tool, in.Args.Ptr(), ResultForView{IsError: in.Result.IsError, Meta: in.Result.Meta.Ptr()})}, nil
}

// GrepResultWith runs the grep.result op computing with p's primitives.
func GrepResultWith(in GrepInput, p Primitives) (ResultOutput, error) {
	if err := checkConfigObject(in.Config); err != nil {
		return ResultOutput{}, err
	}
	maxMatches, err := positiveSetting(in.Config, "maxMatches", "grepMaxMatches", DefaultGrepMaxMatches)
	if err != nil {
		return ResultOutput{}, err
	}
	maxLine, err := positiveSetting(in.Config, "maxLineBytes", "grepMaxLineBytes", DefaultGrepMaxLineBytes)
	if err != nil {
		return ResultOutput{}, err
	}
	maxMeta, err := positiveSetting(in.Config, "maxMetaBytes", "searchMetaMaxBytes", DefaultSearchMetaMaxBytes)
	if err != nil {
		return ResultOutput{}, err
	}
	args, violations := DecodeGrepArgs(in.Args)
	if violations != nil {
		return finish(Grep, in.Args, argsFailure(violations), in.Nested), nil
	}
	if err := CheckGrepArgs(args); err != nil {
		return finish(Grep, in.Args, plainFailure(err), in.Nested), nil
	}
	if in.Invalid != nil { // SEARCH-VAL-1: the registry refuses the body's value
		return finish(Grep, in.Args, invalidOutput(Grep, in.Invalid), in.Nested), nil
	}
	matches := in.Value.Matches
	retained := retainGrep(matches, maxMatches, maxLine, p)
	out := ResultOutput{}
	// SEARCH-SPILL-1: the tool-owned spill runs only for top-level calls
	// over the inline cap, and only when a store is loaded.
	var ref *Ref
	if !in.Nested && len(matches) > maxMatches && in.Spill != nil {
		text := grepSpillText(matches, maxLine, p)
		out.SpillText = &text
		ref = spillRef(in.Spill) // SEARCH-SPILL-6: a failed save is not an error
	}
	out.Content = grepText(retained, ref, p)
	if !in.Nested { // SEARCH-META-1, CODE-DISPATCH-6
		m := projectGrep(retained, maxMeta, p)
		out.Meta = &m
	}
	return finish(Grep, in.Args, out, in.Nested), nil
}
