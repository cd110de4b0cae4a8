package logcheck_test

import (
	"bytes"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/internal/logcheck"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/reference/search"
	"github.com/dsh-conform/conform/reference/spill"
)

// resultLog is a one-result log around a text and a meta produced by the
// reference, for the property that conforming output is never flagged.
func resultLog(tool, text string, meta []byte) []byte {
	var b bytes.Buffer
	b.WriteString(logHeader)
	fmt.Fprintf(&b, `{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`+"\n")
	fmt.Fprintf(&b, `{"type":"tool/call","seq":1,"time":1,"data":{"turn":1,"step":1,"callId":"c1","name":%q,"arguments":"{\"pattern\":\"x\"}"}}`+"\n", tool)
	metaPart := ""
	if meta != nil {
		metaPart = `,"meta":` + string(meta)
	}
	fmt.Fprintf(&b, `{"type":"tool/result","seq":2,"time":1,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":%s}],"isError":false}],"role":"user","id":"m1"}%s},"sourceEventSeqs":[1],"surfaceOp":"append"}`+"\n",
		string(jsonjs.Marshal(jsonjs.StringValue(text))), metaPart)
	fmt.Fprintf(&b, `{"type":"turn/end","seq":3,"time":1,"data":{"turn":1,"reason":{"kind":"completed"}}}`+"\n")
	return b.Bytes()
}

var pathGen = rapid.StringMatching(`[a-c]{1,2}(/[a-c(). é]{1,3}){0,2}\.ts`)
var lineGen = rapid.StringMatching(`[ -~é€😀\t]{0,40}`)

var refRef = &search.Ref{Locator: "/spill/session-ab12/x1y2-results.txt", RetrievalHint: "Use read with offset/limit, or grep this path to search within it."}

var _ = Describe("reference output", func() {
	It("is never flagged for grep (any matches, inline cap, meta cap, saved or not)", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			paths := rapid.SliceOfN(pathGen, 1, 4).Draw(t, "paths")
			n := rapid.IntRange(0, 12).Draw(t, "n")
			matches := make([]search.Match, n)
			for i := range matches {
				matches[i] = search.Match{
					Path:       rapid.SampledFrom(paths).Draw(t, "path"),
					LineNumber: float64(rapid.IntRange(1, 3000).Draw(t, "lineNumber")),
					Line:       lineGen.Draw(t, "line"),
				}
			}
			maxMatches := rapid.IntRange(1, 14).Draw(t, "maxMatches")
			maxLine := rapid.IntRange(1, 50).Draw(t, "maxLineBytes")
			capBytes := rapid.IntRange(1, 600).Draw(t, "searchMetaMaxBytes")
			var ref *search.Ref
			if rapid.Bool().Draw(t, "saved") {
				ref = refRef
			}
			r := search.RetainGrep(matches, maxMatches, maxLine)
			meta, err := search.ProjectGrep(r, capBytes).MarshalJSON()
			Expect(err).NotTo(HaveOccurred())
			opt := logcheck.Defaults()
			opt.SearchMetaMaxBytes, opt.GrepMaxMatches = capBytes, maxMatches
			out := checkBytes(resultLog("grep", search.GrepText(r, ref), meta), opt)
			if len(out.findings) > 0 {
				t.Fatalf("flagged:\n%s\nmeta %s", out, meta)
			}
			// Without the inline cap, at most the one undecidable case.
			opt.GrepMaxMatches = 0
			out = checkBytes(resultLog("grep", search.GrepText(r, ref), meta), opt)
			for _, f := range out.findings {
				if f.Level != logcheck.Unprovable {
					t.Fatalf("flagged without the inline cap:\n%s\nmeta %s", out, meta)
				}
			}
		})
	})

	It("is never flagged for glob (head or sampled page, meta cap)", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			paths := rapid.SliceOfNDistinct(pathGen, 0, 12, func(s string) string { return s }).Draw(t, "paths")
			maxResults := rapid.IntRange(1, 14).Draw(t, "maxResults")
			sample := rapid.Bool().Draw(t, "sample")
			capBytes := rapid.IntRange(1, 400).Draw(t, "searchMetaMaxBytes")
			var ref *search.Ref
			if rapid.Bool().Draw(t, "saved") {
				ref = refRef
			}
			p := search.PageGlob(paths, maxResults, sample, ".")
			meta, err := search.ProjectGlob(p, capBytes).MarshalJSON()
			Expect(err).NotTo(HaveOccurred())
			opt := logcheck.Defaults()
			opt.SearchMetaMaxBytes, opt.GlobMaxResults = capBytes, maxResults
			out := checkBytes(resultLog("glob", search.GlobText(p, ref), meta), opt)
			if len(out.findings) > 0 {
				t.Fatalf("flagged:\n%s\nmeta %s", out, meta)
			}
			// Without the inline cap, at most the one undecidable case.
			opt.GlobMaxResults = 0
			out = checkBytes(resultLog("glob", search.GlobText(p, ref), meta), opt)
			for _, f := range out.findings {
				if f.Level != logcheck.Unprovable {
					t.Fatalf("flagged without the inline cap:\n%s\nmeta %s", out, meta)
				}
			}
		})
	})

	It("is never flagged once the spill policy replaced the text, and the bound is checked", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			text := strings.Repeat(rapid.StringMatching(`[a-z\n€]{1,8}`).Draw(t, "unit"), rapid.IntRange(20, 200).Draw(t, "times"))
			limit := rapid.IntRange(120, 400).Draw(t, "maxInlineBytes")
			replaced, ok := spill.Preview(text, limit, spill.Ref{Locator: "/spill/s/ab-grep.txt", RetrievalHint: "Use read with offset/limit, or grep this path to search within it."})
			if !ok || jsonjs.UTF8Len(text) <= limit {
				t.Skip("the policy keeps the original")
			}
			meta := []byte(`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":500}`)
			opt := logcheck.Defaults()
			opt.MaxInlineBytes = limit
			out := checkBytes(resultLog("grep", replaced, meta), opt)
			Expect(out.findings).To(BeEmpty(), out.String())
			opt.MaxInlineBytes = jsonjs.UTF8Len(replaced) - 1
			out = checkBytes(resultLog("grep", replaced, meta), opt)
			Expect(out.kinds()).To(Equal([]string{"LOG-CHECK-SEARCH-6 violation"}))
		})
	})
})
