package fuzz_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/fuzz"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// pairs returns (plain, variant) inputs drawn at the same seeds: a variant
// generator draws the plain input first from the same bit stream, so the
// two differ exactly by the transform.
func pairs(op, variant string, n int) [][2]any {
	plain, err := generators.OpGenerator(op)
	Expect(err).NotTo(HaveOccurred())
	gen, err := fuzz.CaseGenerator(op, variant)
	Expect(err).NotTo(HaveOccurred())
	out := make([][2]any, n)
	for k := range n {
		s := int(fuzz.CaseSeed(3, k))
		out[k] = [2]any{plain.Example(s), gen.Example(s)}
	}
	return out
}

func cfgNumber(config jsonjs.Value, key string) (int, bool) {
	v, ok := config.Get(key)
	if !ok {
		return 0, false
	}
	f, _ := v.Float()
	return int(f), true
}

func grepMetaSize(in search.GrepInput) int {
	get := func(key string, def int) int {
		if n, ok := cfgNumber(in.Config, key); ok {
			return n
		}
		return def
	}
	r := search.RetainGrep(in.Value.Matches, get("maxMatches", search.DefaultGrepMaxMatches), get("maxLineBytes", search.DefaultGrepMaxLineBytes))
	files := search.GroupByFile(r.Items)
	if files == nil {
		files = []search.FileMatches{}
	}
	return search.Meta{Shape: search.ShapeMatches, Files: files, Truncated: r.Truncated, Total: r.Seen}.Size()
}

func within1(got, size, floor int) bool {
	for d := -1; d <= 1; d++ {
		if got == max(floor, size+d) {
			return true
		}
	}
	return false
}

func render(in codemode.ResultInput) string {
	out, err := codemode.Result(in)
	Expect(err).NotTo(HaveOccurred())
	return out.Content
}

var _ = Describe("metamorphic variants", func() {
	It("has the variants the contract allows, per op", func() {
		Expect(fuzz.Variants("grep.result")).To(Equal([]string{"split-files", "crlf", "caps", "optional-members", "repeated-keys", "respelled", "rare-text"}))
		Expect(fuzz.Variants("glob.result")).To(Equal([]string{"caps", "optional-members", "repeated-keys", "respelled", "rare-text"}))
		Expect(fuzz.Variants("search.present")).To(Equal([]string{"optional-members", "repeated-keys", "respelled", "rare-text"}))
		Expect(fuzz.Variants("run_code.result")).To(Equal([]string{"key-order", "optional-members", "repeated-keys", "signature-keys", "past-slab", "respelled", "rare-text"}))
		Expect(fuzz.Variants("retain.items")).To(Equal([]string{"repeated-keys", "signature-keys", "past-slab", "respelled", "rare-text"}))
		Expect(fuzz.Variants("retain.text")).To(Equal([]string{"repeated-keys", "respelled", "rare-text"}))
		Expect(fuzz.Variants("spill.preview")).To(Equal([]string{"caps", "optional-members", "repeated-keys", "respelled", "rare-text"}))
		_, err := fuzz.CaseGenerator("grep.result", "no-such")
		Expect(err).To(HaveOccurred())
	})

	It("split-files spreads the same matches over more files", func() {
		more := 0
		for _, p := range pairs("grep.result", "split-files", 300) {
			a, b := p[0].(search.GrepInput), p[1].(search.GrepInput)
			Expect(b.Value.Matches).To(HaveLen(len(a.Value.Matches)))
			for i, m := range b.Value.Matches {
				o := a.Value.Matches[i]
				Expect(m.Line).To(Equal(o.Line))
				Expect(m.LineNumber).To(Equal(o.LineNumber))
				if m.Path != o.Path {
					Expect(m.Path).To(MatchRegexp(`^.*~[123]$`))
					Expect(strings.HasPrefix(m.Path, o.Path+"~")).To(BeTrue())
				}
			}
			if len(search.GroupByFile(b.Value.Matches)) > len(search.GroupByFile(a.Value.Matches)) {
				more++
			}
			Expect(jsonjs.Marshal(b.Config)).To(Equal(jsonjs.Marshal(a.Config))) // Values compare by their bytes, not reflect.DeepEqual
		}
		Expect(more).To(BeNumerically(">", 100))
	})

	It("crlf ends lines in \\r, which the canonical value and the output keep", func() {
		kept := 0
		for _, p := range pairs("grep.result", "crlf", 300) {
			a, b := p[0].(search.GrepInput), p[1].(search.GrepInput)
			if len(a.Value.Matches) == 0 {
				va, errA := generators.InputValue(a)
				vb, errB := generators.InputValue(b)
				Expect(errA).NotTo(HaveOccurred())
				Expect(errB).NotTo(HaveOccurred())
				Expect(jsonjs.Marshal(vb)).To(Equal(jsonjs.Marshal(va))) // Values compare by their bytes, not reflect.DeepEqual
				continue
			}
			cr := 0
			for i, m := range b.Value.Matches {
				o := a.Value.Matches[i]
				Expect(m.Path).To(Equal(o.Path))
				Expect(m.Line).To(Or(Equal(o.Line), Equal(o.Line+"\r")))
				if m.Line != o.Line {
					cr++
				}
			}
			Expect(cr).To(BeNumerically(">=", 1))
			if out, err := search.GrepResult(b); err == nil && !out.IsError && strings.Contains(out.Content, "\r") {
				kept++
			}
		}
		Expect(kept).To(BeNumerically(">", 50))
	})

	It("caps moves one grep cap to the input's own size ±1", func() {
		seen := map[string]int{}
		for _, p := range pairs("grep.result", "caps", 300) {
			a, b := p[0].(search.GrepInput), p[1].(search.GrepInput)
			members, _ := b.Config.Members()
			changed := ""
			for _, m := range members {
				old, _ := a.Config.Get(m.Key)
				if !a.Config.Has(m.Key) || !jsonjs.Equal(old, m.Value) {
					Expect(changed).To(BeEmpty(), "two caps moved")
					changed = m.Key
				}
			}
			if changed == "" {
				continue // moved onto the value it had
			}
			seen[changed]++
			got, _ := cfgNumber(b.Config, changed)
			switch changed {
			case "maxMatches":
				Expect(within1(got, len(b.Value.Matches), 1)).To(BeTrue(), "maxMatches %d for %d matches", got, len(b.Value.Matches))
			case "maxLineBytes":
				ok := within1(got, 0, 1)
				for _, m := range b.Value.Matches {
					ok = ok || within1(got, len(m.Line), 1)
				}
				Expect(ok).To(BeTrue(), "maxLineBytes %d", got)
			case "maxMetaBytes":
				Expect(within1(got, grepMetaSize(b), 1)).To(BeTrue(), "maxMetaBytes %d, meta size %d", got, grepMetaSize(b))
			default:
				Fail("unexpected cap " + changed)
			}
		}
		Expect(seen).To(HaveKey("maxMatches"))
		Expect(seen).To(HaveKey("maxLineBytes"))
		Expect(seen).To(HaveKey("maxMetaBytes"))
	})

	It("caps moves glob's maxResults to the path count ±1, or maxMetaBytes to the page's meta size ±1", func() {
		n := 0
		for _, p := range pairs("glob.result", "caps", 200) {
			b := p[1].(search.GlobInput)
			if got, ok := cfgNumber(b.Config, "maxResults"); ok && within1(got, len(b.Value.Paths), 1) {
				n++
				continue
			}
			got, ok := cfgNumber(b.Config, "maxMetaBytes")
			Expect(ok).To(BeTrue())
			Expect(got).To(BeNumerically(">=", 1))
			n++
		}
		Expect(n).To(Equal(200))
	})

	It("caps moves maxInlineBytes to the text's UTF-8 size ±1", func() {
		for _, p := range pairs("spill.preview", "caps", 200) {
			b := p[1].(spill.PreviewInput)
			Expect(b.MaxInlineBytes).NotTo(BeNil())
			got, _ := b.MaxInlineBytes.Float()
			text := ""
			if b.Text != nil {
				text = *b.Text
			} else if t, ok := spill.Flatten(b.Blocks); ok {
				text = t
			} else {
				continue
			}
			Expect(within1(int(got), jsonjs.UTF8Len(text), 0)).To(BeTrue(), "maxInlineBytes %v for %d bytes", got, jsonjs.UTF8Len(text))
		}
	})

	It("key-order permutes object members: the same value, rendered in the new insertion order", func() {
		reordered := 0
		for _, p := range pairs("run_code.result", "key-order", 400) {
			a, b := p[0].(codemode.ResultInput), p[1].(codemode.ResultInput)
			if a.Run.Result == nil {
				Expect(b.Run.Result).To(BeNil())
				continue
			}
			Expect(jsonjs.Equal(*a.Run.Result, *b.Run.Result)).To(BeTrue())
			ca, cb := render(a), render(b)
			if ca != cb {
				reordered++
				// The same lines, in another order: only members moved.
				la, lb := strings.Split(ca, "\n"), strings.Split(cb, "\n")
				Expect(lb).To(HaveLen(len(la)))
			}
			// Through the op too: the reference's text follows the order.
			text := inputText(b)
			out, err := reference.Run("run_code.result", []byte(text))
			Expect(err).NotTo(HaveOccurred())
			v, err := jsonjs.Parse(out)
			Expect(err).NotTo(HaveOccurred())
			content, _ := v.Get("content")
			s, _ := content.Str()
			Expect(s).To(Equal(cb), fmt.Sprintf("input %s", text))
		}
		Expect(reordered).To(BeNumerically(">", 30))
	})
})
