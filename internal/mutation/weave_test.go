package mutation

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// Every woven mutant of testdata/weavemod computes what the same mutant
// applied to the source computes (its program's whole output, panics
// included), and with every switch off the schemata computes what the
// source does. The forms the weave cannot write (string +, named bool
// types, an array length, a constant declaration, a type union) are left
// to the overlay path, and those alone.
func TestWeaveKeepsEachMutantsMeaning(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program per mutant")
	}
	root, err := filepath.Abs("testdata/weavemod")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Enumerate(root, "w")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ctx := context.Background()
	s, err := weaveMutants(ctx, root, "example.com/weavemod", tmp, ms)
	if err != nil {
		t.Fatal(err)
	}
	show := func(bin string, k int) string {
		cmd := exec.Command(bin)
		cmd.Env = switchEnv(k, "")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s (switch %d): %v\n%s", bin, k, err, out)
		}
		return string(out)
	}
	build := func(overlay, bin string) error {
		args := []string{"build", "-o", bin}
		if overlay != "" {
			args = append(args, "-overlay", overlay)
		}
		cmd := exec.Command("go", append(args, "./show")...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("%s", out)
		}
		return err
	}
	schem, plain := filepath.Join(tmp, "schem"), filepath.Join(tmp, "plain")
	if err := build(s.overlay, schem); err != nil {
		t.Fatal(err)
	}
	if err := build("", plain); err != nil {
		t.Fatal(err)
	}
	if got, want := show(schem, 0), show(plain, 0); got != want {
		t.Fatalf("the schemata with no switch on differs from the source:\n%s\nwant\n%s", got, want)
	}
	unwoven := map[string]bool{}
	for _, m := range ms {
		if s.unwoven[m.ID()] {
			unwoven[m.ID()] = true
			continue
		}
		overlay, err := WriteOverlay(root, filepath.Join(tmp, "m"), m)
		if err != nil {
			t.Fatal(err)
		}
		if err := build(overlay, plain); err != nil {
			t.Errorf("%s: woven, yet the mutated source does not build", m.ID())
			continue
		}
		if got, want := show(schem, s.ks[m.ID()]), show(plain, 0); got != want {
			t.Errorf("%s: the woven mutant computes\n%s\nthe mutated source\n%s", m.ID(), got, want)
		}
	}
	// What the weave must leave, by the line's form.
	for _, want := range []string{
		"w/w.go:18:12 << -> >>", // a constant declaration
		"w/w.go:22:17 + -> -",   // an array length
		"w/w.go:85:11 + -> -",   // string +
		"w/w.go:86:6 += -> -=",  // string +=
		"w/w.go:92:17 < -> <=",  // a named bool type
		"w/w.go:116:19 | -> &",  // a type union
		"w/w.go:44:13 | -> &",   // l<<1 & l>>1&3 is ((l<<1 & l)>>1)&3
	} {
		if !unwoven[want] {
			t.Errorf("%s: woven, want left to the overlay path", want)
		}
	}
	if len(unwoven) > len(ms)/4 {
		t.Errorf("%d of %d mutants unwoven", len(unwoven), len(ms))
	}
}
