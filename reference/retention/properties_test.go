package retention_test

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/retention"
)

// genStrategy draws head / tail / headTail with small budgets.
func genStrategy() *rapid.Generator[retention.TextStrategy] {
	return rapid.Custom(func(t *rapid.T) retention.TextStrategy {
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return retention.HeadBytes(rapid.IntRange(0, 24).Draw(t, "maxBytes"))
		case 1:
			return retention.TailBytes(rapid.IntRange(0, 24).Draw(t, "maxBytes"))
		default:
			return retention.HeadTailBytes(rapid.IntRange(0, 16).Draw(t, "headBytes"), rapid.IntRange(0, 16).Draw(t, "tailBytes"))
		}
	})
}

// genValidText draws valid UTF-8 with 1- to 4-byte characters, without
// U+FEFF (a BOM at a cut would be removed) and without U+FFFD (so that a
// replacement character in the output can only come from a bad cut).
func genValidText() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		n := rapid.IntRange(0, 30).Draw(t, "runes")
		var b []byte
		for i := 0; i < n; i++ {
			var r rune
			switch rapid.IntRange(0, 3).Draw(t, "width") {
			case 0:
				r = rune(rapid.IntRange(0, 0x7f).Draw(t, "r1"))
			case 1:
				r = rune(rapid.IntRange(0x80, 0x7ff).Draw(t, "r2"))
			case 2:
				r = rune(rapid.IntRange(0x800, 0xffff).Draw(t, "r3"))
				if (r >= 0xD800 && r <= 0xDFFF) || r == 0xFEFF || r == 0xFFFD {
					r = '€'
				}
			default:
				r = rune(rapid.IntRange(0x10000, 0x10ffff).Draw(t, "r4"))
			}
			b = utf8.AppendRune(b, r)
		}
		return b
	})
}

// genBytes draws arbitrary bytes, biased towards UTF-8 fragments and BOMs.
func genBytes() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		n := rapid.IntRange(0, 24).Draw(t, "pieces")
		var b []byte
		for i := 0; i < n; i++ {
			switch rapid.IntRange(0, 4).Draw(t, "piece") {
			case 0:
				b = append(b, rapid.Byte().Draw(t, "byte"))
			case 1:
				b = append(b, 0xEF, 0xBB, 0xBF)
			case 2:
				r := rune(rapid.IntRange(0x80, 0x10ffff).Draw(t, "rune"))
				enc := utf8.AppendRune(nil, r)
				// Sometimes only a fragment of the sequence.
				lo := rapid.IntRange(0, len(enc)-1).Draw(t, "lo")
				hi := rapid.IntRange(lo+1, len(enc)).Draw(t, "hi")
				b = append(b, enc[lo:hi]...)
			case 3:
				b = append(b, rapid.SampledFrom([]byte{0x80, 0xBF, 0xC0, 0xC1, 0xC3, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xF8, 0xFF}).Draw(t, "special"))
			default:
				b = append(b, byte(rapid.IntRange('a', 'z').Draw(t, "ascii")))
			}
		}
		return b
	})
}

// genSplit cuts b into chunks at random points (empty chunks included).
func genSplit(b []byte) *rapid.Generator[[][]byte] {
	return rapid.Custom(func(t *rapid.T) [][]byte {
		cuts := rapid.SliceOfN(rapid.IntRange(0, len(b)), 0, 8).Draw(t, "cuts")
		sort.Ints(cuts)
		var out [][]byte
		prev := 0
		for _, c := range cuts {
			out = append(out, b[prev:c])
			prev = c
		}
		return append(out, b[prev:])
	})
}

// model computes finish() from the whole stream (RET-TEXT-5..7).
func model(st retention.TextStrategy, in []byte) retention.RetainedText {
	total := len(in)
	p := min(total, st.Prefix)
	s := min(total-p, st.Suffix)
	if total-p-s == 0 {
		return retention.RetainedText{Text: retention.Decode(in), OmittedBytes: none}
	}
	hp := retention.TrimTrailingPartial(in[:p])
	ts := retention.TrimLeadingContinuation(in[total-s:])
	return retention.RetainedText{
		Text:         retention.Decode(hp) + retention.Decode(ts),
		Truncated:    true,
		OmittedBytes: exact(total - len(hp) - len(ts)),
	}
}

// push feeds chunks to a new retainer and returns the decisions and result.
func push(t *rapid.T, st retention.TextStrategy, chunks [][]byte) ([]retention.Decision, retention.RetainedText) {
	r, err := retention.NewText(st)
	if err != nil {
		t.Fatalf("NewText(%+v): %v", st, err)
	}
	var ds []retention.Decision
	for _, c := range chunks {
		ds = append(ds, r.Push(c))
	}
	return ds, r.Finish()
}

// runeFloor is the largest rune boundary <= n in valid UTF-8 b.
func runeFloor(b []byte, n int) int {
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// runeCeil is the smallest rune boundary >= n in valid UTF-8 b.
func runeCeil(b []byte, n int) int {
	for n < len(b) && !utf8.RuneStart(b[n]) {
		n++
	}
	return n
}

var _ = Describe("properties (rapid)", func() {
	It("text windows over valid UTF-8 stay within budget and cut at code point boundaries", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			st := genStrategy().Draw(t, "strategy")
			in := genValidText().Draw(t, "input")
			chunks := genSplit(in).Draw(t, "chunks")
			_, out := push(t, st, chunks)
			total := len(in)

			if len(out.Text) > st.Prefix+st.Suffix {
				t.Fatalf("text has %d bytes, budget %d", len(out.Text), st.Prefix+st.Suffix)
			}
			if !utf8.ValidString(out.Text) || strings.ContainsRune(out.Text, utf8.RuneError) {
				t.Fatalf("text %q split a code point", out.Text)
			}
			if !out.Truncated {
				if total > st.Prefix+st.Suffix || out.Text != string(in) || out.OmittedBytes != none {
					t.Fatalf("no-omission result %+v for %d bytes", out, total)
				}
				return
			}
			if total <= st.Prefix+st.Suffix {
				t.Fatalf("truncated with %d bytes within budget %d", total, st.Prefix+st.Suffix)
			}
			if out.OmittedBytes.Kind != retention.Exact || out.OmittedBytes.Count != total-len(out.Text) {
				t.Fatalf("omitted %+v, want exact %d (total %d - kept %d)", out.OmittedBytes, total-len(out.Text), total, len(out.Text))
			}
			a := runeFloor(in, st.Prefix)
			b := runeCeil(in, total-st.Suffix)
			want := string(in[:a]) + string(in[b:])
			if out.Text != want {
				t.Fatalf("text %q, want longest whole-code-point head %q + tail %q", out.Text, in[:a], in[b:])
			}
			switch {
			case st.Suffix == 0 && !strings.HasPrefix(string(in), out.Text):
				t.Fatalf("head text %q is not a prefix", out.Text)
			case st.Prefix == 0 && !strings.HasSuffix(string(in), out.Text):
				t.Fatalf("tail text %q is not a suffix", out.Text)
			}
		})
	})

	It("the result depends only on the concatenated bytes (RET-TEXT-4) and matches the model", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			st := genStrategy().Draw(t, "strategy")
			in := genBytes().Draw(t, "input")
			chunks := genSplit(in).Draw(t, "chunks")
			ds, got := push(t, st, chunks)
			_, whole := push(t, st, [][]byte{in})
			if got != whole {
				t.Fatalf("chunked %+v != single push %+v", got, whole)
			}
			if want := model(st, in); got != want {
				t.Fatalf("finish %+v, model %+v", got, want)
			}
			sizes := make([]int, len(chunks))
			for i, c := range chunks {
				sizes[i] = len(c)
			}
			want := modelDecisions(st, sizes)
			for i := range ds {
				if ds[i] != want[i] {
					t.Fatalf("push %d of %v: %+v, want %+v", i, sizes, ds[i], want[i])
				}
				if len(chunks[i]) == 0 && !ds[i].Kept {
					t.Fatalf("an empty push must be kept")
				}
			}
			if last := ds[len(ds)-1]; last.Truncated != got.Truncated {
				t.Fatalf("finish truncated %v != last push truncated %v", got.Truncated, last.Truncated)
			}
			if !utf8.ValidString(got.Text) {
				t.Fatalf("text %q is not UTF-8", got.Text)
			}
			if got.Truncated && got.OmittedBytes.Count < len(in)-st.Prefix-st.Suffix {
				t.Fatalf("omitted %d < cut %d", got.OmittedBytes.Count, len(in)-st.Prefix-st.Suffix)
			}
		})
	})

	It("long streams (buffer compaction) match the model for any chunking", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			st := retention.HeadTailBytes(rapid.IntRange(0, 64).Draw(t, "head"), rapid.IntRange(0, 64).Draw(t, "tail"))
			if rapid.Bool().Draw(t, "tailOnly") {
				st.Prefix = 0
			}
			seed := genBytes().Draw(t, "seed")
			n := rapid.IntRange(0, 20000).Draw(t, "length")
			in := bytes.Repeat(append(seed, 'x', 0xE2, 0x82, 0xAC), n/(len(seed)+4)+1)[:n]
			var chunks [][]byte
			for rest := in; len(rest) > 0; {
				k := min(len(rest), rapid.IntRange(0, 3000).Draw(t, "chunk"))
				chunks = append(chunks, rest[:k])
				rest = rest[k:]
			}
			_, got := push(t, st, chunks)
			if want := model(st, in); got != want {
				t.Fatalf("finish %+v, model %+v", got, want)
			}
		})
	})

	It("item windows: seen = kept + omitted, the first maxItems are kept in order", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			max := rapid.IntRange(0, 10).Draw(t, "maxItems")
			items := rapid.SliceOfN(rapid.Int(), 0, 20).Draw(t, "items")
			r, err := retention.NewItems[int](max)
			if err != nil {
				t.Fatal(err)
			}
			for i, it := range items {
				d := r.Push(it)
				if want := i < max; d.Kept != want || d.Truncated != !want {
					t.Fatalf("push %d with maxItems %d: %+v", i, max, d)
				}
			}
			out := r.Finish()
			omitted := 0
			if out.Omitted.Kind == retention.Exact {
				omitted = out.Omitted.Count
			} else if out.Omitted.Kind != retention.None {
				t.Fatalf("retainers only produce none or exact, got %v", out.Omitted.Kind)
			}
			if out.Seen != len(items) || out.Seen != out.Kept+omitted || out.Kept != len(out.Items) {
				t.Fatalf("seen %d kept %d omitted %d for %d items", out.Seen, out.Kept, omitted, len(items))
			}
			keep := min(max, len(items))
			if len(out.Items) != keep || (keep > 0 && !equalInts(out.Items, items[:keep])) {
				t.Fatalf("items %v, want %v", out.Items, items[:keep])
			}
			if out.Truncated != (len(items) > max) || (out.Truncated != (out.Omitted.Kind == retention.Exact)) {
				t.Fatalf("truncated %v omitted %+v for %d items, max %d", out.Truncated, out.Omitted, len(items), max)
			}
			if out.Omitted.Kind == retention.Exact && out.Omitted.Count == 0 {
				t.Fatalf("exact 0 instead of none")
			}
		})
	})
})

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
