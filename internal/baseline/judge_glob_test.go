package baseline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/internal/baseline"
)

// The judge's survivors in baseline.go (issue 22): an entry's file glob
// that matches too much turns a failing log into an accepted one. Each
// row is read off MatchFile's doc comment: `[...]` is a character class,
// `!` or `^` first negates it, a `]` first (after the negation) is a
// member, `\` quotes the next byte.
func TestJudgeGlobCharacterClasses(t *testing.T) {
	for _, c := range []struct {
		glob     string
		match    []string
		mismatch []string
	}{
		{"x[ab]", []string{"xa", "xb"}, []string{"xc", "x", "xab"}},
		{"[ab].txt", []string{"a.txt", "b.txt"}, []string{"c.txt", "ab.txt"}},
		{"[!a]x", []string{"bx", "!x"}, []string{"ax"}},
		{"[^a]x", []string{"bx", "^x"}, []string{"ax"}},
		{"[]a]x", []string{"]x", "ax"}, []string{"bx"}},
		{"[!]a]x", []string{"bx"}, []string{"]x", "ax"}},
		{"[^]a]x", []string{"bx"}, []string{"]x", "ax"}},
		{"[a]b]", []string{"ab]"}, []string{"a", "b", "]"}},
		{`a\*b`, []string{"a*b"}, []string{"axb", "ab"}},
		{`a\[b`, []string{"a[b"}, []string{"ab"}},
	} {
		b, err := baseline.Parse("b.yaml", []byte(fmt.Sprintf("- requirement: LOG-CHECK-SEARCH-5\n  file: '%s'\n  reason: r\n", c.glob)))
		if err != nil {
			t.Errorf("%s: %v", c.glob, err)
			continue
		}
		e := b.Entries[0]
		for _, name := range c.match {
			if !e.MatchFile(name) {
				t.Errorf("%s does not match %q", c.glob, name)
			}
		}
		for _, name := range c.mismatch {
			if e.MatchFile(name) {
				t.Errorf("%s matches %q", c.glob, name)
			}
		}
	}
	for _, glob := range []string{"[", "x[", "[!", "[ab", "[]", "[!]", "[^]", `a\`} {
		if _, err := baseline.Parse("b.yaml", []byte(fmt.Sprintf("- requirement: LOG-CHECK-SEARCH-5\n  file: '%s'\n  reason: r\n", glob))); err == nil {
			t.Errorf("%s: accepted, want an error", glob)
		}
	}
}

// A scalar is not a baseline (only an empty document or null is empty).
func TestJudgeBaselineScalarIsRefused(t *testing.T) {
	for _, doc := range []string{"hello\n", "1\n", "true\n"} {
		if _, err := baseline.Parse("b.yaml", []byte(doc)); err == nil {
			t.Errorf("%q: accepted as a baseline", doc)
		}
	}
	for _, doc := range []string{"", "null\n", "~\n"} {
		if b, err := baseline.Parse("b.yaml", []byte(doc)); err != nil || len(b.Entries) != 0 {
			t.Errorf("%q: %v, %d entries; want an empty baseline", doc, err, len(b.Entries))
		}
	}
}

// Parse lists MaxErrors problems, then one line counting the rest: none
// when there are no more.
func TestJudgeBaselineErrorsCapped(t *testing.T) {
	for _, n := range []int{baseline.MaxErrors - 1, baseline.MaxErrors, baseline.MaxErrors + 1, baseline.MaxErrors + 5} {
		doc := strings.Repeat("- 1\n", n)
		_, err := baseline.Parse("b.yaml", []byte(doc))
		if err == nil {
			t.Fatalf("%d bad entries accepted", n)
		}
		lines := strings.Split(err.Error(), "\n")
		want := min(n, baseline.MaxErrors)
		if more := n - baseline.MaxErrors; more > 0 {
			want++
			if last := lines[len(lines)-1]; !strings.Contains(last, fmt.Sprintf("and %d more problems", more)) {
				t.Errorf("%d problems: last line %q", n, last)
			}
		}
		if len(lines) != want {
			t.Errorf("%d problems: %d lines, want %d:\n%v", n, len(lines), want, err)
		}
	}
}

// An outcome past the named ones prints as a number; each match of an
// entry counts once.
func TestJudgeOutcomeNamesAndHits(t *testing.T) {
	if got := baseline.Outcome(4).String(); got != "Outcome(4)" {
		t.Errorf("Outcome(4) = %q", got)
	}
	if got := baseline.XPass.String(); got != "xpass" {
		t.Errorf("XPass = %q", got)
	}
	b, err := baseline.Parse("b.yaml", []byte("- id: c1\n  reason: r\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := b.Cases()
	for i := 1; i <= 2; i++ {
		if o, e := m.Case("c1", nil, true); o != baseline.XFail || e == nil || m.Hits(e) != i {
			t.Fatalf("match %d: %v, hits %d", i, o, m.Hits(e))
		}
	}
	if len(m.Stale()) != 0 {
		t.Errorf("a matched entry is stale")
	}
}

// Each problem of an entry is named once, with the entry's number: an
// entry with a bad key is not checked further (a missing reason would be
// a second problem).
func TestJudgeBaselineEntryProblems(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"- reason: r\n  id: a\n- {[a]: b}\n", "b.yaml:3: entry 2: keys are plain words"},
		{"- reason: r\n  id: a\n- {nope: b}\n", `b.yaml:3: entry 2: unknown key "nope" (known: requirement, file, id, reason, issue)`},
		{"- reason: r\n  id: a\n- {id: b, id: c}\n", `b.yaml:3: entry 2: duplicate key "id"`},
		{"- reason: r\n  id: a\n- {id: [b]}\n", "b.yaml:3: entry 2: id must be a string, not a list"},
		{"- reason: r\n  id: a\n- {requirement: X, file: f, id: b, reason: r}\n", "b.yaml:3: entry 2: file applies to log findings, id to runner cases; use one or the other"},
		{"- reason: r\n  id: a\n- {requirement: X, file: '[ab', reason: r}\n", `b.yaml:3: entry 2: unterminated [ in glob "[ab"`},
	} {
		_, err := baseline.Parse("b.yaml", []byte(c.doc))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %s", c.doc, err, c.want)
		}
	}
}
