package runner_test

import (
	"context"
	"slices"
	"testing"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
)

// langSession is a session whose handshake names a language.
type langSession struct {
	session
	lang string
}

func (s *langSession) Hello() adapter.Hello {
	h := s.session.Hello()
	h.Implementation.Language = s.lang
	return h
}

// A requirement scoped to another language than the harness's is never
// blamed on it (scope.go, issue 20): SEARCH-JSON-2 is Go's. A glob meta
// whose paths are the golden ones cut short, the text agreeing, blames the
// cap's requirements, of which the case cites SEARCH-JSON-2 alone
// (blame.go metaPart); a Go harness is blamed for it, any other for the
// case's citations that bind it instead (SEARCH-GLOB-1).
func TestJudgeScopeDropsOtherLanguages(t *testing.T) {
	golden := mustParse(t, `{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2}}`)
	c := runner.Case{ID: "glob.result/judge-scope", Op: "glob.result", Input: []byte(`{}`), InputValue: mustParse(t, `{}`),
		Requirements: []string{"SEARCH-JSON-2", "SEARCH-GLOB-1"}, Want: runner.Want{Output: &golden}}
	for lang, want := range map[string][]string{
		"go":     {"SEARCH-JSON-2"},
		"Golang": {"SEARCH-JSON-2"},
		"":       {"SEARCH-JSON-2"}, // no language named: everything binds
		"python": {"SEARCH-GLOB-1"},
	} {
		s := &langSession{session: session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Output: []byte(`{"content":"a\nb","meta":{"shape":"paths","paths":["a"],"truncated":false,"total":2}}`)}, nil
		}}, lang: lang}
		r := runner.RunCase(context.Background(), s, c, 0)
		var got []string
		found := false
		for _, d := range r.Diffs {
			if d.Path == "$.meta.paths" && d.Comparator != runner.CmpProperty {
				found, got = true, d.Requirements
			}
		}
		if !found || !slices.Equal(got, want) || !slices.Contains(r.Broken, want[0]) {
			t.Errorf("a %q harness: the paths diff blames %v (found %v), broken %v; want %v", lang, got, found, r.Broken, want)
		}
	}
}

// The shards of a split hold every case exactly once: case k is in shard
// k mod N; a split of one, or none (N = 0), holds every case (shard.go
// Has).
func TestJudgeShardsPartitionTheCases(t *testing.T) {
	for n := 0; n <= 5; n++ {
		for k := range 30 {
			var in []int
			for sk := range max(n, 1) {
				if (runner.Shard{K: sk, N: n}).Has(k) {
					in = append(in, sk)
				}
			}
			want := []int{0}
			if n > 1 {
				want = []int{k % n}
			}
			if !slices.Equal(in, want) {
				t.Errorf("case %d of a split into %d: in shards %v, want %v", k, n, in, want)
			}
		}
	}
}

// A diff that blames nothing keeps blaming nothing on any harness: a glob
// view that only follows its meta's wrong total (blame.go mirroredView)
// is not given the case's citations by the language scope, which only
// replaces requirements it dropped (scope.go:14).
func TestJudgeScopeLeavesAnEmptyBlame(t *testing.T) {
	golden := mustParse(t, `{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":2},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":2}}`)
	c := runner.Case{ID: "glob.result/judge-scope-empty", Op: "glob.result", Input: []byte(`{}`), InputValue: mustParse(t, `{}`),
		Requirements: []string{"SEARCH-CAP-4", "SEARCH-NARROW-7"}, Want: runner.Want{Output: &golden}}
	for _, lang := range []string{"go", "python"} {
		s := &langSession{session: session{h: adapter.Reference(), reply: func(string, string) (adapter.Reply, error) {
			return adapter.Reply{Output: []byte(`{"content":"a\nb","meta":{"shape":"paths","paths":["a","b"],"truncated":false,"total":3},"view":{"card":"search","shape":"paths","paths":["a","b"],"truncated":false,"total":3}}`)}, nil
		}}, lang: lang}
		r := runner.RunCase(context.Background(), s, c, 0)
		found := false
		for _, d := range r.Diffs {
			if d.Path == "$.view.total" && d.Comparator != runner.CmpProperty {
				found = true
				if len(d.Requirements) != 0 {
					t.Errorf("a %s harness: the view diff that follows the meta blames %v, want nothing", lang, d.Requirements)
				}
			}
		}
		if !found {
			t.Errorf("a %s harness: no view diff in %+v", lang, r.Diffs)
		}
	}
}
