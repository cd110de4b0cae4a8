package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-conform/conform/internal/mutation"
)

// --resume continues a report of this tree and kind, judging only what it
// lacks, and refuses any other with the usage status 2.
func TestResumeFlag(t *testing.T) {
	ms := []mutation.Mutant{{File: "a.go", Line: 1, Col: 1, Old: "<", New: "<="}, {File: "a.go", Line: 2, Col: 1, Old: "<", New: "<="}}
	tree, err := mutation.TreeKey(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	report := func(name string, info mutation.RunInfo) string {
		rs := []mutation.Result{{Mutant: ms[0], Status: mutation.Killed}}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, mutation.JSON(mutation.Summarize(rs, 0), info, rs), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Cleanup(func() { *resumeFrom = "" })
	for _, c := range []struct {
		name string
		info mutation.RunInfo
		code int
	}{
		{"same.json", mutation.RunInfo{Kind: "golden", Tree: tree}, -1},
		{"judge.json", mutation.RunInfo{Kind: "judge", Tree: tree}, 2},
		{"other-tree.json", mutation.RunInfo{Kind: "golden", Tree: "0123"}, 2},
	} {
		*resumeFrom = report(c.name, c.info)
		rec, todo, code := record(ms, "golden", filepath.Join(dir, "out.json"), 1, 0)
		if code != c.code {
			t.Errorf("%s: status %d, want %d", c.name, code, c.code)
			continue
		}
		if code < 0 && (len(todo) != 1 || todo[0] != ms[1] || len(rec.Results()) != 1) {
			t.Errorf("%s: todo %v and %d results kept, want only a.go:2 to judge", c.name, todo, len(rec.Results()))
		}
	}
}
