package spill_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/spill"
)

// Reference A: the upstream test stub (spill.md §5).
var refA = spill.Ref{Locator: "/spill/big.txt", RetrievalHint: "Use the stub retrieval path."}

// Reference B: a local-backend-style reference (spill.md §5).
var refB = spill.Ref{
	Locator:       "/srv/spill/session-3f2a91c04b7e/9c1d2e3f4a5b-run_code.txt",
	RetrievalHint: "Use read with offset/limit, or grep this path to search within it.",
}

// noticeA and noticeB are the notices of the two references for a count.
func noticeA(n int) string {
	return fmt.Sprintf("(Omitted %d bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)", n)
}

func noticeB(n int) string {
	return fmt.Sprintf("(Omitted %d bytes. Full formatted result stored at: /srv/spill/session-3f2a91c04b7e/9c1d2e3f4a5b-run_code.txt. Use read with offset/limit, or grep this path to search within it.)", n)
}

// lines is "line 001\n…\nline <to>" for the given range.
func lines(from, to int) string {
	var parts []string
	for i := from; i <= to; i++ {
		parts = append(parts, fmt.Sprintf("line %03d", i))
	}
	return strings.Join(parts, "\n")
}

var _ = Describe("Notice (SPILL-PREV-1)", func() {
	It("describes the exact count and names the artifact", func() {
		Expect(spill.Notice(1501, refA.Locator, refA.RetrievalHint)).To(Equal(
			"(Omitted 1501 bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)"))
	})

	It("has no singular form", func() {
		Expect(spill.Notice(1, "L", "H")).To(Equal("(Omitted 1 bytes. Full formatted result stored at: L. H)"))
	})

	It("is 179 bytes for reference B at 300 bytes (the worst-case notice of §5 B)", func() {
		Expect(spill.Notice(300, refB.Locator, refB.RetrievalHint)).To(HaveLen(179))
	})
})

var _ = Describe("Preview (SPILL-PREV-2..5, SPILL-CAP-1; spill.md §5)", func() {
	type row struct {
		text  string
		total int
		limit int
		ref   spill.Ref
		want  string // "" = original kept
		bytes int
	}
	DescribeTable("reference A",
		func(r row) {
			Expect(jsonjs.UTF8Len(r.text)).To(Equal(r.total))
			got, ok := spill.Preview(r.text, r.limit, r.ref)
			if r.want == "" {
				Expect(ok).To(BeFalse())
				Expect(got).To(BeEmpty())
				return
			}
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(r.want))
			Expect(jsonjs.UTF8Len(got)).To(Equal(r.bytes))
			Expect(r.bytes).To(BeNumerically("<=", r.limit))
		},
		Entry("HEAD×200 + TAIL×200, C=200: HE and L joined at the gap", row{
			text: strings.Repeat("HEAD", 200) + strings.Repeat("TAIL", 200), total: 1600, limit: 200, ref: refA,
			want: "HEADHEADHEADHEADHEADHEADHEADHEADHEADHEADHEADHEADHELTAILTAILTAILTAILTAILTAILTAILTAILTAILTAILTAILTAIL\n\n" +
				"(Omitted 1501 bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)",
			bytes: 200,
		}),
		Entry("line 001…line 100, C=300", row{
			text: lines(1, 100), total: 899, limit: 300, ref: refA,
			want:  lines(1, 11) + "\nl9\n" + lines(90, 100) + "\n\n" + noticeA(699),
			bytes: 300,
		}),
		Entry("a×1000, C=300: one byte of slack", row{
			text: strings.Repeat("a", 1000), total: 1000, limit: 300, ref: refA,
			want: strings.Repeat("a", 199) + "\n\n" + noticeA(801), bytes: 299,
		}),
		Entry("a×1000, C=102: budget 1", row{
			text: strings.Repeat("a", 1000), total: 1000, limit: 102, ref: refA,
			want: "a\n\n" + noticeA(999), bytes: 101,
		}),
		Entry("a×1000, C=100: notice only", row{
			text: strings.Repeat("a", 1000), total: 1000, limit: 100, ref: refA,
			want: noticeA(1000), bytes: 99,
		}),
		Entry("a×1000, C=98: the notice does not fit", row{
			text: strings.Repeat("a", 1000), total: 1000, limit: 98, ref: refA,
		}),
		Entry("€×100, C=120: partial codepoints dropped at both cuts", row{
			text: strings.Repeat("€", 100), total: 300, limit: 120, ref: refA,
			want: "€€€€€€\n\n" + noticeA(282), bytes: 118,
		}),
		Entry("€×400, C=103: both cuts trim to nothing", row{
			text: strings.Repeat("€", 400), total: 1200, limit: 103, ref: refA,
			want: noticeA(1200), bytes: 99,
		}),
		Entry("xxxxx, C=4: original kept", row{
			text: "xxxxx", total: 5, limit: 4, ref: refA,
		}),
	)

	DescribeTable("reference B (0123456789×30)",
		func(limit int, want string, bytes int) {
			got, ok := spill.Preview(strings.Repeat("0123456789", 30), limit, refB)
			if want == "" {
				Expect(ok).To(BeFalse())
				return
			}
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(want))
			Expect(got).To(HaveLen(bytes))
		},
		Entry("C=150: original kept", 150, "", 0),
		Entry("C=179: notice only", 179, noticeB(300), 179),
		Entry("C=180: notice only", 180, noticeB(300), 179),
		Entry("C=181: notice only", 181, noticeB(300), 179),
		Entry("C=182: budget 1", 182, "0\n\n"+noticeB(299), 182),
		Entry("C=200: budget 19 → 10/9", 200, "0123456789123456789\n\n"+noticeB(281), 200),
		Entry("C=260: budget 79 → 40/39", 260,
			"0123456789012345678901234567890123456789"+"123456789012345678901234567890123456789"+"\n\n"+noticeB(221), 260),
	)

	It("reproduces the bash-spill snapshot arithmetic (T=2022, C=800)", func() {
		// The snapshot's notice is 193 bytes, so its locator is 70 bytes.
		locator := "/" + strings.Repeat("s", 70-len("/session-3f2a91c04b7e/2ce9d7a31a38-bash.txt")-1) + "/session-3f2a91c04b7e/2ce9d7a31a38-bash.txt"
		ref := spill.Ref{Locator: locator, RetrievalHint: refB.RetrievalHint}
		text := "SPILL_START-" + strings.Repeat("x", 2022-len("SPILL_START-")-len("-SPILL_END")) + "-SPILL_END"
		got, ok := spill.Preview(text, 800, ref)
		Expect(ok).To(BeTrue())
		notice := spill.Notice(1417, ref.Locator, ref.RetrievalHint)
		Expect(notice).To(HaveLen(193))
		// reserve 195 → budget 605 → head 303 / tail 302.
		Expect(got).To(Equal(text[:303] + text[len(text)-302:] + "\n\n" + notice))
		Expect(got).To(HaveLen(800))
	})

	// The next three were checked against the upstream plugin with node.
	It("counts lone surrogates as the 3 bytes of U+FFFD and previews them as U+FFFD", func() {
		text := strings.Repeat("\xed\xa0\x80", 100) // 100 lone surrogates (WTF-8)
		got, ok := spill.Preview(text, 120, refA)
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(strings.Repeat("\uFFFD", 6) + "\n\n" + noticeA(282)))
	})

	It("drops a BOM starting a cut but counts it as kept (RET-UTF8-4)", func() {
		text := "\uFEFF" + strings.Repeat("a", 996) + "\uFEFF" // 1002 bytes
		got, ok := spill.Preview(text, 110, refA)
		Expect(ok).To(BeTrue())
		// reserve 101 → budget 9 → head 5 (BOM "aa", BOM dropped) / tail 4
		// ("a" BOM, kept: not leading); omitted 1002 - 9.
		Expect(got).To(Equal("aa" + "a\uFEFF" + "\n\n" + noticeA(993)))
		Expect(got).To(HaveLen(106))
	})

	It("keeps the original for a negative cap", func() {
		_, ok := spill.Preview("abc", -1, refA)
		Expect(ok).To(BeFalse())
	})
})
