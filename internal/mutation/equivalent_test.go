package mutation

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Every listed equivalent mutant must still exist; a seeded sample of them
// (all of them with CONFORM_MUTATION_LISTED=all) must still survive the
// golden run, and one mutant the goldens are known to kill must be killed,
// so the kill rule itself is tested. The full run (make mutation) checks
// every listed mutant and names the stale ones. Building conform and one
// adapter per mutant takes a while: -short skips it.
func TestListedEquivalentsStillSurvive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds conform and one adapter per listed mutant")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	listed, err := LoadEquivalents(filepath.Join(root, EquivalentsFile))
	if err != nil {
		t.Fatal(err)
	}
	all, err := ReferenceMutants(root)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Mutant{}
	for _, m := range all {
		byID[m.ID()] = m
	}
	var ms []Mutant
	for _, e := range listed {
		m, ok := byID[e.Mutant]
		if !ok {
			t.Errorf("%s: listed mutant %q no longer exists: update or remove the entry", EquivalentsFile, e.Mutant)
			continue
		}
		ms = append(ms, m)
	}
	if os.Getenv("CONFORM_MUTATION_LISTED") != "all" {
		ms = Sample(ms, listedSample, 1)
	}
	// Killed by the goldens: JSON.stringify puts numbers of 21 integer digits
	// in plain form (run-code-number-1e20 and others).
	const killedID = "reference/jsonjs/number.go:60:19 <= -> <"
	known, ok := byID[killedID]
	if !ok {
		t.Fatalf("the known-killed mutant %q no longer exists: pick another", killedID)
	}
	ms = append(ms, known)

	ctx := context.Background()
	conform := filepath.Join(t.TempDir(), "conform")
	if err := BuildConform(ctx, root, conform); err != nil {
		t.Fatal(err)
	}
	rs, err := Run(ctx, Config{Root: root, Conform: conform, Workers: 2, Timeout: 2 * time.Minute, Listed: listed}, ms)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		switch {
		case r.Mutant.ID() == killedID:
			if r.Status != Killed {
				t.Errorf("%s: want killed, got %s (%s): the kill rule is broken", killedID, r.Status, r.Detail)
			}
		case r.Status == Killed:
			t.Errorf("%s: listed mutant %q is now killed (%s): remove it from the list", EquivalentsFile, r.Mutant.ID(), r.Detail)
		case r.Status == Identical:
			t.Errorf("%s: listed mutant %q builds an identical binary: it needs no entry", EquivalentsFile, r.Mutant.ID())
		case r.Status != Listed:
			t.Errorf("%s: listed mutant %q: %s (%s)", EquivalentsFile, r.Mutant.ID(), r.Status, r.Detail)
		}
	}
}

// listedSample is how many listed mutants go test builds and runs.
const listedSample = 24

func TestLoadEquivalentsFlattensGroups(t *testing.T) {
	p := filepath.Join(t.TempDir(), "l.yaml")
	text := "- {mutant: a, reason: r}\n- {mutants: [b, c], reason: s}\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := LoadEquivalents(p)
	if err != nil {
		t.Fatal(err)
	}
	want := Equivalents{{"a", "r"}, {"b", "s"}, {"c", "s"}}
	if len(l) != len(want) {
		t.Fatalf("got %v, want %v", l, want)
	}
	for i := range want {
		if l[i] != want[i] {
			t.Errorf("entry %d: got %v, want %v", i, l[i], want[i])
		}
	}
}

func TestLoadEquivalentsRejectsBadEntries(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ text, where string }{
		"no-reason":        {"- mutant: \"a.go:1:1 < -> <=\"\n", ":1:"},
		"twice":            {"- {mutant: x, reason: r}\n- {mutant: x, reason: s}\n", ":2:"},
		"not-list":         {"mutant: x\n", ":1:"},
		"no-ids":           {"- {mutants: [], reason: r}\n", ":1:"},
		"twice-in-a-group": {"- {mutant: x, reason: r}\n- {mutants: [y, x], reason: s}\n", ":2:"},
	} {
		p := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadEquivalents(p)
		switch {
		case err == nil:
			t.Errorf("%s: accepted", name)
		case !strings.Contains(err.Error(), p+c.where):
			t.Errorf("%s: %v does not name %s%s", name, err, p, c.where)
		}
	}
}
