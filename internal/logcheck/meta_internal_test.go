package logcheck

import (
	"bytes"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
)

// metaSpeller writes a search meta as a JSON text, choosing among
// spellings JSON.parse reads alike (escapes, number lexemes, whitespace)
// and among layouts it does not (member order, extra and duplicate
// members), so that both of readMeta's paths are exercised.
type metaSpeller struct {
	t     *rapid.T
	b     strings.Builder
	plain bool // keep the reference's layout (member order, no whitespace, no extra member)
	canon bool // keep JSON.stringify's spelling of strings and numbers
}

func (w *metaSpeller) ws() {
	if !w.plain && rapid.IntRange(0, 9).Draw(w.t, "ws") == 0 {
		w.b.WriteString(" \n\t")
	}
}

func (w *metaSpeller) str(s string) {
	if w.canon || rapid.Bool().Draw(w.t, "canonicalString") {
		w.b.Write(jsonjs.Marshal(jsonjs.StringValue(s)))
		return
	}
	w.b.WriteByte('"')
	for _, r := range s { // every character as \u escapes (WTF-8 surrogates included)
		if r > 0xffff {
			hi, lo := 0xd800+(r-0x10000)>>10, 0xdc00+(r-0x10000)&0x3ff
			w.b.WriteString(`\u` + strconv.FormatInt(int64(hi), 16) + `\u` + strconv.FormatInt(int64(lo), 16))
			continue
		}
		w.b.WriteString(`\u` + strings.Repeat("0", 4-len(strconv.FormatInt(int64(r), 16))) + strconv.FormatInt(int64(r), 16))
	}
	w.b.WriteByte('"')
}

// layoutStr writes a string the layout fixes (a key, the shape).
func (w *metaSpeller) layoutStr(s string) {
	if w.plain {
		w.b.Write(jsonjs.Marshal(jsonjs.StringValue(s)))
		return
	}
	w.str(s)
}

func (w *metaSpeller) num(f float64) {
	canon := jsonjs.FormatNumber(f)
	if w.canon {
		w.b.WriteString(canon)
		return
	}
	switch rapid.IntRange(0, 4).Draw(w.t, "numSpelling") {
	case 0:
		if !strings.Contains(canon, "e") {
			w.b.WriteString(canon + "e0")
			return
		}
		w.b.WriteString(canon)
	case 1:
		if f == math.Trunc(f) && !strings.ContainsAny(canon, "e.") {
			w.b.WriteString(canon + ".000")
			return
		}
		w.b.WriteString(canon)
	case 2:
		if f == 0 {
			w.b.WriteString("-0")
			return
		}
		w.b.WriteString(canon)
	default:
		w.b.WriteString(canon)
	}
}

// member writes "key":value, with a decoy duplicate before it at times.
func (w *metaSpeller) member(first bool, key string, val func()) {
	if !first {
		w.b.WriteByte(',')
		w.ws()
	}
	if !w.plain && rapid.IntRange(0, 19).Draw(w.t, "dup") == 0 {
		w.str(key)
		w.b.WriteString(`:"decoy",`)
	}
	w.layoutStr(key)
	w.b.WriteByte(':')
	w.ws()
	val()
}

func (w *metaSpeller) object(keys []string, vals map[string]func()) {
	w.b.WriteByte('{')
	if !w.plain && rapid.IntRange(0, 9).Draw(w.t, "swap") == 0 && len(keys) > 1 {
		keys = append([]string{keys[len(keys)-1]}, keys[:len(keys)-1]...)
	}
	for i, k := range keys {
		w.member(i == 0, k, vals[k])
	}
	if !w.plain && rapid.IntRange(0, 19).Draw(w.t, "extra") == 0 {
		w.member(len(keys) == 0, "extra", func() { w.b.WriteString("[1]") })
	}
	w.b.WriteByte('}')
}

func (w *metaSpeller) array(n int, item func(int)) {
	w.b.WriteByte('[')
	for i := range n {
		if i > 0 {
			w.b.WriteByte(',')
			w.ws()
		}
		item(i)
	}
	w.b.WriteByte(']')
}

var (
	genText = rapid.OneOf(rapid.SampledFrom([]string{"", "a", "src/a.go", "x\"y\\z", "tab\there", "é€😀", "\xed\xa0\x80lone"}), rapid.StringN(0, 12, -1))
	genNum  = rapid.OneOf(rapid.SampledFrom([]float64{0, 1, 7, -3, 1.5, 1e21, 123456789012345678, math.Copysign(0, -1)}), rapid.Map(rapid.Float64Range(-5, 1e6), math.Round))
)

// writeMeta spells one random meta of the given shape.
func (w *metaSpeller) writeMeta(shape string) {
	listKey := "files"
	if shape == search.ShapePaths {
		listKey = "paths"
	}
	list := func() {
		w.array(rapid.IntRange(0, 4).Draw(w.t, "items"), func(int) {
			if shape == search.ShapePaths {
				w.str(genText.Draw(w.t, "path"))
				return
			}
			w.object([]string{"path", "matches"}, map[string]func(){
				"path": func() { w.str(genText.Draw(w.t, "path")) },
				"matches": func() {
					w.array(rapid.IntRange(0, 3).Draw(w.t, "matches"), func(int) {
						w.object([]string{"lineNumber", "line"}, map[string]func(){
							"lineNumber": func() { w.num(genNum.Draw(w.t, "lineNumber")) },
							"line":       func() { w.str(genText.Draw(w.t, "line")) },
						})
					})
				},
			})
		})
	}
	w.object([]string{"shape", listKey, "truncated", "total"}, map[string]func(){
		"shape":     func() { w.layoutStr(shape) },
		listKey:     list,
		"truncated": func() { w.b.WriteString(strconv.FormatBool(rapid.Bool().Draw(w.t, "truncated"))) },
		"total":     func() { w.num(genNum.Draw(w.t, "total")) },
	})
}

// readBoth scans text as a line and reads its meta by both paths.
func readBoth(text, shape string) (c *checker, fast, slow *searchMeta, plain bool) {
	c = newChecker("t.jsonl", Defaults(), nil)
	if !c.lz.Scan([]byte(text)) {
		panic("not JSON: " + text)
	}
	c.validUTF8 = c.lz.UTF8()
	fast, slow = &searchMeta{}, &searchMeta{}
	plain = c.validUTF8 && c.plainMeta(fast, c.lz.Root(), shape)
	c.treeMeta(slow, c.lz.Root(), shape)
	return c, fast, slow, plain
}

// TestPlainMetaIsTheTreeReading: whenever the fast path accepts a meta, it
// reads exactly what the tree path reads (view, members, strings, numbers,
// hash, size); and hashMeta is the tree's hash for every meta.
func TestPlainMetaIsTheTreeReading(t *testing.T) {
	plainSeen := 0
	rapid.Check(t, func(t *rapid.T) {
		shape := rapid.SampledFrom([]string{search.ShapeMatches, search.ShapePaths}).Draw(t, "shape")
		w := &metaSpeller{t: t, plain: rapid.Bool().Draw(t, "plainLayout"), canon: rapid.Bool().Draw(t, "canonicalSpelling")}
		w.writeMeta(shape)
		text := w.b.String()
		c, fast, slow, plain := readBoth(text, shape)
		if w.plain && c.validUTF8 && !plain {
			t.Fatalf("the reference's layout was not read by the fast path: %s", text)
		}
		if h := c.hashMeta(c.lz.Root()); h != slow.hash {
			t.Fatalf("hashMeta %x, tree hash %x: %s", h, slow.hash, text)
		}
		if !plain {
			return
		}
		plainSeen++
		if f, s := fast.view, slow.view; s == nil || f.Shape != s.Shape || f.Truncated != s.Truncated || math.Float64bits(f.Total) != math.Float64bits(s.Total) {
			t.Fatalf("views differ: %+v vs %+v: %s", fast.view, slow.view, text)
		}
		if fast.hash != slow.hash || !fast.keysOK || !slow.keysOK {
			t.Fatalf("hash %x vs %x, keys %v %v: %s", fast.hash, slow.hash, fast.keysOK, slow.keysOK, text)
		}
		if string(bytes.Join(fast.paths, []byte{0})) != string(bytes.Join(slow.paths, []byte{0})) || len(fast.groups) != len(slow.groups) || len(fast.matches) != len(slow.matches) {
			t.Fatalf("lists differ: %s", text)
		}
		for i, g := range fast.groups {
			if s := slow.groups[i]; string(g.path) != string(s.path) || g.lo != s.lo || g.hi != s.hi || !s.keysOK {
				t.Fatalf("group %d differs: %s", i, text)
			}
		}
		for i, m := range fast.matches {
			if s := slow.matches[i]; string(m.line) != string(s.line) || math.Float64bits(m.num) != math.Float64bits(s.num) || !s.keysOK {
				t.Fatalf("match %d differs: %s", i, text)
			}
		}
		if got, want := c.metaSize(fast, c.lz.Root()), jsonjs.Size(slow.tree); got != want {
			t.Fatalf("size %d, want %d: %s", got, want, text)
		}
	})
	if plainSeen == 0 {
		t.Fatal("the fast path never ran")
	}
}

// genJSON writes a random JSON text: any kind, keys that repeat (also
// spelt with escapes), nesting past hashRawDepth at times.
func genJSON(t *rapid.T, b *strings.Builder, depth int) {
	kind := rapid.IntRange(0, 6).Draw(t, "kind")
	if depth > 40 {
		kind = 0
	}
	switch kind {
	case 0:
		b.WriteString(rapid.SampledFrom([]string{"null", "true", "false", "0", "-0", "1e2", "100", "2.50", "-7"}).Draw(t, "scalar"))
	case 1:
		b.Write(jsonjs.Marshal(jsonjs.StringValue(genText.Draw(t, "s"))))
	case 2, 3:
		b.WriteByte('[')
		for i := range rapid.IntRange(0, 3).Draw(t, "n") {
			if i > 0 {
				b.WriteString(", ")
			}
			genJSON(t, b, depth+1)
		}
		b.WriteByte(']')
	default:
		b.WriteByte('{')
		for i := range rapid.IntRange(0, 4).Draw(t, "n") {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(rapid.SampledFrom([]string{`"a"`, `"b"`, `"\u0061"`, `"lines"`, `""`}).Draw(t, "key") + ":")
			genJSON(t, b, depth+1)
		}
		b.WriteByte('}')
	}
}

// TestHashMetaIsTheTreeHash: hashMeta of any meta (a read tool's, say) is
// hashValue of its tree, whichever way it is computed.
func TestHashMetaIsTheTreeHash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		genJSON(t, &b, rapid.IntRange(0, 40).Draw(t, "startDepth"))
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(b.String())) {
			t.Fatalf("not JSON: %s", b.String())
		}
		c.validUTF8 = c.lz.UTF8()
		if got, want := c.hashMeta(c.lz.Root()), c.hash(c.lz.Value(c.lz.Root())); got != want {
			t.Fatalf("hashMeta %x, tree %x: %s", got, want, b.String())
		}
	})
}

// TestHashRawLeavesDeepValuesToTheTree: hashRaw recurses, so it gives up
// past hashRawDepth (the tree's hash walks any depth with a stack).
func TestHashRawLeavesDeepValuesToTheTree(t *testing.T) {
	text := strings.Repeat("[", hashRawDepth+1) + strings.Repeat("]", hashRawDepth+1)
	c := newChecker("t.jsonl", Defaults(), nil)
	if !c.lz.Scan([]byte(text)) {
		t.Fatal("not JSON")
	}
	c.validUTF8 = true
	if _, ok := c.hashRaw(c.lz.Root(), 0); ok {
		t.Fatal("hashRaw went past hashRawDepth")
	}
	if _, ok := c.hashRaw(c.lz.Root()[1:len(text)-1], 0); !ok {
		t.Fatal("hashRaw refused a value within hashRawDepth")
	}
}

// TestMetaScratchKeepsNoView: after a search result is checked, the meta
// scratch holds no view of the line (which the next line overwrites, and
// which may be a long line's buffer).
func TestMetaScratchKeepsNoView(t *testing.T) {
	b, err := os.ReadFile("testdata/rules/valid-base.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	c := newChecker("t.jsonl", Defaults(), nil)
	if err := c.read(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	m := &c.metaBuf
	if cap(m.groups) == 0 || cap(m.matches) == 0 || cap(m.paths) == 0 {
		t.Fatal("the log's search metas were not read")
	}
	for _, g := range m.groups[:cap(m.groups)] {
		if g.path != nil {
			t.Fatalf("a group keeps %q", g.path)
		}
	}
	for _, x := range m.matches[:cap(m.matches)] {
		if x.line != nil {
			t.Fatalf("a match keeps %q", x.line)
		}
	}
	for _, p := range m.paths[:cap(m.paths)] {
		if p != nil {
			t.Fatalf("a path is kept: %q", p)
		}
	}
}

// TestHashIsJSONParseEquality: two texts hash alike, by hashMeta and by
// the tree, exactly when JSON.parse makes them equal values with members
// in any order (LOG-7), numbers by value (-0 = 0).
func TestHashIsJSONParseEquality(t *testing.T) {
	hashes := func(text string) (fromLine, fromTree uint64) {
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(text)) {
			t.Fatalf("not JSON: %s", text)
		}
		c.validUTF8 = c.lz.UTF8()
		return c.hashMeta(c.lz.Root()), c.hash(c.lz.Value(c.lz.Root()))
	}
	for _, tc := range []struct {
		a, b  string
		equal bool
	}{
		{`{"a":1,"b":[2,{"c":3,"d":4}]}`, `{"b":[2,{"d":4,"c":3}],"a":1}`, true},
		{`[1e2,-0,"\u0061"]`, `[100,0,"a"]`, true},
		{`{"a":1,"a":2}`, `{"a":2}`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"a":1,"b":2}`, `{"a":2,"b":1}`, false},
		{`{"a":{"b":1}}`, `{"b":{"a":1}}`, false},
		{`"1"`, `1`, false},
		{`true`, `1`, false},
		{`{}`, `[]`, false},
		{`null`, `false`, false},
	} {
		la, ta := hashes(tc.a)
		lb, tb := hashes(tc.b)
		if la != ta || lb != tb {
			t.Errorf("%s / %s: hashMeta and the tree's hash differ", tc.a, tc.b)
		}
		if (ta == tb) != tc.equal {
			t.Errorf("%s and %s: equal hashes %v, want %v", tc.a, tc.b, ta == tb, tc.equal)
		}
	}
}

// TestHashNestedIsTheTreeHash: hashNested hashes arrays, objects of one
// member and scalars nested past hashRawDepth as hashValue hashes their
// tree, and leaves any value holding another object to the tree.
func TestHashNestedIsTheTreeHash(t *testing.T) {
	deep := strings.Repeat("[", 3*hashRawDepth) + `1, "a\u0062", -0, [true, null, []], 2.50` + strings.Repeat("]", 3*hashRawDepth)
	objects := strings.Repeat(`{ "k" : [`, 3*hashRawDepth) + `{}, {"x":"\ud800"}, 1e400` + strings.Repeat("]}", 3*hashRawDepth)
	for _, text := range []string{deep, objects, `[]`, `{}`, `[[], [[]]]`, `"x"`, `-0`, `[1e400, "\ud800", false]`, `{"a":{"b":[1,{"c":2}]}}`} {
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(text)) {
			t.Fatalf("not JSON: %s", text)
		}
		got, ok := hashNested(c.lz.Root(), c.hashRaw)
		if want := c.hash(c.lz.Value(c.lz.Root())); !ok || got != want {
			t.Errorf("hashNested %x (ok %v), tree %x: %.80s", got, ok, want, text)
		}
	}
	for _, text := range []string{`{"a": 1, "b": 2}`, `[[1, {"a": 1, "a": 2}]]`, `{"a\u0062": 1}`} {
		c := newChecker("t.jsonl", Defaults(), nil)
		if !c.lz.Scan([]byte(text)) {
			t.Fatalf("not JSON: %s", text)
		}
		if _, ok := hashNested(c.lz.Root(), c.hashRaw); ok {
			t.Errorf("hashNested hashed an object the tree must: %s", text)
		}
	}
}

// TestHashOfAWideDeepArrayIsLinear: an array of 100,000 items nested past
// the depth where Parse keeps containers on a tape is hashed in bytes
// linear in its items; taking its Items once per item, as the walk did,
// built all of them each time (quadratic).
func TestHashOfAWideDeepArrayIsLinear(t *testing.T) {
	const items = 100_000
	text := strings.Repeat("[", 100) + strings.Repeat("1,", items-1) + "1" + strings.Repeat("]", 100)
	c := newChecker("t.jsonl", Defaults(), nil)
	v, err := jsonjs.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h := c.hash(v)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 100*items {
		t.Errorf("hashing allocated %d bytes, over 100 an item", n)
	}
	if !c.lz.Scan([]byte(text)) {
		t.Fatal("not JSON")
	}
	if want, ok := hashNested(c.lz.Root(), c.hashRaw); !ok || h != want {
		t.Errorf("hash %x, the line's %x", h, want)
	}
}
