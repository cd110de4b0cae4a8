package runner_test

import (
	"testing"

	"github.com/dsh-conform/conform/internal/runner"
)

// ParseShard takes exactly K/N with 0 <= K < N: a shard past the last or
// before the first would run no case and look green (shard.go:27).
func TestJudgeParseShardBounds(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"0/1", true}, {"3/4", true}, {" 1 / 2 ", true},
		{"4/4", false}, {"5/4", false}, {"-1/4", false}, {"0/0", false}, {"1/-2", false},
		{"1", false}, {"a/2", false}, {"1/b", false},
	} {
		s, err := runner.ParseShard("--shard", c.in)
		if (err == nil) != c.ok {
			t.Errorf("ParseShard(%q) = %+v, %v; want ok %v", c.in, s, err, c.ok)
		}
	}
}
