package mutation

import (
	"strings"
	"testing"
)

const sample = `package p

func f(a, b int, ok bool) int {
	if a < b && ok {
		a++
	}
	for i := 0; i != b; i += 1 {
		a = a*b - 1
	}
	return a
}
`

func TestFileMutantsEveryOperator(t *testing.T) {
	ms, err := FileMutants("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range ms {
		got[m.Operator+" "+m.Old+" -> "+m.New] = true
		if string([]byte(sample)[m.Start:m.End]) != m.Old {
			t.Errorf("%s: offsets [%d,%d) hold %q", m.ID(), m.Start, m.End, sample[m.Start:m.End])
		}
	}
	for _, want := range []string{
		"relational < -> <=", "relational < -> >=", "relational != -> ==",
		"logical && -> ||", "increment ++ -> --", "arithmetic += -> -=",
		"arithmetic * -> /", "arithmetic - -> +", "constant 0 -> 1", "constant 1 -> 0",
		"negation a < b && ok -> !(a < b && ok)", "negation i != b -> !(i != b)",
	} {
		if !got[want] {
			t.Errorf("missing mutant %q; have %v", want, got)
		}
	}
}

func TestApplyChangesOnlyTheSpan(t *testing.T) {
	ms, err := FileMutants("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Operator == "logical" {
			out := string(m.Apply([]byte(sample)))
			if want := strings.Replace(sample, "&&", "||", 1); out != want {
				t.Fatalf("Apply(%s) =\n%s", m.ID(), out)
			}
			return
		}
	}
	t.Fatal("no logical mutant")
}

func TestSampleIsSeededAndOrdered(t *testing.T) {
	ms, _ := FileMutants("p.go", []byte(sample))
	a, b := Sample(ms, 5, 7), Sample(ms, 5, 7)
	if len(a) != 5 {
		t.Fatalf("len %d", len(a))
	}
	for i := range a {
		if a[i].ID() != b[i].ID() || (i > 0 && a[i].Start < a[i-1].Start) {
			t.Fatalf("sample not deterministic or not ordered: %v", a)
		}
	}
}

func TestScoreLeavesEquivalentsOut(t *testing.T) {
	stale := Result{Mutant: Mutant{File: "reference/x.go", Line: 3, Col: 4, Old: "<", New: "<="}, Status: Killed, Stale: true}
	rs := []Result{{Status: Killed}, {Status: Killed}, stale, {Status: Survived}, {Status: Identical}, {Status: Listed}, {Status: NoCompile}}
	s := Summarize(rs, 0)
	if s.Mutants != 7 || s.Compiled != 6 || s.Killed != 3 || s.Survived != 1 || s.Equivalent != 1 || s.Listed != 1 || s.Stale != 1 || s.Score() != 75 {
		t.Fatalf("summary %+v score %v", s, s.Score())
	}
	var out strings.Builder
	if err := WriteText(&out, s, rs); err != nil {
		t.Fatal(err)
	}
	if want := "stale listing (killed): reference/x.go:3:4 < -> <=: remove it from " + EquivalentsFile; !strings.Contains(out.String(), want) {
		t.Errorf("report does not name the stale listing %q:\n%s", want, out.String())
	}
}
