package runner_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// identifierModel is an ASCII JavaScript identifier, the form a member step
// is written ".name" in: a letter, "_" or "$", then letters, digits, "_"
// or "$".
func identifierModel(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$'
		digit := '0' <= c && c <= '9'
		if !letter && !(digit && i > 0) {
			return false
		}
	}
	return true
}

// A diff's path writes a member step as jsonjs writes paths (compare.go
// memberPath): ".key" for an identifier, else `["key"]` with the key as a
// JSON string, for a member that differs, one the answer lacks and one the
// golden output lacks. The keys are drawn from the bytes at both ends of
// each identifier range and the ones just outside it.
func TestJudgeMemberPathSteps(t *testing.T) {
	bytes := []string{"0", "1", "9", "/", ":", "a", "z", "`", "{", "A", "Z", "@", "[", "_", "$", "-", " ", "é", `"`}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom(bytes), 1, 4).Draw(t, "key")
		key := ""
		for _, p := range parts {
			key += p
		}
		want := "$[" + string(jsonjs.Marshal(jsonjs.StringValue(key))) + "]"
		if identifierModel(key) {
			want = "$." + key
		}
		one := jsonjs.ObjectValue(jsonjs.Member{Key: key, Value: jsonjs.IntValue(1)})
		two := jsonjs.ObjectValue(jsonjs.Member{Key: key, Value: jsonjs.IntValue(2)})
		none := jsonjs.ObjectValue()
		for _, pair := range [][2]jsonjs.Value{{one, two}, {one, none}, {none, one}} {
			golden, answer := pair[0], pair[1]
			c := runner.Case{ID: "judge", Op: "no.such.op", InputValue: jsonjs.ObjectValue(), Want: runner.Want{Output: &golden}}
			diffs := runner.Compare(c, &answer, nil)
			if len(diffs) != 1 || diffs[0].Path != want {
				t.Fatalf("key %q, golden %s, answer %s: %+v, want one diff at %s", key, jsonjs.Marshal(golden), jsonjs.Marshal(answer), diffs, want)
			}
		}
	})
}
