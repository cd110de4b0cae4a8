package generators

import (
	"strings"

	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/spill"
)

// This file generates spill.preview inputs.

// genSpillRefs are spill references: the contract's reference A (the upstream
// test stub) and B (local backend style), and a multi-byte one.
var genSpillRefs = []spill.Ref{
	{Locator: "/spill/big.txt", RetrievalHint: "Use the stub retrieval path."},
	{Locator: "/srv/spill/session-3f2a91c04b7e/9c1d2e3f4a5b-run_code.txt", RetrievalHint: "Use read with offset/limit, or grep this path to search within it."},
	{Locator: "/spill/日本/€.txt", RetrievalHint: ""},
}

// genSpillText draws a text to bound: runs of one (multi-byte) character, so
// that head and tail cuts land inside every sequence length, numbered lines,
// text starting or ending with U+FEFF, and mixed atoms; from empty to a few
// hundred bytes.
func genSpillText(t *rapid.T) string {
	switch genChoice(t, "spillTextKind", 6) {
	case 0, 1:
		run := rapid.SampledFrom([]string{"a", "€", "😀", "é", "HEAD", "0123456789"}).Draw(t, "run")
		return strings.Repeat(run, genChoice(t, "runCount", 121))
	case 2:
		var b strings.Builder
		for i, n := 0, 1+genChoice(t, "lines", 40); i < n; i++ {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString("line ")
			b.WriteString(strings.Repeat("é", i%3))
			b.WriteString(string(rune('0' + i%10)))
		}
		return b.String()
	case 3:
		return "\uFEFF" + strings.Repeat("a", genChoice(t, "bomRun", 201)) + "\uFEFF"
	}
	var b strings.Builder
	for i, n := 0, rapid.IntRange(1, 8).Draw(t, "pieces"); i < n; i++ {
		b.WriteString(UnicodeString().Draw(t, "piece"))
	}
	return b.String()
}

// SpillPreviewInput draws a spill.preview input: a text or text blocks
// (sometimes with a non-text block, or a text block without text); a
// maxInlineBytes that is absent (policy off, SPILL-CFG-1) or placed at the
// boundaries that matter — the text size T and T±1 (SPILL-RES-2), the
// notice reserve R and R±1, R±2 (where only the notice fits or nothing
// does, SPILL-CAP-1), 0, small and large; a reference or a failed save;
// the tool name (read is exempt from the result arm only) and the arm.
func SpillPreviewInput() *rapid.Generator[spill.PreviewInput] {
	return rapid.Custom(func(t *rapid.T) spill.PreviewInput {
		var in spill.PreviewInput
		text := genSpillText(t)
		switch genChoice(t, "contentKind", 10) {
		case 0, 1: // several text blocks, flattened with no separator (SPILL-RES-3)
			cut := rapid.IntRange(0, len(text)).Draw(t, "blockCut")
			for cut < len(text) && text[cut]&0xC0 == 0x80 {
				cut++
			}
			in.Blocks = []spill.Block{spill.TextBlock(text[:cut]), spill.TextBlock(text[cut:])}
		case 2: // a non-text block: the policy does not apply
			in.Blocks = []spill.Block{{Type: "image"}, spill.TextBlock(text)}
		case 3:
			if genChoice(t, "textless", 4) == 0 {
				in.Blocks = []spill.Block{{Type: "text"}, spill.TextBlock(text)}
				break
			}
			fallthrough
		default:
			in.Text = &text
		}
		if genChoice(t, "refAbsent", 5) != 0 {
			ref := rapid.SampledFrom(genSpillRefs).Draw(t, "ref")
			in.Ref = &ref
		}
		if genChoice(t, "capAbsent", 10) != 0 {
			size := jsonjs.UTF8Len(text)
			ref := genSpillRefs[0]
			if in.Ref != nil {
				ref = *in.Ref
			}
			reserve := jsonjs.UTF8Len(spill.Notice(size, ref.Locator, ref.RetrievalHint)) + 2
			var limit int
			switch genChoice(t, "capKind", 3) {
			case 0: // where the notice alone starts to fit
				limit = max(0, reserve+rapid.IntRange(-4, 2).Draw(t, "reserveDelta"))
			case 1: // room for a preview
				limit = reserve + rapid.IntRange(0, max(0, size-reserve)).Draw(t, "previewRoom")
			default:
				limit = genSizeNear(t, "maxInlineBytes", size, 0)
			}
			v := jsonjs.IntValue(limit)
			in.MaxInlineBytes = &v
		}
		in.ToolName = rapid.SampledFrom([]string{"", "bash", "read", "grep", "run_code"}).Draw(t, "toolName")
		in.Arm = rapid.SampledFrom([]spill.Arm{"", spill.ArmResult, spill.ArmDispatch}).Draw(t, "arm")
		return in
	})
}
