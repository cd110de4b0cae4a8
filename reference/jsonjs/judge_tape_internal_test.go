package jsonjs

import (
	"bytes"
	"strings"
	"testing"
)

// deep's contract on a refusal: it reports false and changes nothing (the
// value, the position, the tape), and no container of that text is tried
// again, not even a valid one inside the refused one: each try would scan
// to the error anew, a cost quadratic in the depth (a tape that grew to
// the error is reused, so the retries allocate nothing to see).
func TestJudgeDeepRefusesOnceAndChangesNothing(t *testing.T) {
	text := []byte(`[[1] , -]`)
	newParser := func() *parser { return &parser{data: text, text: bytes.Clone(text)} }

	p := newParser() // the inner [1] alone is read onto a tape
	var v Value
	i := 1
	if !p.deep(&v, &i) || i != 5 || string(Marshal(v)) != "[1]" {
		t.Fatalf("deep([1]) = %s, i = %d; want [1], 5", Marshal(v), i)
	}

	p = newParser()
	want := IntValue(7)
	v, i = want, 0
	if p.deep(&v, &i) {
		t.Fatal("deep accepted an invalid container")
	}
	if i != 0 || !Equal(v, want) || (p.tape != nil && len(p.tape.spans) != 0) {
		t.Fatalf("a refusal changed i to %d, v to %s, the tape to %v", i, Marshal(v), p.tape)
	}
	i = 1
	if p.deep(&v, &i) {
		t.Fatal("after a refusal, deep read another container of the text")
	}
	if i != 1 || !Equal(v, want) {
		t.Fatalf("a refusal changed i to %d, v to %s", i, Marshal(v))
	}
}

// A Lazy keeps a tape of lazyKeep spans from one text to the next; only
// a larger one, grown by a huge text, is released.
func TestJudgeLazyKeepsATapeOfLazyKeep(t *testing.T) {
	for _, c := range []struct {
		capacity int
		kept     bool
	}{{lazyKeep, true}, {lazyKeep + 1, false}} {
		var l Lazy
		l.tape = make([]span, 0, c.capacity)
		if !l.Scan([]byte(`[1,{"a":[2,"x"]}]`)) {
			t.Fatal("refused")
		}
		if kept := cap(l.tape) == c.capacity; kept != c.kept {
			t.Errorf("a tape of %d spans: kept %v, want %v", c.capacity, kept, c.kept)
		}
	}
}

// Once a Lazy's tape holds lazyKeep spans, it grows once, to room for
// every value the rest of the text can start (issue 23), and by a quarter
// at least: not doubled (the small tape's growth), and not again. A text
// of lazyKeep+5 values needs a quarter more; one of need values a tape of
// need spans, where need-1 fills whole pages (so a tape one short is not
// rounded up to enough).
func TestJudgeLazyTapeGrowsOnceToTheValuesLeft(t *testing.T) {
	for _, c := range []struct{ need, atMost int }{
		{lazyKeep + 6, lazyKeep + lazyKeep/4 + 1024},
		{98*1024 + 1, 98*1024 + 1 + 1024},
	} {
		// the root array and need-1 items, the tape full at lazyKeep of them
		text := []byte("[" + strings.Repeat("1,", c.need-2) + "1]")
		var l Lazy
		l.tape = make([]span, 0, lazyKeep) // kept from an earlier text
		if !l.Scan(text) || len(l.tape) != c.need {
			t.Fatalf("Scan of %d values: %d spans", c.need, len(l.tape))
		}
		if got := cap(l.tape); got >= c.atMost {
			t.Errorf("a tape of %d values grew to %d spans, want fewer than %d", c.need, got, c.atMost)
		}
	}
}
