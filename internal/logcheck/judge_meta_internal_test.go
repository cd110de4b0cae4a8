package logcheck

import "testing"

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
