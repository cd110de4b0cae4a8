package jsonjs_test

import (
	"fmt"
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// genText draws a JSON text with what a tape must keep exactly: space
// between tokens, escapes (lone surrogates, pairs), number lexemes that
// round or overflow, repeated keys and array-index keys that JavaScript
// orders first.
func genText(depth int) *rapid.Generator[string] {
	ws := []string{"", "", " ", "\n\t", "\r "}
	keys := []string{`"a"`, `"b"`, `"\u0061"`, `"0"`, `"10"`, `"x y"`, `""`, `"\ud800"`, `"é"`}
	strs := []string{`""`, `"plain"`, `"\n\"\\\/"`, `"\ud83d\ude00"`, `"\udc00\ud800"`, `"\u2028<&>"`, `"ü€😀"`, `"\u0000"`}
	nums := []string{"0", "-0", "1", "-12", "0.5", "1e400", "-1E-400", "9007199254740993", "123456789012345678", "1.0", "2e+2"}
	lits := []string{"true", "false", "null"}
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		sp := func() { b.WriteString(rapid.SampledFrom(ws).Draw(t, "ws")) }
		var value func(d int)
		value = func(d int) {
			sp()
			kind := rapid.IntRange(0, 6).Draw(t, "kind")
			if d >= depth {
				kind %= 3
			}
			switch kind {
			case 0:
				b.WriteString(rapid.SampledFrom(strs).Draw(t, "str"))
			case 1:
				b.WriteString(rapid.SampledFrom(nums).Draw(t, "num"))
			case 2:
				b.WriteString(rapid.SampledFrom(lits).Draw(t, "lit"))
			case 3, 4:
				b.WriteString("[")
				n := rapid.IntRange(0, 3).Draw(t, "items")
				for i := 0; i < n; i++ {
					if i > 0 {
						b.WriteString(",")
					}
					value(d + 1)
				}
				sp()
				b.WriteString("]")
			default:
				b.WriteString("{")
				n := rapid.IntRange(0, 3).Draw(t, "members")
				for i := 0; i < n; i++ {
					if i > 0 {
						b.WriteString(",")
					}
					sp()
					b.WriteString(rapid.SampledFrom(keys).Draw(t, "key"))
					sp()
					b.WriteString(":")
					value(d + 1)
				}
				sp()
				b.WriteString("}")
			}
			sp()
		}
		value(0)
		return b.String()
	})
}

// dump is everything the accessors tell of v, depth first: kinds, keys
// and their order, strings, numbers and their lexemes, lookups by key.
func dump(v jsonjs.Value) string {
	var b strings.Builder
	var walk func(v jsonjs.Value)
	walk = func(v jsonjs.Value) {
		switch v.Kind() {
		case jsonjs.Array:
			items, _ := v.Items()
			fmt.Fprintf(&b, "[%d ", len(items))
			for _, it := range items {
				walk(it)
			}
			b.WriteString("]")
		case jsonjs.Object:
			ms, _ := v.Members()
			fmt.Fprintf(&b, "{%d ", len(ms))
			for _, m := range ms {
				got, ok := v.Get(m.Key)
				fmt.Fprintf(&b, "%q:%t:%s ", m.Key, ok && jsonjs.Equal(got, m.Value), jsonjs.Marshal(got))
				walk(m.Value)
			}
			_, has := v.Get("missing")
			fmt.Fprintf(&b, "%t}", has)
		default:
			s, _ := v.Str()
			f, _ := v.Float()
			lex, _ := v.Lexeme()
			bl, _ := v.Bool()
			fmt.Fprintf(&b, "<%s %q %v %q %t>", v.Kind(), s, f, lex, bl)
		}
	}
	walk(v)
	return b.String()
}

// parseAt parses text with its containers from depth deep on on a tape.
func parseAt(text string, deep int) (jsonjs.Value, error) {
	defer jsonjs.SetDeepFrom(deep)()
	return jsonjs.Parse([]byte(text))
}

var _ = Describe("deep values on a tape (issue 23)", func() {
	It("read, write, measure and compare as the tree does, at every depth the tape starts from", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			text := genText(5).Draw(t, "text")
			other := genText(5).Draw(t, "other")
			from := rapid.IntRange(0, 3).Draw(t, "from")
			tree, err := parseAt(text, 1<<30)
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			deep, _ := parseAt(text, from)
			otherTree, _ := parseAt(other, 1<<30)
			otherDeep, _ := parseAt(other, from)
			check := func(what string, want, got any) {
				if fmt.Sprint(want) != fmt.Sprint(got) {
					t.Fatalf("%s of %q from depth %d:\ntree %v\ntape %v", what, text, from, want, got)
				}
			}
			check("Marshal", string(jsonjs.Marshal(tree)), string(jsonjs.Marshal(deep)))
			size := jsonjs.Size(tree)
			check("Size", size, jsonjs.Size(deep))
			check("Over", false, jsonjs.Over(deep, size) || jsonjs.Over(tree, size))
			limit := rapid.IntRange(-1, size+1).Draw(t, "limit")
			upTo, whole := jsonjs.SizeUpTo(deep, limit)
			check("SizeUpTo whole", size <= limit, whole)
			check("SizeUpTo", true, (whole && upTo == size) || (!whole && upTo > limit))
			check("AppendPretty", string(jsonjs.AppendPretty(nil, tree, 2, 3)), string(jsonjs.AppendPretty(nil, deep, 2, 3)))
			check("insertion order", string(jsonjs.AppendLayout(nil, tree, jsonjs.Layout{InsertionOrder: true})),
				string(jsonjs.AppendLayout(nil, deep, jsonjs.Layout{InsertionOrder: true})))
			n := rapid.IntRange(0, 40).Draw(t, "prefix")
			p1, w1 := jsonjs.AppendPrefix(nil, tree, n)
			p2, w2 := jsonjs.AppendPrefix(nil, deep, n)
			check("AppendPrefix", fmt.Sprint(string(p1), w1), fmt.Sprint(string(p2), w2))
			check("accessors", dump(tree), dump(deep))
			check("Expanded", dump(tree), dump(deep.Expanded()))
			check("ToString", jsonjs.ToString(tree), jsonjs.ToString(deep))
			check("Equal to itself", true, jsonjs.Equal(tree, deep) && jsonjs.Equal(deep, tree) && jsonjs.Equal(deep, deep))
			diffs := func(a, b jsonjs.Value) string {
				var out []string
				for _, d := range jsonjs.Differences(a, b, 0) {
					out = append(out, fmt.Sprintf("%s %s/%t %s/%t", d.Path, jsonjs.Marshal(d.A), d.InA, jsonjs.Marshal(d.B), d.InB))
				}
				return strings.Join(out, "; ")
			}
			want := diffs(tree, otherTree)
			check("Differences tape-tape", want, diffs(deep, otherDeep))
			check("Differences tape-tree", want, diffs(deep, otherTree))
			check("Differences tree-tape", want, diffs(tree, otherDeep))
			check("Equal", jsonjs.Equal(tree, otherTree), jsonjs.Equal(deep, otherDeep))
			check("FirstDifference", jsonjs.FirstDifference(tree, otherTree), jsonjs.FirstDifference(deep, otherDeep))
			check("AnyNumber", jsonjs.AnyNumber(tree, func(f float64) bool { return f > 100 }), jsonjs.AnyNumber(deep, func(f float64) bool { return f > 100 }))
		})
	})

	It("refuses what the tree refuses, with the same error at the same place", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			text := []byte(genText(4).Draw(t, "text"))
			i := rapid.IntRange(0, len(text)).Draw(t, "at")
			switch rapid.IntRange(0, 2).Draw(t, "edit") {
			case 0:
				if i < len(text) {
					text = append(text[:i:i], text[i+1:]...)
				}
			case 1:
				text = append(text[:i:i], append([]byte{rapid.SampledFrom([]byte(`[]{},:"\1-e.x`)).Draw(t, "byte")}, text[i:]...)...)
			}
			from := rapid.IntRange(0, 3).Draw(t, "from")
			tv, terr := parseAt(string(text), 1<<30)
			dv, derr := parseAt(string(text), from)
			if fmt.Sprint(terr) != fmt.Sprint(derr) {
				t.Fatalf("%q from depth %d: tree %v, tape %v", text, from, terr, derr)
			}
			if terr == nil && string(jsonjs.Marshal(tv)) != string(jsonjs.Marshal(dv)) {
				t.Fatalf("%q from depth %d: tree %s, tape %s", text, from, jsonjs.Marshal(tv), jsonjs.Marshal(dv))
			}
		})
	})

	It("decodes the items of a wide array on a tape in bytes linear in them (Field.Items expands it once)", func() {
		const n = 100_000
		depth := jsonjs.DeepFrom() + 1
		v := mustParse(strings.Repeat("[", depth) + strings.Repeat(`"x",`, n-1) + `"x"` + strings.Repeat("]", depth))
		f := jsonjs.Root(v)
		for range depth - 1 {
			f = f.Index(0)
		}
		var items []jsonjs.Field
		Expect(allocated(func() { items, _ = f.Items() })).To(BeNumerically("<", 200*n))
		Expect(items).To(HaveLen(n))
		Expect(items[n-1].Path()).To(Equal("$" + strings.Repeat("[0]", depth-1) + fmt.Sprintf("[%d]", n-1)))
	})

	It("keeps a value nested past the default depth on a tape: Items expands it one level", func() {
		depth := jsonjs.DeepFrom() + 3
		v := mustParse(strings.Repeat("[", depth) + `"x"` + strings.Repeat("]", depth))
		for range depth - 1 {
			items, ok := v.Items()
			Expect(ok).To(BeTrue())
			Expect(items).To(HaveLen(1))
			v = items[0]
		}
		Expect(marshal(v)).To(Equal(`["x"]`))
	})

	It("knows a deep value is over a size without walking it, unless a repeated key may have dropped members", func() {
		depth := jsonjs.DeepFrom() + 3
		v := mustParse(strings.Repeat("[", depth) + `1,"x",{"a":2,"b":3}` + strings.Repeat("]", depth))
		values := depth + 5 // the arrays, 1, "x", {…} and its two members
		Expect(jsonjs.Over(v, values-1)).To(BeTrue())
		Expect(jsonjs.Over(v, values)).To(BeFalse())
		dup := mustParse(strings.Repeat("[", depth) + `{"a":[1,2,3,4,5,6,7,8],"a":1}` + strings.Repeat("]", depth))
		// the tape (from depth DeepFrom) counts 1: its object may drop its first "a"
		Expect(jsonjs.Over(dup, jsonjs.DeepFrom()+1)).To(BeFalse())
		Expect(jsonjs.Over(dup, jsonjs.DeepFrom())).To(BeTrue())
		deepest := mustParse(strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000))
		var over bool
		Expect(allocated(func() { over = jsonjs.Over(deepest, 1<<18) })).To(BeNumerically("<", 64<<10))
		Expect(over).To(BeTrue())
	})

	It("holds a text of at most MaxTapeBytes, every position and index of which an int32 holds (Lazy refuses a longer one, Parse reads it as a tree)", func() {
		// run keeps an open container's tape index shifted by one bit, and
		// a text has fewer values than bytes.
		Expect(2*jsonjs.MaxTapeBytes + 1).To(BeNumerically("<=", math.MaxInt32))
		text := []byte(`[[1,"x"],{"a":"\u0062","a":[true,null]},-0.5e1]`)
		defer jsonjs.SetDeepFrom(0)()
		var lz jsonjs.Lazy
		for _, limit := range []int{len(text), len(text) - 1} {
			restore := jsonjs.SetTapeLimit(limit)
			scanned := lz.Scan(text)
			v, err := jsonjs.Parse(text)
			restore()
			Expect(err).NotTo(HaveOccurred())
			fits := limit >= len(text)
			Expect(scanned).To(Equal(fits), "Scan with %d bytes a tape", limit)
			Expect(jsonjs.OnTape(v)).To(Equal(fits), "on a tape with %d bytes a tape", limit)
			Expect(marshal(v)).To(Equal(`[[1,"x"],{"a":[true,null]},-5]`))
		}
		Expect(lz.Scan(text)).To(BeTrue()) // the default limit
	})
})
