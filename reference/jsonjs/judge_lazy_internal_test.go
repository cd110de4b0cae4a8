package jsonjs

import "testing"

// The fast paths of a Lazy find the scanned text's own values on its
// tape: the root (at offset 0, ending the text) and a one-byte value;
// another text's bytes, or none, are not its own. A miss only falls
// back to walking the bytes, with the same answers, so it is seen here.
func TestJudgeLazyFindsItsOwnValues(t *testing.T) {
	var l Lazy
	text := []byte(`[1,"ab",{"k":[2]}]`)
	if !l.Scan(text) {
		t.Fatal("refused")
	}
	if k := l.find(l.Root()); k != 0 {
		t.Errorf("find(root) = %d, want 0", k)
	}
	for _, item := range l.Items(nil, l.Root()) {
		if k := l.find(item); k <= 0 || !l.inText(item) {
			t.Errorf("find(%s) = %d", item, k)
		}
	}
	for _, r := range []Raw{nil, text[:0], Raw(`[1,"ab",{"k":[2]}]`)} {
		if l.inText(r) || l.find(r) >= 0 {
			t.Errorf("inText(%q) = %v, find = %d; want another text's", r, l.inText(r), l.find(r))
		}
	}
}

// len is 0 for every value but a container (null's node is nil).
func TestJudgeLenOfScalars(t *testing.T) {
	for _, v := range []Value{{}, NullValue(), IntValue(3), StringValue("abc"), BoolValue(true)} {
		if n := v.len(); n != 0 {
			t.Errorf("len(%s) = %d", Marshal(v), n)
		}
	}
}
