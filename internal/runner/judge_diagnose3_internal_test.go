package runner

import (
	"testing"

	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// reproduces (diagnose.go) compares the whole answer, not only the fields
// that differ: a model explains the harness's answer when its answer has
// the same members with equal values, except the members its variant
// changes whatever the harness does (Perturbs) where the harness agrees
// with the golden answer there. A model whose answer lacks a member the
// harness has, even one equal to the golden one, predicts an answer the
// harness did not give.
func TestJudgeDiagnoseReproducesTheWholeAnswer(t *testing.T) {
	golden, err := jsonjs.Parse([]byte(`{"items":["a"],"seen":1,"omitted":null}`))
	if err != nil {
		t.Fatal(err)
	}
	harness, err := jsonjs.Parse([]byte(`{"items":["b"],"seen":1,"omitted":null}`))
	if err != nil {
		t.Fatal(err)
	}
	c := Case{Op: "retain.items", Want: Want{Output: &golden}}
	diffs := []Diff{{Field: "items", Comparator: CmpJSON}}
	for _, tc := range []struct {
		name     string
		model    string
		perturbs []string
		want     bool
	}{
		{"the harness's answer", `{"items":["b"],"seen":1,"omitted":null}`, nil, true},
		{"without a member the harness has, as golden", `{"items":["b"],"seen":1}`, nil, false},
		{"without a member its variant changes", `{"items":["b"],"seen":1}`, []string{"omitted"}, true},
		{"another value of a member its variant changes", `{"items":["b"],"seen":1,"omitted":{"kind":"exact","count":1}}`, []string{"omitted"}, true},
		{"another value of a member", `{"items":["b"],"seen":2,"omitted":null}`, nil, false},
		{"another value of the member that differs", `{"items":["c"],"seen":1,"omitted":null}`, nil, false},
		{"a member the harness lacks", `{"items":["b"],"seen":1,"omitted":null,"kept":1}`, nil, false},
		{"the differing member is no variant's to change", `{"items":["a"],"seen":1,"omitted":null}`, []string{"items"}, false},
	} {
		a := diagnosis.Answer{Output: []byte(tc.model), Perturbs: tc.perturbs}
		if got := reproduces(c, a, &harness, nil, diffs); got != tc.want {
			t.Errorf("%s (%s, perturbs %q): reproduces = %v, want %v", tc.name, tc.model, tc.perturbs, got, tc.want)
		}
	}
}
