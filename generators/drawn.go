package generators

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
	"github.com/dsh-conform/conform/reference/spill"
)

// genDrawnOp is one op's generator and the core requirements its generated
// cases exercise.
type genDrawnOp struct {
	gen          func() *rapid.Generator[any]
	requirements []string
}

// genDrawnOps maps each op of adapter protocol v1 (docs/ops.md) to its
// generator.
var genDrawnOps = map[string]genDrawnOp{
	"grep.result": {
		gen:          func() *rapid.Generator[any] { return GrepInput().AsAny() },
		requirements: []string{"SEARCH-RETAIN-1", "SEARCH-GREP-2", "SEARCH-GREP-3", "SEARCH-META-2", "SEARCH-CAP-1", "SEARCH-NARROW-5", "SEARCH-CALL-1"},
	},
	"glob.result": {
		gen:          func() *rapid.Generator[any] { return GlobInput().AsAny() },
		requirements: []string{"SEARCH-RETAIN-2", "SEARCH-GLOB-3", "SEARCH-SAMPLE-4", "SEARCH-META-3", "SEARCH-CAP-1", "SEARCH-NARROW-6", "SEARCH-CALL-2"},
	},
	"search.present": {
		gen:          func() *rapid.Generator[any] { return PresentInput().AsAny() },
		requirements: []string{"SEARCH-NARROW-1", "SEARCH-NARROW-2", "SEARCH-NARROW-5", "SEARCH-NARROW-6", "SEARCH-NARROW-7", "SEARCH-PRESENT-1", "SEARCH-PRESENT-2", "SEARCH-PRESENT-3"},
	},
	"run_code.result": {
		gen:          func() *rapid.Generator[any] { return RunCodeInput().AsAny() },
		requirements: []string{"CODE-RENDER-1", "CODE-JSON-2", "CODE-NUM-1", "CODE-STR-1", "CODE-KEYS-1", "CODE-FAIL-1", "CODE-PRESENT-1"},
	},
	"retain.items": {
		gen:          func() *rapid.Generator[any] { return RetainItemsInput().AsAny() },
		requirements: []string{"RET-ITEM-2", "RET-ITEM-3"},
	},
	"retain.text": {
		gen:          func() *rapid.Generator[any] { return RetainTextInput().AsAny() },
		requirements: []string{"RET-TEXT-3", "RET-TEXT-4", "RET-TEXT-6", "RET-TEXT-7", "RET-UTF8-1", "RET-UTF8-2", "RET-UTF8-3"},
	},
	"spill.preview": {
		gen:          func() *rapid.Generator[any] { return SpillPreviewInput().AsAny() },
		requirements: []string{"SPILL-RES-2", "SPILL-PREV-2", "SPILL-PREV-3", "SPILL-PREV-4", "SPILL-CAP-1"},
	},
}

// DrawnOps lists the ops Drawn can generate cases for, in a fixed order.
func DrawnOps() []string {
	return []string{"grep.result", "glob.result", "search.present", "run_code.result", "retain.items", "retain.text", "spill.preview"}
}

// OpGenerator returns the generator of typed inputs of an op (a
// search.GrepInput for grep.result, …), as drawn by Drawn.
func OpGenerator(op string) (*rapid.Generator[any], error) {
	d, ok := genDrawnOps[op]
	if !ok {
		return nil, fmt.Errorf("generators: no generator for op %q", op)
	}
	return d.gen(), nil
}

// Drawn returns n generated cases for op, named gen-001, gen-002, …: case i
// is the op generator's rapid Example for seed i, so the same call always
// returns the same cases (the fixtures depend on it). Each case names the
// requirements it exercises (Cite).
func Drawn(op string, n int) (cases []Case, err error) {
	d, ok := genDrawnOps[op]
	if !ok {
		return nil, fmt.Errorf("generators: no generator for op %q", op)
	}
	gen := d.gen()
	cases = make([]Case, 0, n)
	for seed := 1; seed <= n; seed++ {
		typed, err := genExample(gen, seed)
		if err != nil {
			return nil, fmt.Errorf("generators: %s seed %d: %w", op, seed, err)
		}
		input, err := InputValue(typed)
		if err != nil {
			return nil, fmt.Errorf("generators: %s seed %d: %w", op, seed, err)
		}
		cases = append(cases, Case{
			Name:         fmt.Sprintf("gen-%03d", seed),
			Op:           op,
			Requirements: Cite(op, input),
			Description:  fmt.Sprintf("generated case, seed %d", seed),
			Input:        input,
		})
	}
	return cases, nil
}

// genExample is gen.Example(seed) with its panic (a generator that cannot
// produce a value) turned into an error.
func genExample(gen *rapid.Generator[any], seed int) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	return gen.Example(seed), nil
}

// InputValue converts a typed op input, as a generator draws it, into the op
// input value of docs/ops.md. It is FromTyped except for two types:
//
//   - spill.PreviewInput decodes itself from JSON but has no encoder (its
//     Go field names would leak into the JSON), so it is written here with
//     the members text|blocks, maxInlineBytes, ref, toolName and arm, each
//     only when present;
//   - retention.TextInput holds all three budget fields whatever the
//     strategy; the ones the strategy does not use (JSON null) are dropped,
//     and an input with no chunk at all gets "chunks": [].
func InputValue(input any) (jsonjs.Value, error) {
	switch in := input.(type) {
	case spill.PreviewInput:
		return genSpillInputValue(in), nil
	case *spill.PreviewInput:
		return genSpillInputValue(*in), nil
	case retention.TextInput:
		return genTextInputValue(in)
	case *retention.TextInput:
		return genTextInputValue(*in)
	case codemode.ResultInput:
		return RunCodeInputValue(in), nil
	case *codemode.ResultInput:
		return RunCodeInputValue(*in), nil
	}
	return FromTyped(input)
}

func genSpillInputValue(in spill.PreviewInput) jsonjs.Value {
	var ms []jsonjs.Member
	if in.Text != nil {
		ms = append(ms, genMember("text", genStr(*in.Text)))
	}
	if in.Blocks != nil {
		blocks := make([]jsonjs.Value, len(in.Blocks))
		for i, b := range in.Blocks {
			bm := []jsonjs.Member{genMember("type", genStr(b.Type))}
			if b.Text != nil {
				bm = append(bm, genMember("text", genStr(*b.Text)))
			}
			blocks[i] = jsonjs.ObjectValue(bm...)
		}
		ms = append(ms, genMember("blocks", jsonjs.ArrayValue(blocks...)))
	}
	if in.MaxInlineBytes != nil {
		ms = append(ms, genMember("maxInlineBytes", *in.MaxInlineBytes))
	}
	if in.Ref != nil {
		ms = append(ms, genMember("ref", jsonjs.ObjectValue(genMember("locator", genStr(in.Ref.Locator)), genMember("retrievalHint", genStr(in.Ref.RetrievalHint)))))
	}
	if in.ToolName != "" {
		ms = append(ms, genMember("toolName", genStr(in.ToolName)))
	}
	if in.Arm != "" {
		ms = append(ms, genMember("arm", genStr(string(in.Arm))))
	}
	return jsonjs.ObjectValue(ms...)
}

func genTextInputValue(in retention.TextInput) (jsonjs.Value, error) {
	v, err := FromTyped(in)
	if err != nil {
		return v, err
	}
	st, _ := v.Get("strategy")
	members, _ := st.Members()
	kept := make([]jsonjs.Member, 0, len(members))
	for _, m := range members {
		if !m.Value.IsNull() {
			kept = append(kept, m)
		}
	}
	v = v.With("strategy", jsonjs.ObjectValue(kept...))
	if !v.Has("chunks") && !v.Has("chunksBase64") {
		v = v.With("chunks", jsonjs.ArrayValue())
	}
	return v, nil
}
