package logcheck_test

import (
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/search"
)

// Survivors of the --own-tests pass over search.go (issue 22): each log is
// one grep or glob call and its result, text and meta written out, with one
// realistic harness bug in it; the test asserts the finding check-log must
// give (or that a valid result gives none).

// searchLog is a one-call log: a grep or glob call whose result has the
// given text and meta (meta "" for none).
func searchLog(tool, text, meta string) []byte {
	res := `{"type":"tool/result","seq":3,"time":1785591990003,"data":{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"call_s"},"content":[{"type":"tool-result","toolCallId":"call_s","content":[{"type":"text","text":` + jsonString(text) + `}],"isError":false}],"role":"user","id":"msg-call_s"}`
	if meta != "" {
		res += `,"meta":` + meta
	}
	res += `},"surfaceOp":"append","sourceEventSeqs":[2]}`
	return []byte(strings.Join([]string{
		`{"type":"session","version":0,"id":"rules-0001","createdAt":1785591986068,"cwd":"/w","delegationDepth":0}`,
		`{"type":"turn/start","seq":0,"time":1785591990000,"data":{"turn":1}}`,
		`{"type":"step/start","seq":1,"time":1785591990001,"data":{"turn":1,"step":1}}`,
		`{"type":"tool/call","seq":2,"time":1785591990002,"data":{"turn":1,"step":1,"callId":"call_s","name":"` + tool + `","arguments":"{\"pattern\": \"x\"}"}}`,
		res,
		`{"type":"step/end","seq":4,"time":1785591990004,"data":{"turn":1,"step":1}}`,
		`{"type":"turn/end","seq":5,"time":1785591990005,"data":{"turn":1,"reason":{"kind":"completed"}}}`,
	}, "\n") + "\n")
}

var _ = Describe("check-log's search rules, own-tests survivors (issue 22)", func() {
	It("a valid one-call grep and glob log has no finding", func() {
		Expect(findings(searchLog("grep", "Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y",
			`{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}`))).To(BeEmpty())
		Expect(findings(searchLog("glob", "a.ts\nb.ts",
			`{"shape":"paths","paths":["a.ts","b.ts"],"truncated":false,"total":2}`))).To(BeEmpty())
	})
	// spilled: `!HasPrefix(head) || !notice.Match` -> `&&`. A last line that
	// opens like a spill notice but is not one (no byte count) does not
	// replace the text: the text is still compared with the meta.
	It("compares a text whose last line only looks like a spill notice with its meta", func() {
		const meta = `{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"}]}],"truncated":false,"total":1}`
		notice := "(Omitted 1417 bytes. Full formatted result stored at: /spill/s/g.txt. Use read with offset/limit, or grep this path to search within it.)"
		fake := strings.Replace(notice, "1417", "many", 1)
		Expect(findings(searchLog("grep", "Found 1 match\n\nb.ts\nLine 2: q\n\n"+notice, meta), withInline(4000))).To(BeEmpty())
		got := findings(searchLog("grep", "Found 1 match\n\nb.ts\nLine 2: q\n\n"+fake, meta), withInline(4000))
		Expect(got).To(HaveLen(1))
		Expect(got[0]).To(HavePrefix("LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: "))
	})
	// checkSearch: `c.createdAt < searchMetaSince` -> `<=`. A log created at
	// 2026-07-30T00:00:00Z exactly is of the meta era: a grep result without
	// meta is a violation there, a warning only a millisecond earlier.
	It("requires search meta in a log created at 2026-07-30T00:00:00Z exactly", func() {
		log := func(createdAt string) []byte {
			return []byte(strings.Replace(string(searchLog("grep", "Found 1 match\n\nb.ts\nLine 2: x", "")), `"createdAt":1785591986068`, `"createdAt":`+createdAt, 1))
		}
		Expect(findings(log("1785369600000"))).To(Equal([]string{
			"LOG-CHECK-SEARCH-1 violation: seq 3 (call_s): successful grep result has no meta",
		}))
		Expect(findings(log("1785369599999"))).To(Equal([]string{
			"LOG-CHECK-SEARCH-1 warning: seq 3 (call_s): successful grep result has no meta (the log predates search meta, 2026-07-30)",
		}))
	})

	// checkSearch's byte-cap shortcut: `len(meta) + count("e")` -> `-`. The
	// shortcut may skip measuring only when the meta's text plus one byte
	// per exponent fits; a canonical meta of 85 bytes with 9 e's is 85
	// bytes, one over a cap of 84.
	It("measures a meta rich in the letter e that is one byte over the cap", func() {
		const meta = `{"shape":"paths","paths":["free.ts","tree.ts","here.ts"],"truncated":false,"total":3}`
		Expect(len(meta)).To(Equal(85))
		log := searchLog("glob", "free.ts\ntree.ts\nhere.ts", meta)
		Expect(findings(log, withCap(85))).To(BeEmpty())
		Expect(findings(log, withCap(84))).To(Equal([]string{
			"LOG-CHECK-SEARCH-3 violation: seq 3 (call_s): meta is 85 bytes, over searchMetaMaxBytes 84, with 3 paths",
		}))
	})
	// The same shortcut with `+ count("E")` -> `-`: capital E's count too.
	It("measures a meta rich in the letter E that is one byte over the cap", func() {
		const meta = `{"shape":"paths","paths":["FREE.TS","TREE.TS","HERE.TS"],"truncated":false,"total":3}`
		log := searchLog("glob", "FREE.TS\nTREE.TS\nHERE.TS", meta)
		Expect(findings(log, withCap(85))).To(BeEmpty())
		Expect(findings(log, withCap(84))).To(Equal([]string{
			"LOG-CHECK-SEARCH-3 violation: seq 3 (call_s): meta is 85 bytes, over searchMetaMaxBytes 84, with 3 paths",
		}))
	})

	// The byte cap is on JSON.stringify of the meta (SEARCH-CAP-1), and an
	// exponent can print much longer than it is written: 1e20 is 4 bytes
	// of the log, 21 of the stringified meta (the meta is 116 bytes as
	// logged, 133 stringified). The shortcut must not skip measuring it.
	It("measures a meta whose line number is written with an exponent", func() {
		const meta = `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1e20,"line":"x"}]}],"truncated":false,"total":1}`
		Expect(len(meta)).To(Equal(116))
		log := searchLog("grep", "Found 1 match\n\na.ts\nLine 100000000000000000000: x", meta)
		Expect(findings(log, withCap(133))).To(BeEmpty())
		Expect(findings(log, withCap(132))).To(Equal([]string{
			"LOG-CHECK-SEARCH-3 violation: seq 3 (call_s): meta is 133 bytes, over searchMetaMaxBytes 132, with 1 files",
		}))
	})
	// checkSearch SEARCH-3: `m.count() <= 1 && view.Truncated` -> `||`. Only
	// a truncated meta of at most one element may be over the cap (the
	// byte cap keeps at least one); a truncated meta of three paths, or an
	// untruncated one of one path, over it is a violation.
	It("exempts from the byte cap only a truncated meta of one element", func() {
		const three = `{"shape":"paths","paths":["a.ts","b.ts","c.ts"],"truncated":true,"total":5}`
		log := searchLog("glob", "a.ts\nb.ts\nc.ts\n\n(Showing 3 of 5 paths. The complete result could not be saved; narrow pattern or path to see more.)", three)
		Expect(findings(log, withCap(len(three)))).To(BeEmpty())
		Expect(findings(log, withCap(len(three)-1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-3 violation: seq 3 (call_s): meta is 75 bytes, over searchMetaMaxBytes 74, with 3 paths",
		}))
		const one = `{"shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`
		Expect(findings(searchLog("glob", "a.ts", one), withCap(len(one)-1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-3 violation: seq 3 (call_s): meta is 62 bytes, over searchMetaMaxBytes 61, with 1 paths",
		}))
		const oneCapped = `{"shape":"paths","paths":["a.ts"],"truncated":true,"total":2}`
		Expect(findings(searchLog("glob", "a.ts\n\n(Showing 1 of 2 paths. The complete result could not be saved; narrow pattern or path to see more.)", oneCapped), withCap(len(oneCapped)-1))).To(BeEmpty())
	})

	// joinedPrefix: the meta's paths must be the page's first lines, one
	// per line. A page that ends before the meta's last path
	// (`end >= len(page)` -> `>` reads past it; `return 0, false` -> `true`
	// takes it for a prefix), or that has the meta's paths on one line
	// (`||` -> `&&` skips the separator), is not.
	It("rejects meta paths that are not the page's first lines", func() {
		const meta = `{"shape":"paths","paths":["a.ts","b.ts"],"truncated":false,"total":2}`
		Expect(findings(searchLog("glob", "a.ts\nb.ts", meta))).To(BeEmpty())
		Expect(findings(searchLog("glob", "a.ts", meta))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text lists 1 paths without a footer, meta.total is 2 (an uncapped glob text lists every path); meta.paths are not the first 2 lines of the text",
		}))
		Expect(findings(searchLog("glob", "a.ts b.ts\nc.ts", meta))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: meta.paths are not the first 2 lines of the text",
		}))
	})

	// searchProducer: a total that is not a non-negative integer makes the
	// text comparison meaningless (`wellFormed = false` -> `true` compared
	// it anyway and blamed the text too).
	It("does not compare the text with a meta whose total is negative", func() {
		got := findings(searchLog("glob", "a.ts", `{"shape":"paths","paths":["a.ts"],"truncated":false,"total":-1}`))
		Expect(got).To(Equal([]string{
			"LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): total -1 is not a non-negative integer",
			"LOG-CHECK-SEARCH-4 violation: seq 3 (call_s): total -1 < count 1; truncated is false but total -1 ≠ count 1",
		}))
	})
	// searchProducer names the meta's members as they are and as they must
	// be (`+` -> `-` on the message mangled it).
	It("names a search meta's members in their wrong order", func() {
		got := findings(searchLog("glob", "a.ts", `{"paths":["a.ts"],"shape":"paths","truncated":false,"total":1}`))
		Expect(got).To(Equal([]string{
			`LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): meta members are ["paths","shape","truncated","total"], want ["shape","paths","truncated","total"] (SEARCH-META-2/3)`,
		}))
	})

	// grepProducer over more than 16 groups keeps a map of the paths seen
	// (`!dup` -> `dup` recorded only repeats, so none was ever found).
	It("finds a repeated path among many grep groups", func() {
		var text, meta strings.Builder
		text.WriteString("Found 20 matches")
		meta.WriteString(`{"shape":"matches","files":[`)
		for i := range 20 {
			path := "f" + strconv.Itoa(i) + ".ts"
			if i == 18 {
				path = "f3.ts"
			}
			if i > 0 {
				meta.WriteString(",")
			}
			text.WriteString("\n\n" + path + "\nLine 1: x")
			meta.WriteString(`{"path":"` + path + `","matches":[{"lineNumber":1,"line":"x"}]}`)
		}
		meta.WriteString(`],"truncated":false,"total":20}`)
		Expect(findings(searchLog("grep", text.String(), meta.String()))).To(Equal([]string{
			`LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): files[18].path "f3.ts" repeats files[3]`,
		}))
	})
	// grepProducer lists at most three of each problem (one of wrong
	// members) and then counts them all: a meta with a match and a group in
	// the wrong member order, five empty groups, five repeated paths, five
	// fractional and five zero line numbers.
	It("lists a few of each grep meta problem and counts them all", func() {
		files := badGroups(5, `{"matches":[{"lineNumber":1,"line":"x"}],"path":"b.ts"}`)
		five := func(n string) string {
			return strings.Repeat(`{"lineNumber":`+n+`,"line":"x"},`, 4) + `{"lineNumber":` + n + `,"line":"x"}`
		}
		files = append(files, `{"path":"n.ts","matches":[`+five("1.5")+`]}`)
		files = append(files, `{"path":"z.ts","matches":[`+five("0")+`]}`)
		meta := `{"shape":"matches","files":[` + strings.Join(files, ",") + `],"truncated":false,"total":17}`
		Expect(findings(searchLog("grep", "Found 17 matches\n\na.ts\nLine 1: x", meta))).To(Equal([]string{
			"LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): " + strings.Join([]string{
				`files[0].matches[0] members are ["line","lineNumber"], want ["lineNumber","line"]`,
				`files[2] "e1.ts" has no matches`,
				`files[3] "e2.ts" has no matches`,
				`files[4] "e3.ts" has no matches`,
				`files[7].path "a.ts" repeats files[0]`,
				`files[8].path "a.ts" repeats files[0]`,
				`files[9].path "a.ts" repeats files[0]`,
				`files[12].matches[0].lineNumber 1.5 is not an integer`,
				`files[12].matches[1].lineNumber 1.5 is not an integer`,
				`files[12].matches[2].lineNumber 1.5 is not an integer`,
				`… 5 repeated paths in all`,
				`… 5 empty groups in all`,
				`… 5 non-integer line numbers in all`,
				`… 2 groups or matches with wrong members in all`,
			}, "; "),
			"LOG-CHECK-SEARCH-2 warning: seq 3 (call_s): " + strings.Join([]string{
				`files[13].matches[0].lineNumber is 0, below 1`,
				`files[13].matches[1].lineNumber is 0, below 1`,
				`files[13].matches[2].lineNumber is 0, below 1`,
			}, "; ") + " (ripgrep numbers lines from 1; a post-execute value replacement may not)",
		}))
	})
	// Three of a problem are all listed, so no count follows them; nor
	// does one wrong-member match.
	It("lists three of each grep meta problem without a count", func() {
		files := badGroups(3)
		files = append(files, `{"path":"n.ts","matches":[{"lineNumber":1.5,"line":"x"},{"lineNumber":2.5,"line":"x"},{"lineNumber":3.5,"line":"x"}]}`)
		meta := `{"shape":"matches","files":[` + strings.Join(files, ",") + `],"truncated":false,"total":7}`
		Expect(findings(searchLog("grep", "Found 7 matches\n\na.ts\nLine 1: x", meta))).To(Equal([]string{
			"LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): " + strings.Join([]string{
				`files[0].matches[0] members are ["line","lineNumber"], want ["lineNumber","line"]`,
				`files[1] "e1.ts" has no matches`,
				`files[2] "e2.ts" has no matches`,
				`files[3] "e3.ts" has no matches`,
				`files[4].path "a.ts" repeats files[0]`,
				`files[5].path "a.ts" repeats files[0]`,
				`files[6].path "a.ts" repeats files[0]`,
				`files[7].matches[0].lineNumber 1.5 is not an integer`,
				`files[7].matches[1].lineNumber 2.5 is not an integer`,
				`files[7].matches[2].lineNumber 3.5 is not an integer`,
			}, "; "),
		}))
	})
	// capFits: one more path turns "false" into "true", a byte less
	// (`grown--` -> `grown++`). The meta below (62 bytes) with b.ts added
	// and truncated true is 68 bytes: under a cap of 68 it had to keep b.ts,
	// under 67 it could not.
	It("counts truncated's false-to-true byte when it asks whether a dropped path fits", func() {
		log := searchLog("glob", "a.ts\nb.ts", `{"shape":"paths","paths":["a.ts"],"truncated":false,"total":2}`)
		base := []string{
			"LOG-CHECK-SEARCH-4 violation: seq 3 (call_s): truncated is false but total 2 ≠ count 1",
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text is not join(meta.paths, \"\\n\")",
		}
		Expect(findings(log, withCap(67))).To(Equal(base))
		Expect(findings(log, withCap(68))).To(Equal([]string{base[0], base[1] + `; the meta drops path "b.ts" although it fits searchMetaMaxBytes 68 (SEARCH-CAP-1 keeps the largest prefix that fits)`}))
	})
	// agreement.grep, capped: "Found 1 of 1 matches" says the inline cap
	// kept as many as it saw, which a cap never does (`k >= n` -> `k > n`).
	It("rejects a capped grep header that keeps every match it saw", func() {
		const footer = "\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"
		const meta = `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"},{"lineNumber":2,"line":"y"}]}],"truncated":true,"total":3}`
		Expect(findings(searchLog("grep", "Found 2 of 3 matches\n\na.ts\nLine 1: x\nLine 2: y"+footer, meta))).To(BeEmpty())
		Expect(findings(searchLog("grep", "Found 1 of 1 matches\n\na.ts\nLine 1: x"+footer,
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":1}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text says Found 1 of 1, but the inline cap keeps fewer than it saw",
		}))
	})

	// agreement.grep, uncapped: a recovery footer is cut off the body
	// before the groups are compared (`lastStart-2` -> `+2` left "\n\n("
	// of it in the body). With every group in the meta, truncated true is
	// then unexplained.
	It("compares an uncapped grep body without its stray recovery footer", func() {
		const footer = "\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"
		Expect(findings(searchLog("grep", "Found 1 match\n\na.ts\nLine 1: x"+footer,
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":1}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the header is not capped but the text ends with a recovery footer; meta.truncated is true, but the text is not capped, the meta keeps every group and fits searchMetaMaxBytes 65536 untruncated",
		}))
	})
	// agreement.grep: the byte cap drops whole groups, so the meta's last
	// group must end where a text group ends; the finding names that group
	// (`len(groups)-1` -> `+1` or `-0` indexed past the list).
	It("names the meta's last group when it stops inside a text group", func() {
		Expect(findings(searchLog("grep", "Found 3 matches\n\nb.ts\nLine 1: x\n\na.ts\nLine 1: x\nLine 2: y",
			`{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":1,"line":"x"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":3}`))).To(Equal([]string{
			`LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the meta's last group "a.ts" stops inside a text group (the byte cap drops whole groups)`,
		}))
	})

	// agreement.grep: a group the byte cap dropped may not read back (its
	// path holds a newline), and then whether the cap had to drop it cannot
	// be told (`a.view.Truncated` negated said nothing).
	It("cannot tell whether a byte-capped meta had to drop a group that does not read back", func() {
		Expect(findings(searchLog("grep", "Found 2 matches\n\na.ts\nLine 1: x\n\nb\nc.ts\nLine 2: y",
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":2}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 unprovable: seq 3 (call_s): the text body after the meta's groups does not parse as grep groups, so whether the byte cap had to drop them cannot be told",
		}))
	})
	// agreement.glob: "Showing 3 of 3 paths" says the inline cap showed all
	// it found, which a cap never does (`f.Kept >= f.Seen` -> `>`).
	It("rejects a glob footer that shows every path it found", func() {
		const recovery = " The complete result could not be saved; narrow pattern or path to see more.)"
		Expect(findings(searchLog("glob", "a.ts\nb.ts\nc.ts\n\n(Showing 3 of 4 paths."+recovery,
			`{"shape":"paths","paths":["a.ts","b.ts","c.ts"],"truncated":true,"total":4}`))).To(BeEmpty())
		Expect(findings(searchLog("glob", "a.ts\nb.ts\nc.ts\n\n(Showing 3 of 3 paths."+recovery,
			`{"shape":"paths","paths":["a.ts","b.ts","c.ts"],"truncated":true,"total":3}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the footer says Showing 3 of 3, but the inline cap shows fewer than it found",
		}))
	})
	// previews: the SEARCH-PREVIEW-2 finding states its band: a cut keeps
	// maxLineBytes less at most 6 bytes (previewSlack), and a whole line
	// ending in the 17-byte mark is at least 11 bytes shorter than any cut,
	// so sizes 7 to 10 bytes apart are no single maxLineBytes (`+ 1` -> `- 1`
	// on the band's bound misstated it).
	It("states the band of kept sizes no single maxLineBytes explains", func() {
		a := strings.Repeat("a", 2000) + " (line truncated)"
		b := strings.Repeat("b", 1992) + " (line truncated)"
		meta := `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"` + a + `"},{"lineNumber":2,"line":"` + b + `"}]}],"truncated":false,"total":2}`
		Expect(findings(searchLog("grep", "Found 2 matches\n\na.ts\nLine 1: "+a+"\nLine 2: "+b, meta))).To(Equal([]string{
			`SEARCH-PREVIEW-2 violation: seq 3 (call_s): cut grep previews of this log keep 1992 and 2000 bytes: no single maxLineBytes explains both (a cut keeps it less at most 6 bytes, and a row 7 to 10 bytes shorter cannot be a whole line ending in " (line truncated)" either)`,
		}))
	})
	// hasLoneSurrogate steps past an ED byte that starts a valid code point
	// (U+D000..U+D7FF, such as 한, ED 95 9C) and goes on looking (`b[i+1:]`
	// -> `b[i-1:]` or `b[i:]` never moved on).
	It("finds a lone surrogate after a Hangul syllable in a grep line", func() {
		log := func(line string) []byte {
			return []byte(strings.ReplaceAll(string(searchLog("grep", "Found 1 match\n\na.ts\nLine 1: LINE",
				`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"LINE"}]}],"truncated":false,"total":1}`)), "LINE", line))
		}
		Expect(findings(log("한 x"))).To(BeEmpty())
		Expect(findings(log(`한 \udc80`))).To(Equal([]string{
			`SEARCH-PREVIEW-3 violation: seq 3 (call_s): grep line "한 \xed\xb2\x80" keeps a lone surrogate; a preview is decoded UTF-8, where it is U+FFFD`,
		}))
	})
	// joinedPrefix: a page whose first line is not the meta's first path
	// has no such prefix (`return 0, false` -> `true` at the path test).
	It("rejects a meta path that is not the page's first line", func() {
		Expect(findings(searchLog("glob", "b.ts", `{"shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: meta.paths are not the first 1 lines of the text",
		}))
	})

	// spillBound: maxInlineBytes 1 is known, so a spilled text longer than
	// it is a violation, not undecidable (`<= 0` -> `<= 1`).
	It("holds a spilled text to a maxInlineBytes of 1", func() {
		const notice = "(Omitted 1417 bytes. Full formatted result stored at: /spill/s/g.txt. Use read with offset/limit, or grep this path to search within it.)"
		text := "Found 1 match\n\nb.ts\nLine 2: q\n\n" + notice
		log := searchLog("grep", text, `{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"}]}],"truncated":false,"total":1}`)
		Expect(findings(log, withInline(1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-6 violation: seq 3 (call_s): the spilled text is " + strconv.Itoa(len(text)) + " bytes, over maxInlineBytes 1",
		}))
	})
	// searchProducer: a fractional total is not a count (`t < 0 || t !=
	// Trunc(t) || IsInf` with its last `||` -> `&&` let it pass).
	It("rejects a fractional total", func() {
		Expect(findings(searchLog("glob", "a.ts\n\n(Showing 1 of 2 paths. The complete result could not be saved; narrow pattern or path to see more.)",
			`{"shape":"paths","paths":["a.ts"],"truncated":true,"total":1.5}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): total 1.5 is not a non-negative integer",
		}))
	})
	// grepProducer: a line number that overflows to -Infinity is not an
	// integer, and no mere "below 1" (`IsInf(n, 0)` -> `IsInf(n, 1)`).
	It("rejects a line number of -Infinity as not an integer", func() {
		Expect(findings(searchLog("grep", "Found 1 match\n\na.ts\nLine 1: x",
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":-1e999,"line":"x"}]}],"truncated":false,"total":1}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-2 violation: seq 3 (call_s): files[0].matches[0].lineNumber -Infinity is not an integer",
		}))
	})
	// capFits: the first element of an empty list needs no comma
	// (`a.m.count() > 0` -> `>= 0` counted one). A byte-capped grep meta
	// that kept no group, under a cap that holds the one group (the meta
	// with it is 110 bytes), dropped it for nothing.
	It("counts no comma for the first element a meta could have kept", func() {
		log := searchLog("grep", "Found 1 match\n\na.ts\nLine 1: x", `{"shape":"matches","files":[],"truncated":true,"total":1}`)
		Expect(findings(log, withCap(112))).To(Equal([]string{
			`LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the meta drops group "a.ts" although it fits searchMetaMaxBytes 112 (SEARCH-CAP-1 keeps the largest prefix that fits)`,
		}))
		Expect(findings(log, withCap(111), withGrepMax(250))).To(BeEmpty())
	})
	// uncappedFits: a meta that keeps every path of an uncapped page has no
	// reason for truncated true when it fits with "false", one byte more
	// (61 + 1 bytes here): under a cap of 62 that is a violation, under 61
	// the byte cap explains it (`size()+1 <= cap` -> `+0` or `<`).
	It("holds truncated true to the byte cap by one byte", func() {
		log := searchLog("glob", "a.ts", `{"shape":"paths","paths":["a.ts"],"truncated":true,"total":1}`)
		Expect(findings(log, withCap(62))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: meta.truncated is true, but the text has no footer, the meta keeps every path and fits searchMetaMaxBytes 62 untruncated",
		}))
		Expect(findings(log, withCap(61), withGlobMax(250))).To(BeEmpty())
	})

	// A known inline cap of 1 is a cap (`limit > 0` -> `limit > 1` ignored
	// it): a capped grep text keeps exactly grepMaxMatches matches, an
	// uncapped one has at most that many; a capped glob page has exactly
	// globMaxResults paths, an uncapped one at most that many.
	It("applies inline caps of 1", func() {
		const grepFooter = "\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)"
		const globFooter = "\n\n(Showing 2 of 3 paths. The complete result could not be saved; narrow pattern or path to see more.)"
		Expect(findings(searchLog("grep", "Found 2 of 3 matches\n\na.ts\nLine 1: x\nLine 2: y"+grepFooter,
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"},{"lineNumber":2,"line":"y"}]}],"truncated":true,"total":3}`), withGrepMax(1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text keeps 2 matches, but grepMaxMatches is 1",
		}))
		Expect(findings(searchLog("grep", "Found 2 matches\n\na.ts\nLine 1: x\nLine 2: y",
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"},{"lineNumber":2,"line":"y"}]}],"truncated":false,"total":2}`), withGrepMax(1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: 2 matches exceed grepMaxMatches 1, but the text is not capped",
		}))
		Expect(findings(searchLog("glob", "a.ts\nb.ts"+globFooter, `{"shape":"paths","paths":["a.ts","b.ts"],"truncated":true,"total":3}`), withGlobMax(1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the page has 2 paths, but globMaxResults is 1",
		}))
		Expect(findings(searchLog("glob", "a.ts\nb.ts", `{"shape":"paths","paths":["a.ts","b.ts"],"truncated":false,"total":2}`), withGlobMax(1))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: 2 paths exceed globMaxResults 1, but the text has no footer",
		}))
	})

	// previews: the finding names the first grep line with a lone surrogate
	// (`lone < 0` -> `<= 0` let later lines overwrite it), and U+D800, the
	// first surrogate (ED A0 80), is one (`>= 0xA0` -> `> 0xA0`).
	It("names the first grep line that keeps a lone surrogate", func() {
		log := strings.ReplaceAll(string(searchLog("grep", "Found 2 matches\n\na.ts\nLine 1: ONE\nLine 2: TWO",
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"ONE"},{"lineNumber":2,"line":"TWO"}]}],"truncated":false,"total":2}`)), "ONE", `a\ud800`)
		Expect(findings([]byte(strings.ReplaceAll(log, "TWO", `b\udc80`)))).To(Equal([]string{
			`SEARCH-PREVIEW-3 violation: seq 3 (call_s): grep line "a\xed\xa0\x80" keeps a lone surrogate; a preview is decoded UTF-8, where it is U+FFFD`,
		}))
	})
	// agreement.grep's footer is a last segment after a blank line, in
	// parentheses: a capped body that is only a parenthesized sentence has
	// no footer (`lastStart > 0` -> `>= 0`, or lastSegment's start 0 ->
	// 1, took it for one and cut before the body), nor has a body whose
	// last group ends in ")" (`&&` -> `||` after `lastStart > 0`).
	It("finds no recovery footer where the body has no parenthesized last segment", func() {
		Expect(findings(searchLog("grep", "Found 1 of 2 matches\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)",
			`{"shape":"matches","files":[],"truncated":true,"total":2}`))).To(ContainElement(
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text is capped (Found 1 of 2) but has no recovery footer"))
		Expect(findings(searchLog("grep", "Found 1 of 2 matches\n\na.ts\nLine 1: f(x)",
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"f(x)"}]}],"truncated":true,"total":2}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text is capped (Found 1 of 2) but has no recovery footer",
		}))
	})

	// agreement.glob: a text that is only a footer-like line has no footer
	// (lastSegment's start 0 -> 1, or `start > 0` -> `>= 0`, cut the page
	// before it).
	It("takes a glob text that is only a footer sentence for a page", func() {
		Expect(findings(searchLog("glob", "(Showing 1 of 2 paths. The complete result could not be saved; narrow pattern or path to see more.)",
			`{"shape":"paths","paths":["a.ts"],"truncated":true,"total":2}`))).To(ContainElement(
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text lists 1 paths without a footer, meta.total is 2 (an uncapped glob text lists every path); meta.paths are not the first 1 lines of the text"))
	})
	// lastSegment: a body that starts with a blank line splits there too
	// (`i < 0` -> `i <= 0` took a separator at 0 for none): a capped grep
	// text whose body is a blank line and the footer has the footer, and
	// no rows.
	It("finds the footer of a capped grep body that starts with a blank line", func() {
		Expect(findings(searchLog("grep", "Found 1 of 2 matches\n\n\n\n(The complete result could not be saved; narrow pattern, path, or include to see more.)",
			`{"shape":"matches","files":[],"truncated":true,"total":2}`))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the text body has 0 match rows, the header says 1",
		}))
	})
	// agreement.glob's sampling basis: a sample shows at least one
	// top-level entry (`f.Shown < 1` -> `< 0` let 0 pass).
	It("rejects a sampling basis that shows no top-level entry", func() {
		got := findings(searchLog("glob", "tree/a.ts\n\n(Showing 1 of 8 paths, sampled across 0 of the 6 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. The complete result could not be saved; narrow pattern or path to see more.)",
			`{"shape":"paths","paths":["tree/a.ts"],"truncated":true,"total":8}`))
		Expect(got).To(ContainElement("LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the sampling basis shows 0 of 6 top-level entries for a page of 1 paths"))
	})
	// The basis cannot show more entries than the page has paths (`||` ->
	// `&&` before `f.Shown > f.Kept` needed more than all entries too),
	// and when every path is its own entry the basis is "." (`f.Entries
	// >= f.Seen` -> `>` let entries = paths pass).
	It("rejects a sampling basis with more entries shown than paths, or as many entries as paths", func() {
		const rest = " top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. The complete result could not be saved; narrow pattern or path to see more.)"
		Expect(findings(searchLog("glob", "tree/a.ts\n\n(Showing 1 of 8 paths, sampled across 2 of the 6"+rest,
			`{"shape":"paths","paths":["tree/a.ts"],"truncated":true,"total":8}`))).To(ContainElement(
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the sampling basis shows 2 of 6 top-level entries for a page of 1 paths"))
		Expect(findings(searchLog("glob", "tree/a.ts\ntree/b.ts\n\n(Showing 2 of 6 paths, sampled across 2 of the 6"+rest,
			`{"shape":"paths","paths":["tree/a.ts","tree/b.ts"],"truncated":true,"total":6}`))).To(ContainElement(
			"LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: the sampling basis counts 6 top-level entries for 6 paths; when every path is its own entry the basis is \".\""))
	})
	// sampleShown compares the basis with the page only when the footer's
	// count is the page's (`f.Sampled && f.Kept == lines` -> `||`): a page
	// of the wrong size is one finding, not a SAMPLE-5 one too.
	It("checks a sampled basis against the page only when the page has the footer's size", func() {
		got := findings(searchLog("glob", "tree/a.ts\n\n(Showing 2 of 8 paths, sampled across 1 of the 6 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. The complete result could not be saved; narrow pattern or path to see more.)",
			`{"shape":"paths","paths":["tree/a.ts"],"truncated":true,"total":8}`))
		Expect(got).To(ContainElement(ContainSubstring("the footer says Showing 2 but the page has 1 lines")))
		Expect(got).NotTo(ContainElement(HavePrefix("SEARCH-SAMPLE-5 ")))
	})
	// agreement.glob: with globMaxResults unknown (0, the default) a
	// byte-capped meta under a page without footer leaves open whether the
	// inline cap was hit (`GlobMaxResults <= 0` -> `< 0` said nothing).
	It("cannot tell whether the inline cap was hit when globMaxResults is unknown", func() {
		log := searchLog("glob", "a.ts", `{"shape":"paths","paths":["a.ts"],"truncated":true,"total":1}`)
		Expect(findings(log, withCap(61))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 unprovable: seq 3 (call_s): the text shows all 1 paths without a footer and meta.truncated comes from the byte cap, so whether the inline cap was hit needs globMaxResults, which is unknown",
		}))
	})
	// BUG fixed (agreement.grep): an untruncated meta keeps every group, so
	// an uncapped grep body is exactly its groups; a tail after them that
	// does not read back as grep groups was let pass (rows went uncounted,
	// and the unprovable note is only for a byte-capped meta).
	It("rejects an untruncated grep text whose body goes on after the meta's groups", func() {
		const meta = `{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":false,"total":1}`
		Expect(findings(searchLog("grep", "Found 1 match\n\na.ts\nLine 1: x", meta))).To(BeEmpty())
		Expect(findings(searchLog("grep", "Found 1 match\n\na.ts\nLine 1: x\n\njunk", meta))).To(Equal([]string{
			`LOG-CHECK-SEARCH-5 violation: seq 3 (call_s): text and meta disagree: meta.truncated is false, but the text body goes on after the meta's groups with "junk", which is not grep groups`,
		}))
		Expect(findings(searchLog("grep", "Found 1 match\n\na.ts\nLine 1: x\n\n(not a recovery sentence)", meta), withHooks())).To(Equal([]string{
			`LOG-CHECK-SEARCH-5 warning: seq 3 (call_s): text and meta disagree: meta.truncated is false, but the text body goes on after the meta's groups with "(not a recovery sentence)", which is not grep groups`,
		}))
	})

	// checkSearch's byte-cap shortcut leaves the size unmeasured (-1) when
	// the meta's text plus 17 bytes per e fits the cap, and capFits then
	// measures it: `size := -1` -> `-0`, and size()'s `sizeKnown < 0` ->
	// `>=` or negated, take the unmeasured size for 0 and say that a path
	// the byte cap rightly dropped would have fit. The meta has three e's
	// (shape, truncated, true), so a cap 60 bytes over it makes the
	// shortcut apply; the next path (71 bytes with its comma) does not fit.
	// Reference output, no finding.
	It("measures, before blaming a dropped path, a cut glob meta the shortcut left unmeasured", func() {
		paths := make([]string, 4)
		for i := range paths {
			paths[i] = "lib/" + strings.Repeat("a", 60) + strconv.Itoa(i) + ".ts"
		}
		page := search.PageGlob(paths, 10, false, ".")
		all, err := search.ProjectGlob(page, 1000).MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		two := strings.NewReplacer(`,"`+paths[2]+`","`+paths[3]+`"`, "", `"truncated":false`, `"truncated":true`).Replace(string(all))
		capBytes := len(two) + 60
		meta, err := search.ProjectGlob(page, capBytes).MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(meta)).To(Equal(two), "the byte cap keeps two paths")
		Expect(len(meta)+17*strings.Count(two, "e")).To(BeNumerically("<=", capBytes), "the shortcut applies")
		Expect(findings(searchLog("glob", search.GlobText(page, nil), two), withCap(capBytes), withGlobMax(10))).To(BeEmpty())
	})
	// agreement.glob: `GlobMaxResults <= 0` -> `<= 1`. A known inline cap
	// of 1 settles whether it was hit: one path over the byte cap (kept,
	// truncated) with no footer is the whole result, not an unprovable one.
	It("takes an inline cap of 1 as known for a lone path over the byte cap", func() {
		page := search.PageGlob([]string{"src/" + strings.Repeat("b", 60) + ".ts"}, 1, false, ".")
		meta, err := search.ProjectGlob(page, 40).MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(meta)).To(ContainSubstring(`"truncated":true`))
		text := search.GlobText(page, nil)
		Expect(findings(searchLog("glob", text, string(meta)), withCap(40), withGlobMax(1))).To(BeEmpty())
		Expect(findings(searchLog("glob", text, string(meta)), withCap(40), withGlobMax(0))).To(Equal([]string{
			"LOG-CHECK-SEARCH-5 unprovable: seq 3 (call_s): the text shows all 1 paths without a footer and meta.truncated comes from the byte cap, so whether the inline cap was hit needs globMaxResults, which is unknown",
		}))
	})
})

// badGroups is a grep meta's files with a problem of each kind: a.ts whose
// match has its members in the wrong order, the groups more, n empty
// groups, and n groups repeating a.ts.
func badGroups(n int, more ...string) []string {
	files := append([]string{`{"path":"a.ts","matches":[{"line":"x","lineNumber":1}]}`}, more...)
	for i := 1; i <= n; i++ {
		files = append(files, `{"path":"e`+strconv.Itoa(i)+`.ts","matches":[]}`)
	}
	for range n {
		files = append(files, `{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}`)
	}
	return files
}
