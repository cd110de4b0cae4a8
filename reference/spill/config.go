package spill

import (
	"fmt"
	"math"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// ParseMaxInlineBytes validates the policy's one setting (SPILL-CFG-1): a
// number holding an integer >= 0 (-0 passes, as it does in JavaScript).
// Anything else fails with upstream's exact message, the value printed as
// JavaScript's String(value) prints it: "-1", "1.5", "Infinity", "null",
// "abc" for a string, "[object Object]", "1,2" for an array. Integers beyond
// what an int holds are clamped: such a cap keeps everything anyway.
func ParseMaxInlineBytes(v jsonjs.Value) (int, error) {
	if k := v.Kind(); k != jsonjs.Number && k != jsonjs.Null {
		// The plugin's config schema rejects a non-number before the
		// policy's own check runs (found by running upstream).
		return 0, fmt.Errorf("invalid config:\n  - $.maxInlineBytes expected number but got %s (at maxInlineBytes)", jsonjs.ToString(v))
	}
	f, ok := v.Float()
	if !ok || !v.IsInteger() || f < 0 {
		return 0, fmt.Errorf("spill-policy: maxInlineBytes must be a non-negative integer (got %s)", jsonjs.ToString(v))
	}
	if f >= math.MaxInt {
		return math.MaxInt, nil
	}
	return int(f), nil
}
