package logcheck

import "testing"

// Issue 22, results.go:789:9 (now 796:9; `x >> 30` -> `x << 30`): mix is
// documented as "the splitmix64 finalizer", the bijection every hash of
// LOG-7's JSON.parse equality (hashValue, hashRaw, plainMeta) ends in.
// Another bijection would keep hashes comparable with one another, but
// not the finalizer's known mixing, which no other test pins. SplitMix64
// (Steele, Lea and Flood; Vigna's splitmix64.c) outputs the finalizer of
// its state after adding the golden gamma 0x9e3779b97f4a7c15 each step;
// from seed 0 its first outputs are the published
// 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f.
func TestJudgeResultsMixIsSplitMix64(t *testing.T) {
	const gamma = 0x9e3779b97f4a7c15
	state := uint64(0)
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		state += gamma
		if got := mix(state); got != want {
			t.Errorf("output %d of splitmix64 from seed 0: mix(%#x) = %#x, want %#x", i+1, state, got, want)
		}
	}
	// The finalizer fixes 0 and moves every other single bit: each of
	// 64 inputs 1<<k goes to a distinct value with, on average, about
	// half of its bits set (a shift or a constant lost would leave many
	// outputs with few bits).
	if mix(0) != 0 {
		t.Errorf("mix(0) = %#x, want 0", mix(0))
	}
	seen := map[uint64]int{}
	total := 0
	for k := range 64 {
		h := mix(1 << k)
		if j, dup := seen[h]; dup {
			t.Errorf("mix(1<<%d) = mix(1<<%d) = %#x", k, j, h)
		}
		seen[h] = k
		for x := h; x != 0; x &= x - 1 {
			total++
		}
	}
	if avg := float64(total) / 64; avg < 24 || avg > 40 {
		t.Errorf("mix(1<<k) sets %.1f bits on average, want about 32", avg)
	}
}
