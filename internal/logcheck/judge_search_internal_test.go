package logcheck

import "testing"

// lineBudget.cut (SEARCH-PREVIEW-2): two cut sizes 7 to 10 bytes apart are
// reported, once per log; 11 bytes apart they are explained by a whole line
// ending in the mark (17 bytes, less the 6 bytes of slack), 6 or fewer by
// one cut's slack.
func TestJudgeLineBudgetBand(t *testing.T) {
	var b lineBudget
	for _, n := range []int{2000, 2000 - 11, 2000 + 11, 2000 - 6} {
		if k, bad := b.cut(n); bad {
			t.Fatalf("cut %d: reported against %d, but no kept size is 7 to 10 bytes off", n, k)
		}
	}
	b.reset()
	if _, bad := b.cut(2000); bad {
		t.Fatal("the first cut is reported")
	}
	if k, bad := b.cut(2000 - 8); !bad || k != 2000 {
		t.Fatalf("cut 1992 after 2000: got %d %v, want 2000 true", k, bad)
	}
	// Reported once: later sizes in the band of a kept one stay quiet.
	for _, n := range []int{2000 - 9, 2000 + 10, 1992 - 7} {
		if k, bad := b.cut(n); bad {
			t.Fatalf("cut %d after the report: reported again against %d", n, k)
		}
	}
}
