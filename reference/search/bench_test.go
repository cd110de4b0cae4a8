package search_test

import (
	"fmt"
	"testing"

	"github.com/dsh-conform/conform/reference/search"
)

// BenchmarkCapMeta100kGroups caps 100,000 one-line file groups to 64 KiB.
// Target (issue: reference implementation): under 50 ms per op. Each group is
// measured once, so the cap is linear where upstream re-serializes after
// every drop.
func BenchmarkCapMeta100kGroups(b *testing.B) {
	files := make([]search.FileMatches, 100_000)
	for i := range files {
		files[i] = search.FileMatches{
			Path:    fmt.Sprintf("src/pkg%d/file%d.ts", i%97, i),
			Matches: []search.Match{{Path: "", LineNumber: float64(i + 1), Line: "const value = compute(input) // matched"}},
		}
	}
	m := search.Meta{Shape: search.ShapeMatches, Files: files, Total: len(files)}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c := search.CapMeta(m, 65536)
		if len(c.Files) == 0 || !c.Truncated {
			b.Fatal("cap kept nothing")
		}
	}
}

// BenchmarkGrepResult250 runs a whole grep.result over 1,000 matches with the
// default caps.
func BenchmarkGrepResult1000(b *testing.B) {
	ms := make([]search.Match, 1000)
	for i := range ms {
		ms[i] = search.Match{Path: fmt.Sprintf("f%d.ts", i%40), LineNumber: float64(i + 1), Line: "a matched line of ordinary length with é and 😀"}
	}
	in := search.GrepInput{Value: search.GrepValue{Matches: ms}}
	in.Args = parseArgs(`{"pattern":"x"}`)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := search.GrepResult(in); err != nil {
			b.Fatal(err)
		}
	}
}
