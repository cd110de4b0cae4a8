package runner

import (
	"testing"

	"github.com/dsh-conform/conform/internal/diagnosis"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// golden (diagnose.go) reports whether a model's answer is the case's
// golden one: the same thrown message where the golden answer is an
// error, a JSON-equal output where it is an output, never a model that
// fails in words of its own. It decides which models moved, the only
// ones the joint pass pairs.
func TestJudgeDiagnoseGoldenAnswer(t *testing.T) {
	out, err := jsonjs.Parse([]byte(`{"a":1,"b":[true]}`))
	if err != nil {
		t.Fatal(err)
	}
	msg, other := "refused", "other"
	outputCase := Case{Op: "grep.result", Want: Want{Output: &out}}
	errorCase := Case{Op: "grep.result", Want: Want{Error: &msg}}
	for _, tc := range []struct {
		name string
		c    Case
		a    diagnosis.Answer
		want bool
	}{
		{"the same output, members reordered", outputCase, diagnosis.Answer{Output: []byte(`{"b":[true],"a":1.0}`)}, true},
		{"another output", outputCase, diagnosis.Answer{Output: []byte(`{"a":2,"b":[true]}`)}, false},
		{"an output that is no JSON", outputCase, diagnosis.Answer{Output: []byte(`{"a":`)}, false},
		{"a thrown error where the golden answer is an output", outputCase, diagnosis.Answer{Thrown: &msg}, false},
		{"a failure in its own words", outputCase, diagnosis.Answer{Fails: true, Output: []byte(`{"a":1,"b":[true]}`)}, false},
		{"the same thrown message", errorCase, diagnosis.Answer{Thrown: &msg}, true},
		{"another thrown message", errorCase, diagnosis.Answer{Thrown: &other}, false},
		{"an output where the golden answer is an error", errorCase, diagnosis.Answer{Output: []byte(`{"a":1,"b":[true]}`)}, false},
		{"a failure in its own words where the golden answer is an error", errorCase, diagnosis.Answer{Fails: true, Thrown: &msg}, false},
		{"an output where the case has no golden answer", Case{Op: "grep.result"}, diagnosis.Answer{Output: []byte(`{"a":1,"b":[true]}`)}, false},
	} {
		if got := golden(tc.c, tc.a); got != tc.want {
			t.Errorf("%s: golden = %v, want %v", tc.name, got, tc.want)
		}
	}
}
