package logcheck

import (
	"slices"
	"testing"

	"github.com/dsh-conform/conform/reference/codemode"
)

// Tests for survivors of the judge's run in logcheck's small readers
// (issue 22, docs/mutation.md "The judge").

// lineBudget keeps at most maxBudgetSizes distinct cut sizes, each checked
// against every kept one; then it gives up, so a log of many cut sizes
// costs a bounded list.
func TestJudgeLineBudgetBound(t *testing.T) {
	var b lineBudget
	// Sizes 100 apart: no two are in the 7..10-byte band that one
	// maxLineBytes cannot explain.
	for i := range maxBudgetSizes - 1 {
		if k, bad := b.cut(100 * (i + 1)); bad {
			t.Fatalf("cut %d: reported against %d", 100*(i+1), k)
		}
	}
	// The last size kept is still checked: 8 bytes off the first.
	if k, bad := b.cut(100 + 8); !bad || k != 100 {
		t.Fatalf("the %dth size, 8 bytes off the first: got %d %v, want 100 true", maxBudgetSizes, k, bad)
	}
	b.reset()
	for i := range maxBudgetSizes + 5 {
		b.cut(100 * (i + 1))
	}
	if len(b.sizes) > maxBudgetSizes || !b.gaveUp {
		t.Fatalf("kept %d sizes (gave up %v), want at most %d", len(b.sizes), b.gaveUp, maxBudgetSizes)
	}
	b.reset()
	// A size seen before is not a new one, and sizes within the slack agree.
	for _, n := range []int{2000, 2000, 2000 - previewSlack, 2000 + previewSlack} {
		if k, bad := b.cut(n); bad {
			t.Fatalf("cut %d: reported against %d", n, k)
		}
	}
	if !slices.Equal(b.sizes, []int{2000, 2000 - previewSlack, 2000 + previewSlack}) {
		t.Fatalf("sizes %v", b.sizes)
	}
}

// plainSeqs is seqList's fast path: it must take the plain spelling itself
// (seqList would read any spelling right, so only this test sees a fast
// path that refuses everything), and refuse every other spelling. Its
// input is always one whole array value (seqList's caller checks the kind).
func TestJudgePlainSeqs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int64
		ok   bool
	}{
		{"[]", nil, true},
		{"[0]", []int64{0}, true},
		{"[1,2,30]", []int64{1, 2, 30}, true},
		{"[999999999999999]", []int64{999999999999999}, true}, // 15 digits
		{"[1000000000000000]", nil, false},                    // 16
		{"[1, 2]", nil, false},
		{"[1,]", nil, false},
		{"[,1]", nil, false},
		{"[1.5]", nil, false},
		{"[-1]", nil, false},
	} {
		got, ok := plainSeqs(nil, raw(c.in))
		if ok != c.ok || ok && !slices.Equal(got, c.want) {
			t.Errorf("plainSeqs(%s) = %v %v, want %v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// resetArenas keeps an arena of at most arenaKeep from one line to the
// next and drops a larger one (one huge line must not pin its scratch for
// the rest of the log).
func TestJudgeResetArenasKeepsSmallDropsLarge(t *testing.T) {
	for _, size := range []int{arenaKeep, arenaKeep + 1} {
		c := &checker{
			marena: make([]member, 1, size), rarena: make([]raw, 1, size),
			tarena: make([]raw, 1, size), barena: make([]byte, 1, size),
		}
		c.resetArenas()
		caps := []int{cap(c.marena), cap(c.rarena), cap(c.tarena), cap(c.barena)}
		lens := []int{len(c.marena), len(c.rarena), len(c.tarena), len(c.barena)}
		want := size
		if size > arenaKeep {
			want = 0
		}
		if !slices.Equal(caps, []int{want, want, want, want}) || !slices.Equal(lens, []int{0, 0, 0, 0}) {
			t.Errorf("arenas of %d after resetArenas: caps %v lens %v, want caps %d and empty", size, caps, lens, want)
		}
	}
}

// freeGroup keeps an emptied group for reuse unless it is large or the
// spare list is full.
func TestJudgeFreeGroupBounds(t *testing.T) {
	c := &checker{}
	c.freeGroup(&dispGroup{events: make([]codemode.DispatchEvent, 1, arenaKeep+1)})
	if len(c.freeGroups) != 0 {
		t.Fatalf("a group of %d events was kept", arenaKeep+1)
	}
	for range freeGroupsMax + 3 {
		c.freeGroup(&dispGroup{events: make([]codemode.DispatchEvent, 1, arenaKeep), lines: []int{7}})
	}
	if len(c.freeGroups) != freeGroupsMax {
		t.Fatalf("kept %d spare groups, want %d", len(c.freeGroups), freeGroupsMax)
	}
	if g := c.freeGroups[0]; len(g.events) != 0 || len(g.lines) != 0 || cap(g.events) != arenaKeep {
		t.Fatalf("a spare group is not emptied in place: %d events (cap %d), %d lines", len(g.events), cap(g.events), len(g.lines))
	}
}
