package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
)

// SEARCH-CAP-5 measures a meta up to 2*floor(c)+1 bytes past a cap c of
// 32 KiB or more (properties.go metaOverCap, 189-193; below that, 64 KiB):
// with c = 40000, a meta of exactly 80,001 bytes is named by its size, one
// of 80,002 bytes as over 80,001.
func TestJudgeCap5MeasuresTwiceTheCapAndAByte(t *testing.T) {
	const c = 40000
	meta := func(size int) string {
		empty := `{"shape":"paths","paths":["","b"],"truncated":false,"total":2}`
		return strings.Replace(empty, `""`, `"`+strings.Repeat("p", size-len(empty))+`"`, 1)
	}
	input := fmt.Sprintf(`{"args":{"pattern":"*"},"config":{"maxMetaBytes":%d},"value":{"root":".","paths":["a","b"]}}`, c)
	for size, want := range map[int]string{
		2*c + 1: fmt.Sprintf("the meta of 2 paths is %d bytes, over maxMetaBytes %d", 2*c+1, c),
		2*c + 2: fmt.Sprintf("the meta of 2 paths is over %d bytes, over maxMetaBytes %d", 2*c+1, c),
		2 * c:   fmt.Sprintf("the meta of 2 paths is %d bytes, over maxMetaBytes %d", 2*c, c),
	} {
		m := meta(size)
		if len(m) != size {
			t.Fatalf("a meta of %d bytes, want %d", len(m), size)
		}
		var got []string
		for _, d := range runner.CheckProperties("glob.result", mustParse(t, input), mustParse(t, `{"isError":false,"content":"x","meta":`+m+`}`)) {
			if d.Requirements[0] == "SEARCH-CAP-5" {
				got = append(got, d.Message)
			}
		}
		if !slices.Equal(got, []string{want}) {
			t.Errorf("a meta of %d bytes, cap %d: %q, want %q", size, c, got, want)
		}
	}
}
