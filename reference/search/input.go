package search

import (
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/registry"
)

// The output schemas upstream's grep and glob declare (SEARCH-VAL-1,
// SEARCH-VAL-2): the registry checks every canonical value against them,
// undeclared members included, before rendering.
var (
	grepSchema = &registry.Schema{Type: "object", Closed: true, Props: []registry.Prop{
		{Name: "matches", Required: true, Schema: &registry.Schema{Type: "array", Items: &registry.Schema{
			Type: "object", Closed: true, Props: []registry.Prop{
				{Name: "path", Required: true, Schema: &registry.Schema{Type: "string"}},
				{Name: "lineNumber", Required: true, Schema: &registry.Schema{Type: "integer"}},
				{Name: "line", Required: true, Schema: &registry.Schema{Type: "string"}},
			}}}},
	}}
	globSchema = &registry.Schema{Type: "object", Closed: true, Props: []registry.Prop{
		{Name: "root", Required: true, Schema: &registry.Schema{Type: "string"}},
		{Name: "paths", Required: true, Schema: &registry.Schema{Type: "array", Items: &registry.Schema{Type: "string"}}},
	}}
)

// DecodeGrepInput reads a grep.result input (docs/ops.md) with JSON.parse
// semantics: member names exact, unknown members ignored, strings WTF-8,
// numbers as doubles. A value that breaks grep's output schema is not an
// input error: it is kept as Invalid, and GrepResult answers with the
// registry's invalid-output result.
func DecodeGrepInput(f jsonjs.Field) (GrepInput, error) {
	var in GrepInput
	if err := decodeCommon(f, &in.Args, &in.Config, &in.Spill, &in.Nested); err != nil {
		return GrepInput{}, err
	}
	value := f.Member("value")
	if in.Invalid = registry.CheckOutput(grepSchema, value.Value); in.Invalid != nil {
		return in, nil
	}
	items, _ := value.Member("matches").Items()
	in.Value.Matches = make([]Match, len(items))
	for i, it := range items {
		m := &in.Value.Matches[i]
		m.Path, _ = it.Member("path").String()
		m.Line, _ = it.Member("line").String()
		m.LineNumber, _ = it.Member("lineNumber").Value.Float() // an integer: CheckOutput saw to it
	}
	return in, nil
}

// DecodeGlobInput reads a glob.result input, as DecodeGrepInput.
func DecodeGlobInput(f jsonjs.Field) (GlobInput, error) {
	var in GlobInput
	if err := decodeCommon(f, &in.Args, &in.Config, &in.Spill, &in.Nested); err != nil {
		return GlobInput{}, err
	}
	value := f.Member("value")
	if in.Invalid = registry.CheckOutput(globSchema, value.Value); in.Invalid != nil {
		return in, nil
	}
	in.Value.Root, _ = value.Member("root").String()
	in.Value.Paths, _ = value.Member("paths").Strings()
	return in, nil
}

// decodeCommon reads the members grep.result and glob.result share: absent args or config
// read as null (no config: every default); null spill, nested, saved, locator, hint as absent.
func decodeCommon(f jsonjs.Field, args, config *jsonjs.Value, spill **SpillStore, nested *bool) error {
	if err := f.Object(); err != nil {
		return err
	}
	*args = f.Member("args").Value
	*config = f.Member("config").Value
	var err error
	if *nested, err = f.Member("nested").OptBool(false); err != nil {
		return err
	}
	s := f.Member("spill")
	if !s.Given() {
		return nil
	}
	if err := s.Object(); err != nil {
		return err
	}
	var store SpillStore
	if store.Saved, err = s.Member("saved").OptBool(false); err != nil {
		return err
	}
	if store.Locator, err = s.Member("locator").OptString(""); err != nil {
		return err
	}
	if store.RetrievalHint, err = s.Member("retrievalHint").OptString(""); err != nil {
		return err
	}
	*spill = &store
	return nil
}

// DecodePresentInput reads a search.present input.
func DecodePresentInput(f jsonjs.Field) (PresentInput, error) {
	var in PresentInput
	if err := f.Object(); err != nil {
		return in, err
	}
	var err error
	if in.Tool, err = f.Member("tool").String(); err != nil {
		return in, err
	}
	if a := f.Member("args"); a.Present {
		in.Args = jsonjs.Some(a.Value)
	}
	r := f.Member("result")
	if err := r.Object(); err != nil {
		return in, err
	}
	if in.Result.IsError, err = r.Member("isError").OptBool(false); err != nil {
		return in, err
	}
	if m := r.Member("meta"); m.Present {
		in.Result.Meta = jsonjs.Some(m.Value)
	}
	return in, nil
}

// invalidOutput is the registry's result for a refused canonical value
// (SEARCH-VAL-1, SEARCH-VAL-2): the same envelope as run_code's lossless check.
func invalidOutput(tool string, violations []string) ResultOutput {
	return ResultOutput{IsError: true, Content: registry.ErrorText(registry.InvalidOutputMessage(tool, violations)), Error: registry.ToolOutputError()}
}
