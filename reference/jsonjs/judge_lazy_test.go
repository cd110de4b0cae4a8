package jsonjs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Root is the value without the space around it; after a refused text
// of spaces only (or none) it is empty, and nothing panics.
func TestJudgeLazyRootTrimsSpace(t *testing.T) {
	var l jsonjs.Lazy
	if !l.Scan([]byte(" [1] \n\t")) {
		t.Fatal("refused")
	}
	if got := string(l.Root()); got != "[1]" {
		t.Errorf("Root = %q, want [1]", got)
	}
	for _, text := range []string{"", " ", " \n "} {
		if l.Scan([]byte(text)) {
			t.Fatalf("Scan(%q) accepted", text)
		}
		if got := l.Root(); len(got) != 0 {
			t.Errorf("Root after Scan(%q) = %q", text, got)
		}
	}
}

// The accessors of the scanned text answer for its values, for values
// of other texts, and for the empty Raw, as Raw's own do.
func TestJudgeLazyAccessorsOfOtherKinds(t *testing.T) {
	var l jsonjs.Lazy
	text := []byte(`{"n":1,"s":"x","t":true,"z":null}`)
	if !l.Scan(text) {
		t.Fatal("refused")
	}
	top := l.Top()
	if s, ok := l.Str(top[0].Value); ok || s != "" {
		t.Errorf("Str(1) = %q, %v", s, ok)
	}
	if s, ok := l.Str(top[1].Value); !ok || s != "x" {
		t.Errorf(`Str("x") = %q, %v`, s, ok)
	}
	if s, ok := l.Str(nil); ok || s != "" {
		t.Errorf("Str(empty) = %q, %v", s, ok)
	}
	if v := l.Value(nil); !v.IsNull() {
		t.Errorf("Value(empty) = %s", jsonjs.Marshal(v))
	}
	if f, ok := top[2].Value.Float(); ok || f != 0 {
		t.Errorf("Float(true) = %v, %v", f, ok)
	}
	if b, ok := top[3].Value.Bool(); ok || b {
		t.Errorf("Bool(null) = %v, %v", b, ok)
	}
	// Not UTF-8, and not a string ParseReplacing reads (no closing quote).
	if s, ok := jsonjs.Raw("\"\xffx").StrReplacing(); ok || s != "" {
		t.Errorf("StrReplacing of a cut string = %q, %v", s, ok)
	}
	// A value of another text is read from its own bytes.
	other := jsonjs.Raw(`[1,{"a":"b"}]`)
	if got := string(jsonjs.Marshal(l.Value(other))); got != string(other) {
		t.Errorf("Value(%s) = %s", other, got)
	}
}

// StrReplacing of a valid string costs what Str does: no detour through
// ParseReplacing.
func TestJudgeStrReplacingOfValidStringIsStr(t *testing.T) {
	r := jsonjs.Raw(`"plain text"`)
	str := testing.AllocsPerRun(50, func() { r.Str() })
	replacing := testing.AllocsPerRun(50, func() { r.StrReplacing() })
	if replacing != str {
		t.Errorf("StrReplacing allocates %v times, Str %v", replacing, str)
	}
}

// Members and Items of a Raw that is not a value of the scanned text walk
// its bytes: a truncated container gives what it holds without panicking,
// and the walk stops at the container's end even when bytes follow it.
func TestJudgeLazyWalksOtherBytes(t *testing.T) {
	var l jsonjs.Lazy
	if !l.Scan([]byte(`{}`)) {
		t.Fatal("refused")
	}
	members := func(r string) string {
		var out []string
		for _, m := range l.Members(nil, jsonjs.Raw(r)) {
			out = append(out, string(m.Key)+"="+string(m.Value))
		}
		return strings.Join(out, " ")
	}
	items := func(r string) string {
		var out []string
		for _, it := range l.Items(nil, jsonjs.Raw(r)) {
			out = append(out, string(it))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct{ r, want string }{
		{`{`, ""}, {`{ `, ""}, {`{"a":1`, "a=1"}, {`{"a":1 `, "a=1"},
		{`{"a":1}"b":2}`, "a=1"}, {`{"a":1,"b":2}`, "a=1 b=2"},
	} {
		if got := members(c.r); got != c.want {
			t.Errorf("Members(%s) = %q, want %q", c.r, got, c.want)
		}
	}
	for _, c := range []struct{ r, want string }{
		{`[`, ""}, {`[ `, ""}, {`[1`, "1"}, {`[1 `, "1"},
		{`[1]2]`, "1"}, {`[1, 2]`, "1 2"},
	} {
		if got := items(c.r); got != c.want {
			t.Errorf("Items(%s) = %q, want %q", c.r, got, c.want)
		}
	}
}

// A key read from other bytes is a view with no room after it: appending
// to it copies, never writes over the closing quote of the text.
func TestJudgeLazyKeyOfOtherBytesHasNoSpareCapacity(t *testing.T) {
	var l jsonjs.Lazy
	if !l.Scan([]byte(`[]`)) {
		t.Fatal("refused")
	}
	r := jsonjs.Raw(`{"ab":1}`)
	ms := l.Members(nil, r)
	if len(ms) != 1 || string(ms[0].Key) != "ab" {
		t.Fatalf("Members = %v", ms)
	}
	if k := ms[0].Key; cap(k) != len(k) {
		t.Errorf("key %q has capacity %d", k, cap(k))
	}
	_ = append(ms[0].Key, 'X')
	if string(r) != `{"ab":1}` {
		t.Errorf("appending to a key changed the text: %s", r)
	}
}

// Tree carves its containers from blocks the Lazy keeps, so it allocates
// less than Value once the blocks exist.
func TestJudgeLazyTreeReusesItsBlocks(t *testing.T) {
	var l jsonjs.Lazy
	text := []byte(`[` + strings.Repeat(`{"a":[1,2,3],"b":{"c":[4]}},`, 20) + `0]`)
	if !l.Scan(text) {
		t.Fatal("refused")
	}
	r := l.Root()
	want := string(jsonjs.Marshal(l.Value(r)))
	if got := string(jsonjs.Marshal(l.Tree(r))); got != want {
		t.Fatalf("Tree = %s, want %s", got, want)
	}
	tree := testing.AllocsPerRun(20, func() { l.Tree(r) })
	value := testing.AllocsPerRun(20, func() { l.Value(r) })
	if tree >= value {
		t.Errorf("Tree allocates %v times, Value %v", tree, value)
	}
}

// treeBlockText is an array of one object of y members, x objects of one
// member and z numbers: x+2 containers, x+y members and x+1+z items.
func treeBlockText(x, y, z int) []byte {
	parts := make([]string, 0, 1+x+z)
	keys := make([]string, y)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"a%d":0`, i)
	}
	parts = append(parts, "{"+strings.Join(keys, ",")+"}")
	for range x {
		parts = append(parts, `{"k":0}`)
	}
	for range z {
		parts = append(parts, "0")
	}
	return []byte("[" + strings.Join(parts, ",") + "]")
}

// Tree's blocks hold treeBlock (1024) containers, members and items each,
// all of them free: a tree of exactly 1024 of each allocates as much as a
// smaller one, and less than one with a container, a member or an item
// more.
func TestJudgeLazyTreeBlocksAreWhole(t *testing.T) {
	allocs := func(text []byte) float64 {
		var l jsonjs.Lazy
		if !l.Scan(text) {
			t.Fatalf("refused %.40s", text)
		}
		r := l.Root()
		return testing.AllocsPerRun(10, func() { l.Tree(r) })
	}
	full := allocs(treeBlockText(1022, 2, 1))
	if under := allocs(treeBlockText(1000, 2, 1)); full != under {
		t.Errorf("1024 of each allocates %v times, fewer %v", full, under)
	}
	for _, c := range []struct {
		what    string
		x, y, z int
	}{{"container", 1023, 1, 0}, {"member", 1022, 3, 1}, {"item", 1022, 2, 2}} {
		if over := allocs(treeBlockText(c.x, c.y, c.z)); over <= full {
			t.Errorf("a %s over 1024 allocates %v times, 1024 of each %v", c.what, over, full)
		}
	}
}

// Value refuses a Raw of another text that is not UTF-8 before parsing
// it: no allocation (a parse would reserve its blocks first).
func TestJudgeLazyValueRefusesBadUTF8First(t *testing.T) {
	var l jsonjs.Lazy
	if !l.Scan([]byte(`[]`)) {
		t.Fatal("refused")
	}
	bad := jsonjs.Raw("[{\"a\":\"b\"},\"\xff\"]")
	if v := l.Value(bad); !v.IsNull() {
		t.Fatalf("Value = %s", jsonjs.Marshal(v))
	}
	if allocs := testing.AllocsPerRun(20, func() { l.Value(bad) }); allocs != 0 {
		t.Errorf("Value of a Raw that is not UTF-8 allocates %v times", allocs)
	}
}
