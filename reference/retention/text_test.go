package retention_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/retention"
)

// textRow is one worked example: a strategy (as op JSON), the chunks pushed
// (JS strings, or raw bytes when raw is set), the push decisions ("k" kept,
// "d" dropped), and the finish() JSON that upstream printed (FINDINGS Q6).
type textRow struct {
	strategy string
	chunks   []string
	raw      bool
	pushes   string
	finish   string
}

// strategyOf builds the Go strategy for a row's strategy JSON without going
// through the op's validation.
func strategyOf(strategyJSON string) retention.TextStrategy {
	var s struct {
		Kind      string
		MaxBytes  int
		HeadBytes int
		TailBytes int
	}
	ExpectWithOffset(2, json.Unmarshal([]byte(strategyJSON), &s)).To(Succeed())
	switch s.Kind {
	case "head":
		return retention.HeadBytes(s.MaxBytes)
	case "tail":
		return retention.TailBytes(s.MaxBytes)
	case "headTail":
		return retention.HeadTailBytes(s.HeadBytes, s.TailBytes)
	}
	Fail("unknown kind " + s.Kind)
	return retention.TextStrategy{}
}

// modelDecisions computes the RET-TEXT-3 push decisions from the formula.
func modelDecisions(st retention.TextStrategy, sizes []int) []retention.Decision {
	omittedAt := func(t int) int {
		p := min(t, st.Prefix)
		s := min(t-p, st.Suffix)
		return t - p - s
	}
	out := []retention.Decision{}
	total := 0
	for _, n := range sizes {
		before := omittedAt(total)
		total += n
		after := omittedAt(total)
		out = append(out, retention.Decision{Kept: !(after > before), Truncated: after > 0})
	}
	return out
}

// rowBytes returns the chunks of a row as the bytes pushed.
func rowBytes(r textRow) [][]byte {
	out := make([][]byte, len(r.chunks))
	for i, c := range r.chunks {
		if r.raw {
			out[i] = []byte(c)
		} else {
			out[i] = []byte(jsonjs.ToUTF8(c))
		}
	}
	return out
}

func checkPushes(got []retention.Decision, r textRow, st retention.TextStrategy) {
	GinkgoHelper()
	var letters []string
	for _, d := range got {
		if d.Kept {
			letters = append(letters, "k")
		} else {
			letters = append(letters, "d")
		}
	}
	Expect(strings.Join(letters, ",")).To(Equal(r.pushes), "push decisions")
	var sizes []int
	for _, b := range rowBytes(r) {
		sizes = append(sizes, len(b))
	}
	Expect(got).To(Equal(modelDecisions(st, sizes)), "decisions follow the RET-TEXT-3 formula")
}

func runTextAPI(r textRow) {
	GinkgoHelper()
	st := strategyOf(r.strategy)
	t, err := retention.NewText(st)
	Expect(err).NotTo(HaveOccurred())
	got := []retention.Decision{}
	for _, c := range r.chunks {
		if r.raw {
			got = append(got, t.Push([]byte(c)))
		} else {
			got = append(got, t.PushString(c))
		}
	}
	checkPushes(got, r, st)
	out := t.Finish()
	Expect(toJSON(out)).To(Equal(r.finish))
	if len(got) > 0 {
		Expect(out.Truncated).To(Equal(got[len(got)-1].Truncated), "RET-TEXT-7: finish truncated = last push truncated")
	}
	Expect(t.Finish()).To(Equal(out), "finish is repeatable")
}

func runTextOp(r textRow) {
	GinkgoHelper()
	var chunks []string
	field := "chunks"
	for _, c := range r.chunks {
		if r.raw {
			field = "chunksBase64"
			chunks = append(chunks, `"`+base64.StdEncoding.EncodeToString([]byte(c))+`"`)
		} else {
			// JS string escaping keeps lone surrogates as \udxxx escapes.
			chunks = append(chunks, string(jsonjs.AppendString(nil, c)))
		}
	}
	input := `{"strategy":` + r.strategy + `,"` + field + `":[` + strings.Join(chunks, ",") + `]}`
	out, err := textOp(input)
	Expect(err).NotTo(HaveOccurred(), input)
	checkPushes(out.Pushes, r, strategyOf(r.strategy))
	Expect(toJSON(out.RetainedText)).To(Equal(r.finish), input)
}

func head(n int) string { return fmt.Sprintf(`{"kind":"head","maxBytes":%d}`, n) }
func tail(n int) string { return fmt.Sprintf(`{"kind":"tail","maxBytes":%d}`, n) }
func headTail(h, t int) string {
	return fmt.Sprintf(`{"kind":"headTail","headBytes":%d,"tailBytes":%d}`, h, t)
}

// fin builds the finish() JSON of a row (used while the tables are built,
// outside any spec, so it must not assert).
func fin(text string, omitted int) string {
	q, err := json.Marshal(text)
	if err != nil {
		panic(err)
	}
	if omitted < 0 {
		return `{"text":` + string(q) + `,"truncated":false,"omittedBytes":{"kind":"none"}}`
	}
	return `{"text":` + string(q) + `,"truncated":true,"omittedBytes":{"kind":"exact","count":` + fmt.Sprint(omitted) + `}}`
}

const noOmission = -1

func str(pushes string, st string, finish string, chunks ...string) textRow {
	return textRow{strategy: st, chunks: chunks, pushes: pushes, finish: finish}
}

func raw(pushes string, st string, finish string, chunks ...string) textRow {
	return textRow{strategy: st, chunks: chunks, raw: true, pushes: pushes, finish: finish}
}

// §3.5 worked examples (string input unless raw).
var workedExamples = []TableEntry{
	Entry("head 5: abc,de,fgh", str("k,k,d", head(5), fin("abcde", 3), "abc", "de", "fgh")),
	Entry("head 4: ab,cde", str("k,d", head(4), fin("abcd", 1), "ab", "cde")),
	Entry("tail 4: hello,world", str("d,d", tail(4), fin("orld", 6), "hello", "world")),
	Entry("tail 3: 11,22,33,44", str("k,d,d,d", tail(3), fin("344", 5), "11", "22", "33", "44")),
	Entry("headTail 3/3: abcdefghij", str("d", headTail(3, 3), fin("abchij", 4), "abcdefghij")),
	Entry("headTail 3/3: ab,cd,ef,gh", str("k,k,k,d", headTail(3, 3), fin("abcfgh", 2), "ab", "cd", "ef", "gh")),
	Entry("headTail 3/3: abcdef", str("k", headTail(3, 3), fin("abcdef", noOmission), "abcdef")),
	Entry("headTail 5/5: abcdefgh", str("k", headTail(5, 5), fin("abcdefgh", noOmission), "abcdefgh")),
	Entry("headTail 1/3: éab (contiguous decode)", str("k", headTail(1, 3), fin("éab", noOmission), "éab")),
	Entry("head 2: a€b", str("d", head(2), fin("a", 4), "a€b")),
	Entry("tail 2: a€b", str("d", tail(2), fin("b", 4), "a€b")),
	Entry("head 3: €x", str("d", head(3), fin("€", 1), "€x")),
	Entry("head 3: a😀", str("d", head(3), fin("a", 4), "a😀")),
	Entry("head 4: 😀x", str("d", head(4), fin("😀", 1), "😀x")),
	Entry("headTail 2/2: a€€b", str("d", headTail(2, 2), fin("ab", 6), "a€€b")),
	Entry("headTail 2/2: €€€", str("d", headTail(2, 2), fin("", 9), "€€€")),
	Entry("headTail 4/4: €€€€", str("d", headTail(4, 4), fin("€€", 6), "€€€€")),
	Entry("headTail 2/2: €€", str("d", headTail(2, 2), fin("", 6), "€€")),
	Entry("head 0: x", str("d", head(0), fin("", 1), "x")),
	Entry("head 0: no push", str("", head(0), fin("", noOmission))),
	Entry("head 0: one empty push", str("k", head(0), fin("", noOmission), "")),
	Entry("headTail 0/0: abc", str("d", headTail(0, 0), fin("", 3), "abc")),
	Entry("tail 0: abc", str("d", tail(0), fin("", 3), "abc")),
	Entry("head 10: C3,A9 (é split across 2 pushes)", raw("k,k", head(10), fin("é", noOmission), "\xC3", "\xA9")),
	// Further upstream rows (FINDINGS Q6).
	Entry("head 10: EF BB,BF 61 (BOM split across pushes)", raw("k,k", head(10), fin("a", noOmission), "\xEF\xBB", "\xBF\x61")),
	Entry("tail 5: ab,,cdefg", str("k,k,d", tail(5), fin("cdefg", 2), "ab", "", "cdefg")),
	Entry("headTail 2/2: abc,,d", str("k,k,k", headTail(2, 2), fin("abcd", noOmission), "abc", "", "d")),
}

// §3.5 UTF-8 edge cases (raw byte input).
var utf8Examples = []TableEntry{
	Entry("head 10: E2 82 41", raw("k", head(10), fin("\uFFFDA", noOmission), "\xE2\x82\x41")),
	Entry("head 10: FF FE", raw("k", head(10), fin("\uFFFD\uFFFD", noOmission), "\xFF\xFE")),
	Entry("head 10: ED A0 80", raw("k", head(10), fin("\uFFFD\uFFFD\uFFFD", noOmission), "\xED\xA0\x80")),
	Entry("head 10: F0 80 80 41", raw("k", head(10), fin("\uFFFD\uFFFD\uFFFDA", noOmission), "\xF0\x80\x80\x41")),
	Entry("head 10: C0 AF", raw("k", head(10), fin("\uFFFD\uFFFD", noOmission), "\xC0\xAF")),
	Entry("head 2: 80 80 7A", raw("d", head(2), fin("\uFFFD\uFFFD", 1), "\x80\x80\x7A")),
	Entry("head 1: F8 61", raw("d", head(1), fin("\uFFFD", 1), "\xF8\x61")),
	Entry("head 4: 80 80 80 80 41", raw("d", head(4), fin("\uFFFD\uFFFD\uFFFD\uFFFD", 1), "\x80\x80\x80\x80\x41")),
	Entry("head 3: C3 A9 A9 41", raw("d", head(3), fin("é\uFFFD", 1), "\xC3\xA9\xA9\x41")),
	Entry("head 4: 61 F0 9F 98 80", raw("d", head(4), fin("a", 4), "\x61\xF0\x9F\x98\x80")),
	Entry("head 2: 61 F5 80", raw("d", head(2), fin("a", 2), "\x61\xF5\x80")),
	Entry("head 2: 61 C0 80", raw("d", head(2), fin("a", 2), "\x61\xC0\x80")),
	Entry("tail 6: 41 80 80 80 80 80 42", raw("d", tail(6), fin("B", 6), "\x41\x80\x80\x80\x80\x80\x42")),
	// Further upstream rows (FINDINGS Q6).
	Entry("head 10: F4 90 80 80", raw("k", head(10), fin("\uFFFD\uFFFD\uFFFD\uFFFD", noOmission), "\xF4\x90\x80\x80")),
	Entry("head 10: E0 80 80", raw("k", head(10), fin("\uFFFD\uFFFD\uFFFD", noOmission), "\xE0\x80\x80")),
	Entry("headTail 3/3: BOM abcd BOM x (both cuts lose a BOM)", raw("d", headTail(3, 3), fin("x", 7), "\xEF\xBB\xBF\x61\x62\x63\x64\xEF\xBB\xBF\x78")),
}

var _ = Describe("§3 TextRetainer", func() {
	Describe("§3.5 worked examples", func() {
		DescribeTable("through the Go API (Text)", runTextAPI, workedExamples)
		DescribeTable("through the retain.text op", runTextOp, workedExamples)
	})

	Describe("§3.5 UTF-8 edge cases (raw bytes)", func() {
		DescribeTable("through the Go API (Text.Push)", runTextAPI, utf8Examples)
		DescribeTable("through the retain.text op (chunksBase64)", runTextOp, utf8Examples)
	})

	Describe("§3.5 BOM and lone-surrogate cases (string input)", func() {
		type bomRow struct {
			strategy string
			literal  string // JSON string literal, parsed with JS semantics
			pushes   string
			finish   string
		}
		rows := []TableEntry{
			Entry(`head 10: "\uFEFFabc"`, bomRow{head(10), `"\uFEFFabc"`, "k", fin("abc", noOmission)}),
			Entry(`head 5: "\uFEFFabcdef" (9 bytes)`, bomRow{head(5), `"\uFEFFabcdef"`, "d", fin("ab", 4)}),
			Entry(`tail 4: "xyz\uFEFFa"`, bomRow{tail(4), `"xyz\uFEFFa"`, "d", fin("a", 3)}),
			Entry(`head 10: "a\uFEFFb" (not leading: kept)`, bomRow{head(10), `"a\uFEFFb"`, "k", fin("a\uFEFFb", noOmission)}),
			Entry(`head 10: "\uFEFF\uFEFFb" (only one BOM removed)`, bomRow{head(10), `"\uFEFF\uFEFFb"`, "k", fin("\uFEFFb", noOmission)}),
			Entry(`head 10: "a\ud800b" (lone surrogate → U+FFFD)`, bomRow{head(10), `"a\ud800b"`, "k", fin("a\uFFFDb", noOmission)}),
		}

		DescribeTable("through the Go API (PushString of the jsonjs.Parse'd string)",
			func(r bomRow) {
				runTextAPI(str(r.pushes, r.strategy, r.finish, jsString(r.literal)))
			}, rows)

		DescribeTable("through the retain.text op (chunks as JSON text)",
			func(r bomRow) {
				input := `{"strategy":` + r.strategy + `,"chunks":[` + r.literal + `]}`
				out, err := textOp(input)
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Pushes).To(HaveLen(1))
				Expect(out.Pushes[0].Kept).To(Equal(r.pushes == "k"))
				Expect(toJSON(out.RetainedText)).To(Equal(r.finish))
			}, rows)

		It("stores the lone surrogate as WTF-8 and pushes 5 bytes (a EF BF BD b)", func() {
			s := jsString(`"a\ud800b"`)
			Expect([]byte(s)).To(Equal([]byte{'a', 0xED, 0xA0, 0x80, 'b'}))
			t, _ := retention.NewText(retention.HeadBytes(4))
			Expect(t.PushString(s)).To(Equal(dropped))
			Expect(t.Finish()).To(Equal(retention.RetainedText{Text: "a\uFFFD", Truncated: true, OmittedBytes: exact(1)}))
		})
	})

	Describe("RET-TEXT-2 budget validation", func() {
		DescribeTable("through the retain.text op and ParseTextStrategy",
			func(strategy string, wantErr string) {
				out, err := textOp(`{"strategy":` + strategy + `,"chunks":["abc"]}`)
				var st struct {
					Kind                           string
					MaxBytes, HeadBytes, TailBytes jsonjs.Value
				}
				Expect(json.Unmarshal([]byte(strategy), &st)).To(Succeed())
				_, perr := retention.ParseTextStrategy(st.Kind, st.MaxBytes, st.HeadBytes, st.TailBytes)
				if wantErr == "" {
					Expect(err).NotTo(HaveOccurred())
					Expect(perr).NotTo(HaveOccurred())
					Expect(out.Pushes).To(HaveLen(1))
					return
				}
				Expect(err).To(MatchError(wantErr))
				Expect(perr).To(MatchError(wantErr))
			},
			Entry("head -1", `{"kind":"head","maxBytes":-1}`, "maxBytes must be a non-negative integer"),
			Entry("head 1.5", `{"kind":"head","maxBytes":1.5}`, "maxBytes must be a non-negative integer"),
			Entry(`head "NaN"`, `{"kind":"head","maxBytes":"NaN"}`, "maxBytes must be a non-negative integer"),
			Entry(`head "3"`, `{"kind":"head","maxBytes":"3"}`, "maxBytes must be a non-negative integer"),
			Entry(`head "Infinity"`, `{"kind":"head","maxBytes":"Infinity"}`, "maxBytes must be a non-negative integer"),
			Entry("head 1e400 (Infinity)", `{"kind":"head","maxBytes":1e400}`, "maxBytes must be a non-negative integer"),
			Entry("head missing", `{"kind":"head"}`, "maxBytes must be a non-negative integer"),
			Entry("head with only headBytes", `{"kind":"head","headBytes":3}`, "maxBytes must be a non-negative integer"),
			Entry("tail -1", `{"kind":"tail","maxBytes":-1}`, "maxBytes must be a non-negative integer"),
			Entry("tail null", `{"kind":"tail","maxBytes":null}`, "maxBytes must be a non-negative integer"),
			Entry("headTail -1/-2 reports headBytes first", `{"kind":"headTail","headBytes":-1,"tailBytes":-2}`, "headBytes must be a non-negative integer"),
			Entry("headTail -1/-2 in reverse member order", `{"kind":"headTail","tailBytes":-2,"headBytes":-1}`, "headBytes must be a non-negative integer"),
			Entry("headTail 1/-2", `{"kind":"headTail","headBytes":1,"tailBytes":-2}`, "tailBytes must be a non-negative integer"),
			Entry("headTail 1/missing", `{"kind":"headTail","headBytes":1}`, "tailBytes must be a non-negative integer"),
			Entry("headTail missing/1", `{"kind":"headTail","tailBytes":1}`, "headBytes must be a non-negative integer"),
			Entry("headTail 0.5/1", `{"kind":"headTail","headBytes":0.5,"tailBytes":1}`, "headBytes must be a non-negative integer"),
			Entry("headTail with maxBytes only", `{"kind":"headTail","maxBytes":3}`, "headBytes must be a non-negative integer"),
			Entry("head 0 is valid", `{"kind":"head","maxBytes":0}`, ""),
			Entry("tail 0 is valid", `{"kind":"tail","maxBytes":0}`, ""),
			Entry("headTail 0/0 is valid", `{"kind":"headTail","headBytes":0,"tailBytes":0}`, ""),
			Entry("head 2^53 is valid", `{"kind":"head","maxBytes":9007199254740992}`, ""),
			Entry("head 3.0 is valid", `{"kind":"head","maxBytes":3.0}`, ""),
		)

		It("NewText rejects negative budgets in the Go API", func() {
			for _, st := range []retention.TextStrategy{retention.HeadBytes(-1), retention.TailBytes(-1),
				retention.HeadTailBytes(-1, 2), retention.HeadTailBytes(2, -1)} {
				_, err := retention.NewText(st)
				Expect(err).To(HaveOccurred(), "%+v", st)
			}
		})

		It("maps the strategies to prefix/suffix caps (RET-TEXT-1)", func() {
			Expect(retention.HeadBytes(7)).To(Equal(retention.TextStrategy{Prefix: 7, Suffix: 0}))
			Expect(retention.TailBytes(7)).To(Equal(retention.TextStrategy{Prefix: 0, Suffix: 7}))
			Expect(retention.HeadTailBytes(3, 4)).To(Equal(retention.TextStrategy{Prefix: 3, Suffix: 4}))
			for kind, want := range map[string]retention.TextStrategy{
				`{"kind":"head","maxBytes":7}`:                    {Prefix: 7},
				`{"kind":"tail","maxBytes":7}`:                    {Suffix: 7},
				`{"kind":"headTail","headBytes":3,"tailBytes":4}`: {Prefix: 3, Suffix: 4},
			} {
				var st struct {
					Kind                           string
					MaxBytes, HeadBytes, TailBytes jsonjs.Value
				}
				Expect(json.Unmarshal([]byte(kind), &st)).To(Succeed())
				got, err := retention.ParseTextStrategy(st.Kind, st.MaxBytes, st.HeadBytes, st.TailBytes)
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(want), kind)
			}
		})
	})

	Describe("the retain.text op input", func() {
		It("rejects chunks and chunksBase64 together, bad base64 and unknown kinds", func() {
			_, err := textOp(`{"strategy":{"kind":"head","maxBytes":1},"chunks":["a"],"chunksBase64":["YQ=="]}`)
			Expect(err).To(HaveOccurred())
			_, err = textOp(`{"strategy":{"kind":"head","maxBytes":1},"chunksBase64":["!!"]}`)
			Expect(err).To(HaveOccurred())
			_, err = textOp(`{"strategy":{"kind":"bogus","maxBytes":1},"chunks":["a"]}`)
			Expect(err).To(HaveOccurred())
		})

		It("marshals the output with the pushes", func() {
			out, err := textOp(`{"strategy":{"kind":"head","maxBytes":5},"chunks":["abc","de","fgh"]}`)
			Expect(err).NotTo(HaveOccurred())
			Expect(toJSON(out)).To(Equal(`{"text":"abcde","truncated":true,"omittedBytes":{"kind":"exact","count":3},"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true}]}`))
		})
	})
})

var _ = Describe("§3.4 UTF-8 boundary rules", func() {
	DescribeTable("TrimTrailingPartial (RET-UTF8-1)",
		func(in, want []byte) {
			Expect(retention.TrimTrailingPartial(in)).To(Equal(want), "% X", in)
		},
		Entry("empty", []byte{}, []byte{}),
		Entry("ASCII", []byte("ab"), []byte("ab")),
		Entry("complete é", []byte("aé"), []byte("aé")),
		Entry("complete 😀", []byte("a😀"), []byte("a😀")),
		Entry("lone C3", []byte{0xC3}, []byte{}),
		Entry("61 C3", []byte{0x61, 0xC3}, []byte{0x61}),
		Entry("61 E2 82", []byte{0x61, 0xE2, 0x82}, []byte{0x61}),
		Entry("61 E2", []byte{0x61, 0xE2}, []byte{0x61}),
		Entry("61 F0 9F 98", []byte{0x61, 0xF0, 0x9F, 0x98}, []byte{0x61}),
		Entry("61 F0", []byte{0x61, 0xF0}, []byte{0x61}),
		Entry("80 80: all continuation, untouched", []byte{0x80, 0x80}, []byte{0x80, 0x80}),
		Entry("80 80 80: all continuation, untouched", []byte{0x80, 0x80, 0x80}, []byte{0x80, 0x80, 0x80}),
		Entry("80 80 80 80: the byte at L-4 is 80 (need 2), untouched", []byte{0x80, 0x80, 0x80, 0x80}, []byte{0x80, 0x80, 0x80, 0x80}),
		Entry("61 80 80 80: complete by count, untouched", []byte{0x61, 0x80, 0x80, 0x80}, []byte{0x61, 0x80, 0x80, 0x80}),
		Entry("61 E2 80 80 80 80: scan stops after 3", []byte{0x61, 0xE2, 0x80, 0x80, 0x80, 0x80}, []byte{0x61, 0xE2, 0x80, 0x80, 0x80, 0x80}),
		Entry("F8: not a lead, untouched", []byte{0xF8}, []byte{0xF8}),
		Entry("61 FF: not a lead, untouched", []byte{0x61, 0xFF}, []byte{0x61, 0xFF}),
		Entry("C3 A9 A9: over-long run, untouched", []byte{0xC3, 0xA9, 0xA9}, []byte{0xC3, 0xA9, 0xA9}),
		Entry("61 F5 80: F5 as 4-byte lead, trimmed", []byte{0x61, 0xF5, 0x80}, []byte{0x61}),
		Entry("61 F7 80 80: F7 as 4-byte lead, trimmed", []byte{0x61, 0xF7, 0x80, 0x80}, []byte{0x61}),
		Entry("61 C0: C0 as 2-byte lead, trimmed", []byte{0x61, 0xC0}, []byte{0x61}),
		Entry("61 80: a needs 1 byte, the stray 80 is left for the decoder", []byte{0x61, 0x80}, []byte{0x61, 0x80}),
		Entry("C3 80: complete", []byte{0xC3, 0x80}, []byte{0xC3, 0x80}),
		Entry("EF BB BF: complete BOM kept", []byte{0xEF, 0xBB, 0xBF}, []byte{0xEF, 0xBB, 0xBF}),
	)

	DescribeTable("TrimLeadingContinuation (RET-UTF8-2)",
		func(in, want []byte) {
			Expect(retention.TrimLeadingContinuation(in)).To(Equal(want), "% X", in)
		},
		Entry("empty", []byte{}, []byte{}),
		Entry("no continuation", []byte("ab"), []byte("ab")),
		Entry("five continuation bytes then B", []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x42}, []byte{0x42}),
		Entry("tail of €", []byte{0x82, 0xAC, 0x62}, []byte{0x62}),
		Entry("only continuation bytes", []byte{0xBF, 0x80}, []byte{}),
		Entry("continuation after the start is kept", []byte{0x42, 0x80}, []byte{0x42, 0x80}),
		Entry("a lead byte stops it", []byte{0x80, 0xC3, 0xA9}, []byte{0xC3, 0xA9}),
	)

	DescribeTable("Decode (RET-UTF8-3: BOM removal, then WHATWG)",
		func(in []byte, want string) {
			Expect(retention.Decode(in)).To(Equal(want), "% X", in)
		},
		Entry("BOM removed", []byte{0xEF, 0xBB, 0xBF, 0x61}, "a"),
		Entry("BOM alone", []byte{0xEF, 0xBB, 0xBF}, ""),
		Entry("only one BOM removed", []byte{0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF}, "\uFEFF"),
		Entry("partial BOM is an incomplete sequence", []byte{0xEF, 0xBB}, "\uFFFD"),
		Entry("BOM not at start kept", []byte{0x61, 0xEF, 0xBB, 0xBF}, "a\uFEFF"),
		Entry("E2 82 41", []byte{0xE2, 0x82, 0x41}, "\uFFFDA"),
		Entry("ED A0 80", []byte{0xED, 0xA0, 0x80}, "\uFFFD\uFFFD\uFFFD"),
		Entry("empty", []byte{}, ""),
	)
})
