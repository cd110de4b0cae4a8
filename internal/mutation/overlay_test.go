package mutation

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Every mutant holds its Old at its offsets in the file it was listed from,
// so WriteOverlay never refuses a mutant of an unchanged tree.
func TestMutantsHoldTheirOldBytes(t *testing.T) {
	for _, dir := range []string{"reference", "internal/runner", "internal/logcheck"} {
		ms, err := Enumerate("../..", dir)
		if err != nil {
			t.Fatal(err)
		}
		src := map[string][]byte{}
		for _, m := range ms {
			if src[m.File] == nil {
				if src[m.File], err = os.ReadFile(filepath.Join("../..", m.File)); err != nil {
					t.Fatal(err)
				}
			}
			if got := string(src[m.File][m.Start:m.End]); got != m.Old {
				t.Fatalf("%s: the file holds %q at its offsets", m.ID(), got)
			}
		}
	}
}

// A file edited after its mutants were listed is refused, not cut at the
// old offsets (which read as "not compiled" and left the denominator), and
// such a mutant counts as survived.
func TestWriteOverlayRefusesAChangedFile(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a.go")
	if err := os.WriteFile(file, []byte("package a\n\nfunc f(x int) bool { return x < 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := Enumerate(root, ".")
	if err != nil || len(ms) == 0 {
		t.Fatalf("%d mutants, %v", len(ms), err)
	}
	if _, err := WriteOverlay(root, filepath.Join(root, "ov0"), ms[0]); err != nil {
		t.Fatalf("the unchanged file: %v", err)
	}
	if err := os.WriteFile(file, []byte("package a\n\n// f.\nfunc f(x int) bool { return x < 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = WriteOverlay(root, filepath.Join(root, "ov1"), ms[0])
	if !errors.Is(err, ErrTreeChanged) {
		t.Fatalf("WriteOverlay after an edit: %v, want ErrTreeChanged", err)
	}
	if r := unwritten(Result{Mutant: ms[0]}, err); r.Status != Survived {
		t.Fatalf("a mutant of a changed file is %s, want survived", r.Status)
	}
}
