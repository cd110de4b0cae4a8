package logcheck

import (
	"strconv"
	"testing"
)

// Survivors of meta.go's scratch handling (issue 22).

// keep drops the meta scratch when any of its lists grew past arenaKeep,
// and keeps it at arenaKeep or below, as resetArenas keeps the line's
// arenas: meta.go:160's bounds.
func TestJudgeMetaKeepBounds(t *testing.T) {
	for _, size := range []int{arenaKeep, arenaKeep + 1} {
		for list := range 3 {
			m := &searchMeta{groups: make([]metaGroup, 0, 1), matches: make([]metaMatch, 0, 1), paths: make([][]byte, 0, 1)}
			switch list {
			case 0:
				m.groups = make([]metaGroup, 0, size)
			case 1:
				m.matches = make([]metaMatch, 0, size)
			default:
				m.paths = make([][]byte, 0, size)
			}
			m.keep()
			caps := [3]int{cap(m.groups), cap(m.matches), cap(m.paths)}
			want := [3]int{1, 1, 1}
			want[list] = size
			if size > arenaKeep {
				want = [3]int{}
			}
			if caps != want {
				t.Errorf("list %d of cap %d: caps after keep %v, want %v", list, size, caps, want)
			}
		}
	}
}

// Objects that differ only in a key's name hash apart (LOG-7: a pruned
// replacement's meta is compared by hash), over 30,000 names: meta.go:548:71
// keyHash's `*` -> `/` kept about 24 bits of a key's hash, so some of
// these collided.
func TestJudgeMetaKeyNamesHashApart(t *testing.T) {
	c := newChecker("t.jsonl", Defaults(), nil)
	seen := make(map[uint64]string)
	for i := range 30_000 {
		text := `{"key` + strconv.Itoa(i) + `":1}`
		if !c.lz.Scan([]byte(text)) {
			t.Fatalf("not JSON: %s", text)
		}
		c.validUTF8 = true
		h := c.hashMeta(c.lz.Root())
		if prev, ok := seen[h]; ok {
			t.Fatalf("%s and %s hash alike", prev, text)
		}
		seen[h] = text
	}
}
