package logcheck

import (
	"math"
	"strconv"
	"testing"
)

// null, false and true never hash as a number (meta.go nullWord): before,
// null hashed as 1.5e-323 and the booleans as the numbers of bits 0x12 and
// 0x13, so a pruned replacement whose meta put such a number where the
// original had null or a boolean passed LOG-RES-3. Checked through the
// tree's hash and the line's (hashMeta), on every number of bits 0 to
// 0x3ff, each alone, as a member value and as an item.
func TestJudgeHashScalarsAreNoNumber(t *testing.T) {
	c := newChecker("t.jsonl", Defaults(), nil)
	hash := func(text string) uint64 {
		t.Helper()
		if !c.lz.Scan([]byte(text)) {
			t.Fatalf("not JSON: %s", text)
		}
		c.validUTF8 = c.lz.UTF8()
		h := c.hash(c.lz.Value(c.lz.Root()))
		if m := c.hashMeta(c.lz.Root()); m != h {
			t.Fatalf("%s: hashMeta %#x, the tree's hash %#x", text, m, h)
		}
		return h
	}
	others := map[uint64]string{}
	for _, s := range []string{"null", "false", "true"} {
		for _, text := range []string{s, `{"a":` + s + `}`, `[` + s + `]`} {
			if prev, ok := others[hash(text)]; ok {
				t.Fatalf("%s hashes as %s", text, prev)
			}
			others[hash(text)] = text
		}
	}
	for bits := uint64(0); bits <= 0x3ff; bits++ {
		n := strconv.FormatFloat(math.Float64frombits(bits), 'g', -1, 64)
		for _, text := range []string{n, `{"a":` + n + `}`, `[` + n + `]`} {
			if prev, ok := others[hash(text)]; ok {
				t.Fatalf("%s hashes as %s", text, prev)
			}
		}
	}
}
