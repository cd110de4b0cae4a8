package fuzz

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// A campaign is the sequence of cases 0, 1, 2, … drawn from one seed. Case k
// is a pure function of (ops, seed, k):
//
//   - its op is ops[k mod len(ops)];
//   - its case seed is s_k = CaseSeed(seed, k);
//   - its variant (Variants) is chosen from s_k and the op;
//   - its input is the op's generator, wrapped by the variant, at s_k:
//     CaseGenerator(op, variant).Example(s_k).
//
// Nothing depends on the machine, the job count, the shard or the order in
// which workers finish, so `--seed N --case K --cases 1` re-runs exactly
// case K of any campaign with seed N over the same op list, and `--op OP`
// pins the op list to the one op a finding is about.

// splitmix64 is the SplitMix64 finaliser: a bijective 64-bit mix.
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// CaseSeed returns s_k, the rapid seed of case k of the campaign with the
// given seed. It is in [1, 2^62], so it is never rapid's "random seed" 0 and
// converts to a positive int for Generator.Example.
func CaseSeed(seed uint64, k int) uint64 {
	return splitmix64(splitmix64(seed)+uint64(k))>>2 + 1
}

// CaseOp returns the op of case k over the op list ops.
func CaseOp(ops []string, k int) string { return ops[k%len(ops)] }

// CaseVariant returns the variant of case k of op with case seed s: one
// case in four of an op that has widening variants is one of them (each
// equally likely, widen.go); of the others, one in two of an op that has
// metamorphic variants is one of those (each equally likely), the others
// are the op's plain generated inputs. "" is plain. The widening draw is
// a hash of its own, so the other cases keep the variants they had
// before widening existed.
func CaseVariant(op string, s uint64) string {
	if ws := wideningByOp[op]; len(ws) > 0 {
		if w := splitmix64(s ^ 0x2545f4914f6cdd1d); w%4 == 0 {
			return ws[(w/4)%uint64(len(ws))].name
		}
	}
	vs := variantsByOp[op]
	if len(vs) == 0 {
		return ""
	}
	i := splitmix64(s^0x5bd1e9955bd1e995) % uint64(2*len(vs))
	if i < uint64(len(vs)) {
		return vs[i].name
	}
	return ""
}

// InShard reports whether case k belongs to shard i of n (k mod n == i).
func InShard(k, i, n int) bool { return n <= 1 || k%n == i }

// CaseGenerator returns the generator of op's inputs wrapped by a variant
// ("" for none): the generator rapid.Check draws from when shrinking, and
// whose Example(s_k) is case k's input.
func CaseGenerator(op, variant string) (*rapid.Generator[any], error) {
	base, err := generators.OpGenerator(op)
	if err != nil {
		return nil, err
	}
	if variant == "" {
		return base, nil
	}
	v, ok := findVariant(op, variant)
	if !ok {
		return nil, fmt.Errorf("fuzz: op %s has no variant %q", op, variant)
	}
	return rapid.Custom(func(t *rapid.T) any {
		return v.apply(t, base.Draw(t, "input"))
	}), nil
}

// genKey names one cached generator.
type genKey struct{ op, variant string }

// buildGenerators builds every generator a campaign over ops can use. The
// generators are read-only afterwards and shared by the workers; String is
// called once here because rapid reads the cached name unsynchronised.
func buildGenerators(ops []string) (map[genKey]*rapid.Generator[any], error) {
	gens := map[genKey]*rapid.Generator[any]{}
	for _, op := range ops {
		names := []string{""}
		names = append(names, Variants(op)...)
		for _, name := range names {
			g, err := CaseGenerator(op, name)
			if err != nil {
				return nil, err
			}
			_ = g.String()
			gens[genKey{op, name}] = g
		}
	}
	return gens, nil
}

// example is gen.Example(seed) with a generator panic turned into an error.
func example(gen *rapid.Generator[any], seed uint64) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("generator: %v", r)
		}
	}()
	return gen.Example(int(seed)), nil
}

// Input is one drawn op input in its three forms.
type Input struct {
	Typed any          // as the generator drew it (search.GrepInput, …)
	Value jsonjs.Value // the op input value (docs/ops.md)
	Text  []byte       // the compact JSON text fed to the harness and the reference
}

// newInput converts a drawn typed input.
func newInput(typed any) (Input, error) {
	if s, ok := typed.(shaped); ok {
		return shapedInput(s)
	}
	v, err := generators.InputValue(typed)
	if err != nil {
		return Input{}, err
	}
	return Input{Typed: typed, Value: v, Text: generators.Case{Input: v}.InputText()}, nil
}

// Size describes how big an input is (report.FuzzSize).
type Size = report.FuzzSize

// SizeOf measures an input.
func SizeOf(in Input) Size {
	s := Size{Bytes: len(in.Text), Counts: map[string]int{}}
	var parts []string
	add := func(key string, n int, singular, plural string) {
		s.Counts[key] = n
		if n == 1 {
			parts = append(parts, "1 "+singular)
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", n, plural))
		}
	}
	switch x := in.Typed.(type) {
	case search.GrepInput:
		files := map[string]bool{}
		lineBytes := 0
		for _, m := range x.Value.Matches {
			files[m.Path] = true
			lineBytes += len(m.Line)
		}
		add("matches", len(x.Value.Matches), "match", "matches")
		add("files", len(files), "file", "files")
		add("lineBytes", lineBytes, "line byte", "line bytes")
	case search.GlobInput:
		add("paths", len(x.Value.Paths), "path", "paths")
	case search.PresentInput:
		if m := x.Result.Meta.Ptr(); m != nil {
			add("metaBytes", jsonjs.Size(*m), "meta byte", "meta bytes")
		}
	case codemode.ResultInput:
		add("logs", len(x.Run.Logs), "log entry", "log entries")
		if x.Run.Result != nil {
			nodes, depth := valueShape(*x.Run.Result)
			add("resultNodes", nodes, "result node", "result nodes")
			s.Counts["resultDepth"] = depth
			parts = append(parts, fmt.Sprintf("depth %d", depth))
		}
		if x.Run.Error != nil {
			parts = append(parts, "failure "+x.Run.Error.Kind)
		}
	case retention.ItemsInput:
		add("items", len(x.Items), "item", "items")
	case retention.TextInput:
		add("chunks", len(x.Chunks)+len(x.ChunksBase64), "chunk", "chunks")
	case spill.PreviewInput:
		text := spillText(x)
		add("textBytes", len(text), "text byte", "text bytes")
		if x.Blocks != nil {
			add("blocks", len(x.Blocks), "block", "blocks")
		}
	}
	parts = append(parts, fmt.Sprintf("%d input bytes", s.Bytes))
	s.Summary = strings.Join(parts, ", ")
	if len(s.Counts) == 0 {
		s.Counts = nil
	}
	return s
}

// valueShape counts a value's nodes and its container depth (a scalar is
// depth 0, [1] depth 1).
func valueShape(v jsonjs.Value) (nodes, depth int) {
	nodes = 1
	var children []jsonjs.Value
	if items, ok := v.Items(); ok {
		children = items
	} else if members, ok := v.Members(); ok {
		for _, m := range members {
			children = append(children, m.Value)
		}
	} else {
		return 1, 0
	}
	d := 0
	for _, c := range children {
		n, cd := valueShape(c)
		nodes += n
		d = max(d, cd)
	}
	return nodes, d + 1
}

// spillText is a spill.preview input's text: the text, or the blocks
// flattened as the policy flattens them (SPILL-RES-3; a non-text block
// contributes nothing here).
func spillText(in spill.PreviewInput) string {
	if in.Text != nil {
		return *in.Text
	}
	if text, ok := spill.Flatten(in.Blocks); ok {
		return text
	}
	var b strings.Builder
	for _, bl := range in.Blocks {
		if bl.Text != nil {
			b.WriteString(*bl.Text)
		}
	}
	return b.String()
}
