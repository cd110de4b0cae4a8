package generators

import (
	"errors"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// namedMinimum is the number of named cases each op must keep at least.
var namedMinimum = map[string]int{
	reference.OpGrepResult:    45,
	reference.OpGlobResult:    45,
	reference.OpSearchPresent: 45,
	reference.OpRunCodeResult: 45,
	reference.OpRetainItems:   1,
	reference.OpRetainText:    1,
	reference.OpSpillPreview:  1,
}

func TestNamedCasesValidate(t *testing.T) {
	for _, c := range Named() {
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
		if n := len(c.Requirements); n > 4 {
			t.Errorf("case %s names %d requirements; pin down at most 4", c.ID(), n)
		}
		seen := map[string]bool{}
		for _, id := range c.Requirements {
			if seen[id] {
				t.Errorf("case %s names %s twice", c.ID(), id)
			}
			seen[id] = true
		}
		d := strings.TrimPrefix(c.Description, ThrowsPrefix)
		if d == "" || !strings.HasSuffix(d, ".") || strings.TrimSpace(d) != d {
			t.Errorf("case %s: the description must be one trimmed sentence ending in a period: %q", c.ID(), c.Description)
		}
	}
}

func TestNamedCasesAreUniqueAndKnownOps(t *testing.T) {
	ops := map[string]bool{}
	for _, op := range reference.Ops() {
		ops[op] = true
	}
	ids := map[string]bool{}
	for _, c := range Named() {
		if !ops[c.Op] {
			t.Errorf("case %s: unknown op %q", c.ID(), c.Op)
		}
		if ids[c.ID()] {
			t.Errorf("duplicate case %s", c.ID())
		}
		ids[c.ID()] = true
	}
}

func TestNamedCasesAreDeterministic(t *testing.T) {
	a, b := Named(), Named()
	if len(a) != len(b) {
		t.Fatalf("Named() returned %d then %d cases", len(a), len(b))
	}
	for i := range a {
		if a[i].ID() != b[i].ID() || string(jsonjs.Marshal(a[i].Input)) != string(jsonjs.Marshal(b[i].Input)) {
			t.Fatalf("Named() differs between calls at %d: %s vs %s", i, a[i].ID(), b[i].ID())
		}
	}
}

func TestNamedCasesNameKnownRequirements(t *testing.T) {
	for _, c := range Named() {
		for _, id := range c.Requirements {
			r, ok := spec.Lookup(id)
			switch {
			case !ok:
				t.Errorf("case %s: unknown requirement %s", c.ID(), id)
			case r.Exclusion != nil:
				t.Errorf("case %s names %s, which the catalogue excludes (%s)", c.ID(), id, r.Exclusion.Reason)
			}
		}
	}
}

// TestNamedInputsSurviveTheFixtureFile checks that every input is written
// to a fixture without loss: JSON text cannot carry NaN, ±Infinity or -0,
// which the fixture writer would silently turn into null or 0.
func TestNamedInputsSurviveTheFixtureFile(t *testing.T) {
	for _, c := range Named() {
		if c.RawInput != nil {
			continue // the case carries its exact text
		}
		if bad := lossyNumber(c.Input); bad != "" {
			t.Errorf("case %s: input holds %s, which a fixture file cannot carry", c.ID(), bad)
		}
		text := jsonjs.Marshal(c.Input)
		back, err := jsonjs.Parse(text)
		if err != nil {
			t.Errorf("case %s: input does not re-parse: %v", c.ID(), err)
			continue
		}
		if string(jsonjs.Marshal(back)) != string(text) {
			t.Errorf("case %s: input changes on a round trip through JSON text", c.ID())
		}
	}
}

func lossyNumber(v jsonjs.Value) string {
	stack := []jsonjs.Value{v}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch top.Kind() {
		case jsonjs.Number:
			f, _ := top.Float()
			switch {
			case math.IsNaN(f):
				return "NaN"
			case math.IsInf(f, 0):
				return "an infinite number"
			case f == 0 && math.Signbit(f):
				return "-0"
			}
		case jsonjs.Array:
			items, _ := top.Items()
			stack = append(stack, items...)
		case jsonjs.Object:
			members, _ := top.Members()
			for _, m := range members {
				stack = append(stack, m.Value)
			}
		}
	}
	return ""
}

// TestNamedCasesRunOnTheReference runs every case. A case whose
// description starts with ThrowsPrefix must make the reference throw; every
// other case must produce an output. No case may be malformed input.
func TestNamedCasesRunOnTheReference(t *testing.T) {
	for _, c := range Named() {
		_, err := reference.Run(c.Op, jsonjs.Marshal(c.Input))
		wantThrow := strings.HasPrefix(c.Description, ThrowsPrefix)
		var inErr *reference.InputError
		switch {
		case errors.As(err, &inErr):
			t.Errorf("case %s: malformed input: %v", c.ID(), err)
		case err != nil && !wantThrow:
			t.Errorf("case %s: the reference throws %q but the description does not start with %q", c.ID(), err, ThrowsPrefix)
		case err == nil && wantThrow:
			t.Errorf("case %s: expected a thrown error, got an output", c.ID())
		}
	}
}

// TestNamedCasesCoverTheCatalogue checks that every requirement that is not
// a LOG-* requirement (the session-log checker covers those) and not
// excluded is named by at least one case.
func TestNamedCasesCoverTheCatalogue(t *testing.T) {
	reqs, err := spec.Catalogue()
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]int{}
	for _, c := range Named() {
		for _, id := range c.Requirements {
			named[id]++
		}
	}
	var missing []string
	for _, r := range reqs {
		if strings.HasPrefix(r.ID, "LOG-") || r.Exclusion != nil {
			continue
		}
		if named[r.ID] == 0 {
			missing = append(missing, r.ID)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d requirements are named by no case and not excluded:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
}

func TestNamedCaseCounts(t *testing.T) {
	count := map[string]int{}
	cases := Named()
	for _, c := range cases {
		count[c.Op]++
	}
	ops := make([]string, 0, len(count))
	for op := range count {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	for _, op := range ops {
		t.Logf("%-16s %d named cases", op, count[op])
	}
	for op, min := range namedMinimum {
		if count[op] < min {
			t.Errorf("%s has %d named cases, want at least %d", op, count[op], min)
		}
	}
	if len(cases) < 300 {
		t.Errorf("%d named cases in all, want at least 300", len(cases))
	}
}
