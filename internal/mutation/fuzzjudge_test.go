package mutation

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The fuzz judge kills a mutant the fuzzer's widened draws reach (a null
// optional member read as given: issue 22's null ref), and Run refuses to
// start when it kills the unmutated adapter, so the judge is tested both
// ways. 700 cases (100 an op) keep it cheap; -short skips the builds.
func TestFuzzJudgeKillsAKnownMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds conform and two adapters")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	all, err := Enumerate(root, "reference")
	if err != nil {
		t.Fatal(err)
	}
	const killedID = "reference/jsonjs/decode.go:190:48 && -> ||"
	var ms []Mutant
	for _, m := range all {
		if m.ID() == killedID {
			ms = append(ms, m)
		}
	}
	if len(ms) != 1 {
		t.Fatalf("the known mutant %q no longer exists: pick another", killedID)
	}
	ctx := context.Background()
	conform := filepath.Join(t.TempDir(), "conform")
	if err := BuildConform(ctx, root, conform); err != nil {
		t.Fatal(err)
	}
	judge := FuzzJudge{Conform: conform, Cases: 700, Seed: 1, Timeout: 2 * time.Minute}
	rs, err := Run(ctx, Config{Root: root, Conform: conform, Workers: 1, Timeout: 2 * time.Minute, Judge: judge.Judge}, ms)
	if err != nil {
		t.Fatalf("the unmutated adapter: %v", err)
	}
	if r := rs[0]; r.Status != Killed || !strings.Contains(r.Detail, "exit 1: case ") {
		t.Errorf("%s: want killed by a fuzz case, got %s (%s)", killedID, r.Status, r.Detail)
	}
}

func TestStatusInKeepsOneStatus(t *testing.T) {
	ms := []Mutant{{File: "a.go", Line: 1, Col: 1, Old: "<", New: "<="}, {File: "a.go", Line: 2, Col: 1, Old: "<", New: "<="}, {File: "a.go", Line: 3, Col: 1, Old: "<", New: "<="}}
	rs := []Result{{Mutant: ms[0], Status: Killed}, {Mutant: ms[1], Status: Survived}, {Mutant: ms[2], Status: Killed}}
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(p, JSON(Summarize(rs, 0), RunInfo{Seed: 1}, rs), 0o644); err != nil {
		t.Fatal(err)
	}
	killed, err := StatusIn(ms, p, Killed)
	if err != nil {
		t.Fatal(err)
	}
	if len(killed) != 2 || killed[0].Line != 1 || killed[1].Line != 3 {
		t.Errorf("killed: %v", killed)
	}
	survived, err := SurvivorsOf(ms, p)
	if err != nil || len(survived) != 1 || survived[0].Line != 2 {
		t.Errorf("survived: %v %v", survived, err)
	}
}
