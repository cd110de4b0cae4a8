package spec_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/dsh-conform/conform/spec"
)

// The shared material lives at ../shared from the repository root; tests run
// in the package directory, one level further down.
const (
	digestDir   = "../../shared/contracts"
	sessionsDir = "../../shared/sessions"
)

func requireDir(dir, what string) {
	GinkgoHelper()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		Skip(fmt.Sprintf("%s not found at %s (it is expected at ../shared next to the repository root)", what, dir))
	}
}

func readDigest(name string) string {
	GinkgoHelper()
	requireDir(digestDir, "contract digest")
	data, err := os.ReadFile(filepath.Join(digestDir, name))
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

type indexRow struct{ id, file string }

var indexRowRE = regexp.MustCompile(`^\| ([A-Z0-9-]+) \| \[([a-z-]+\.md)\]\([a-z-]+\.md\) \|`)

// readIndex parses the requirement index table of the digest README.
func readIndex() ([]indexRow, int) {
	GinkgoHelper()
	readme := readDigest("README.md")
	_, rest, ok := strings.Cut(readme, "<!-- INDEX:BEGIN -->")
	Expect(ok).To(BeTrue(), "README.md has no INDEX:BEGIN marker")
	table, _, ok := strings.Cut(rest, "<!-- INDEX:END -->")
	Expect(ok).To(BeTrue(), "README.md has no INDEX:END marker")
	var rows []indexRow
	for _, line := range strings.Split(table, "\n") {
		if m := indexRowRE.FindStringSubmatch(line); m != nil {
			rows = append(rows, indexRow{m[1], m[2]})
		}
	}
	total := -1
	if m := regexp.MustCompile(`total (\d+)\.`).FindStringSubmatch(table); m != nil {
		fmt.Sscan(m[1], &total)
	}
	return rows, total
}

var keywordRE = regexp.MustCompile(`\b(MUST|SHALL|REQUIRED|SHOULD|MAY)\b`)

// expectedLevel is the level-assignment rule of requirements.yaml: the
// strongest RFC 2119 keyword of the statement; a statement without one is
// normative in the indicative mood (every ID is normative, README), so MUST;
// LOG-CHECK-* are MUST by the preamble of session-log.md §5 (LOG-CHECK-1's
// SHOULD covers only its contiguity sub-check); LOG-RES-4 only permits the
// writer to append crash closers.
func expectedLevel(r spec.Requirement) string {
	switch {
	case r.ID == "LOG-RES-4":
		return "MAY"
	case strings.HasPrefix(r.ID, "LOG-CHECK-"):
		return "MUST"
	}
	best := ""
	rank := map[string]int{"": 0, "MAY": 1, "SHOULD": 2, "MUST": 3}
	for _, kw := range keywordRE.FindAllString(r.Statement, -1) {
		if kw == "SHALL" || kw == "REQUIRED" {
			kw = "MUST"
		}
		if rank[kw] > rank[best] {
			best = kw
		}
	}
	if best == "" {
		return "MUST"
	}
	return best
}

var _ = Describe("requirement catalogue", func() {
	var reqs []spec.Requirement

	BeforeEach(func() {
		var err error
		reqs, err = spec.Catalogue()
		Expect(err).NotTo(HaveOccurred())
	})

	It("scopes a requirement to one language only where its statement names it, and Binds follows the handshake (issue 20)", func() {
		scoped := map[string]string{}
		for _, r := range reqs {
			if r.Scope != "" {
				scoped[r.ID] = r.Scope
			}
		}
		Expect(scoped).To(Equal(map[string]string{"SEARCH-JSON-2": "go"}))
		r, _ := spec.Lookup("SEARCH-JSON-2")
		for lang, binds := range map[string]bool{"go": true, "Go": true, " golang ": true, "": true, "python": false, "typescript": false, "gopher": false} {
			Expect(r.Binds(lang)).To(Equal(binds), "%q", lang)
		}
		open, _ := spec.Lookup("SEARCH-JSON-1")
		Expect(open.Binds("python")).To(BeTrue())
	})

	It("holds exactly the digest index IDs, in digest order", func() {
		rows, total := readIndex()
		Expect(rows).To(HaveLen(165))
		Expect(total).To(Equal(165))
		want := make([]string, len(rows))
		for i, r := range rows {
			want[i] = r.id
		}
		Expect(spec.IDs()).To(Equal(want))
		Expect(reqs).To(HaveLen(165))
		for i, r := range rows {
			Expect(reqs[i].Digest).To(Equal(r.file), "digest file of %s", r.id)
		}
	})

	It("uses each paragraph's exact title", func() {
		texts := map[string]string{}
		for _, r := range reqs {
			if _, ok := texts[r.Digest]; !ok {
				texts[r.Digest] = readDigest(r.Digest)
			}
			head := fmt.Sprintf("**%s** · *%s* — ", r.ID, r.Title)
			Expect(texts[r.Digest]).To(ContainSubstring(head), "%s: title %q not found in %s", r.ID, r.Title, r.Digest)
		}
	})

	It("has unique, well-formed entries", func() {
		idRE := regexp.MustCompile(`^[A-Z]+(-[A-Z0-9]+)*-[0-9]+$`)
		areaOf := map[string]string{"RET": "retention", "SEARCH": "search", "CODE": "codemode", "SPILL": "spill", "LOG": "log"}
		digestOf := map[string]string{"retention": "retention.md", "search": "search-card.md", "codemode": "code-mode.md", "spill": "spill.md", "log": "session-log.md"}
		seen := map[string]bool{}
		for _, r := range reqs {
			Expect(seen[r.ID]).To(BeFalse(), "duplicate id %s", r.ID)
			seen[r.ID] = true
			Expect(r.ID).To(MatchRegexp(idRE.String()))
			for field, v := range map[string]string{"level": r.Level, "area": r.Area, "title": r.Title, "statement": r.Statement, "digest": r.Digest, "source": r.Source} {
				Expect(strings.TrimSpace(v)).NotTo(BeEmpty(), "%s: empty %s", r.ID, field)
			}
			Expect(spec.Levels).To(ContainElement(r.Level), r.ID)
			Expect(spec.Areas).To(ContainElement(r.Area), r.ID)
			prefix, _, _ := strings.Cut(r.ID, "-")
			Expect(r.Area).To(Equal(areaOf[prefix]), "area of %s", r.ID)
			Expect(r.Digest).To(Equal(digestOf[r.Area]), "digest of %s", r.ID)
			Expect(r.Source).To(MatchRegexp(`^packages/[a-z0-9-]+(/[a-z0-9-]+)*/src/[a-z0-9-]+\.ts$`), "source of %s", r.ID)
			Expect(r.Statement).NotTo(ContainSubstring("\n"), "%s: statement must be one line", r.ID)
			prose := regexp.MustCompile("`[^`]*`").ReplaceAllString(r.Statement, "code")
			Expect(prose).NotTo(MatchRegexp(`\*\*|\]\(|(^|\s)\*[^*\s]`), "%s: statement still has markdown", r.ID)
			if r.Exclusion != nil {
				Expect(strings.TrimSpace(r.Exclusion.Reason)).NotTo(BeEmpty(), "%s: exclusion without reason", r.ID)
			}
		}
	})

	It("assigns levels by one rule", func() {
		for _, r := range reqs {
			Expect(r.Level).To(Equal(expectedLevel(r)), "level of %s", r.ID)
		}
	})

	It("says at the top what the file is and that IDs are stable", func() {
		data, err := os.ReadFile("requirements.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(HavePrefix("# Requirement catalogue"))
		Expect(string(data)).To(ContainSubstring("IDs are stable"))
	})

	It("looks requirements up by ID", func() {
		r, ok := spec.Lookup("SEARCH-META-2")
		Expect(ok).To(BeTrue())
		Expect(r.Title).To(Equal("grep shape"))
		Expect(r.Area).To(Equal("search"))
		Expect(r.Source).To(Equal("packages/fs/tool-fs-search/src/presentation.ts"))
		r, ok = spec.Lookup("LOG-CHECK-1")
		Expect(ok).To(BeTrue())
		Expect(r.Level).To(Equal("MUST"))
		_, ok = spec.Lookup("SEARCH-META-99")
		Expect(ok).To(BeFalse())
		Expect(spec.IDs()[0]).To(Equal("RET-OMIT-1"))
		Expect(spec.IDs()[164]).To(Equal("LOG-CHECK-CODE-8"))
	})

	It("hands out copies", func() {
		reqs[0].ID = "CHANGED-1"
		again, err := spec.Catalogue()
		Expect(err).NotTo(HaveOccurred())
		Expect(again[0].ID).To(Equal("RET-OMIT-1"))
	})
})

var schemaNames = []string{
	"generic-call-view",
	"log-code-dispatch",
	"log-code-dispatch-start",
	"log-event",
	"log-header",
	"log-packed-chunks",
	"log-tool-call",
	"log-tool-result",
	"op-glob.result.input",
	"op-glob.result.output",
	"op-grep.result.input",
	"op-grep.result.output",
	"op-retain.items.input",
	"op-retain.items.output",
	"op-retain.text.input",
	"op-retain.text.output",
	"op-run_code.result.input",
	"op-run_code.result.output",
	"op-search.present.input",
	"op-search.present.output",
	"op-spill.preview.input",
	"op-spill.preview.output",
	"report-check-log",
	"report-fuzz",
	"report-run",
	"search-meta",
	"search-result-view",
}

// checkLogReport is a small but complete `conform check-log --format json`
// report.
const checkLogReport = `{"format":"conform-check-log","version":1,"failOn":"violation","maxFindings":0,
	  "files":[{"file":"a.jsonl","stats":{"lines":2,"events":1,"malformedLines":0,"unknownTypes":{"x/y":1},"resultsChecked":{"grep":1},
	    "findings":{"violation":1,"warning":0,"unprovable":0},"baselined":1,"bytes":10},
	    "findings":[{"file":"a.jsonl","line":2,"seq":0,"requirement":"LOG-CHECK-2","level":"violation","message":"m",
	      "baseline":{"source":"b.yaml:1","requirement":"LOG-CHECK-2","reason":"known"}}],
	    "dropped":0,"elapsedSeconds":0.1}],
	  "totals":{"files":1,"lines":2,"events":1,"malformedLines":0,"unknownTypes":{},"resultsChecked":{},
	    "findings":{"violation":1,"warning":0,"unprovable":0},"baselined":1,"failing":0,"listed":1,"dropped":0,"errors":0,
	    "bytes":10,"elapsedSeconds":0.1,"result":"pass"},
	  "baseline":{"file":"b.yaml","entries":1,"stale":[]}}`

// fuzzReport is a small but complete `conform fuzz --format json` report
// with a mismatch finding (shrunk and saved) and a crash finding (not
// shrunk); fuzzShardReport is a clean shard of a --duration campaign.
const (
	fuzzTotals = `"totals":{"pass":5,"fail":2,"error":0,"timeout":0,"crash":1,"unsupported":0,"skipped":0,"xfail":0,"xpass":0}`
	fuzzReport = `{"format":"conform-fuzz","version":1,"implementation":{"name":"h","version":"1.0","language":"go","homepage":""},"protocol":1,
	  "adapter":["./adapter","--flag"],"seed":3,"ops":["run_code.result","grep.result"],"firstCase":0,"planned":8,"jobs":2,
	  "started":"2026-01-02T03:04:05.678Z","campaignMs":12.5,"durationMs":40.25,"cases":8,"casesPerSecond":640,` + fuzzTotals + `,
	  "mismatches":2,"crashes":1,"timeouts":0,"errors":0,"generatorErrors":0,
	  "perOp":[{"op":"run_code.result","cases":4,"variants":{"key-order":1},"totals":{"pass":1,"fail":2,"error":0,"timeout":0,"crash":1,"unsupported":0,"skipped":0,"xfail":0,"xpass":0}},
	    {"op":"grep.result","cases":4,"variants":{},"totals":{"pass":4,"fail":0,"error":0,"timeout":0,"crash":0,"unsupported":0,"skipped":0,"xfail":0,"xpass":0},"generatorErrors":1}],
	  "firstFailing":{"case":2,"op":"run_code.result","caseSeed":18446744073709551615,"variant":"key-order","finding":"run_code.result content CODE-RENDER-1"},
	  "findings":[{"id":"run_code.result content CODE-RENDER-1","key":{"op":"run_code.result","field":"content","requirements":"CODE-RENDER-1","verdict":"fail"},"count":2,
	      "first":{"case":2,"op":"run_code.result","caseSeed":18446744073709551615,"variant":"key-order","finding":"run_code.result content CODE-RENDER-1"},
	      "broken":["CODE-RENDER-1"],"diffs":[{"field":"content","comparator":"exact","path":"$.content","offset":7,"requirements":["CODE-RENDER-1"],"want":"a","got":"b","message":"content: first difference at byte 7"}],
	      "input":{"run":{"logs":[""]}},"size":{"bytes":20,"counts":{"logs":1},"summary":"1 log"},"originalSize":{"bytes":90,"counts":{"logs":4},"summary":"4 logs"},
	      "shrink":{"shrunk":true,"runs":12,"memoHits":3,"durationMs":5.5,"firstDrawMatches":true},
	      "repro":"conform fuzz --op run_code.result --seed 3 --case 2 --cases 1",
	      "saved":{"id":"run_code.result/fuzz-0123456789ab","fixture":"d/fixtures/run_code.result/fuzz-0123456789ab.json","golden":"d/golden/run_code.result/fuzz-0123456789ab.json"}},
	    {"id":"run_code.result (crash)","key":{"op":"run_code.result","verdict":"crash"},"count":1,
	      "first":{"case":4,"op":"run_code.result","caseSeed":7,"finding":"run_code.result (crash)"},
	      "broken":[],"message":"adapter exited","stderr":"panic: x","input":{"run":{"logs":[]}},"size":{"bytes":15,"summary":"0 logs"},"originalSize":{"bytes":15,"summary":"0 logs"},
	      "shrink":{"shrunk":false,"runs":0,"memoHits":0,"durationMs":0,"firstDrawMatches":false,"note":"shrinking disabled"},
	      "repro":"conform fuzz --op run_code.result --seed 3 --case 4 --cases 1"}]}`
	fuzzShardReport = `{"format":"conform-fuzz","version":1,"implementation":{"name":"ref","version":"1.0.0","language":"go","homepage":""},"protocol":1,
	  "seed":0,"ops":["spill.preview"],"firstCase":5,"shard":{"index":1,"count":2},"jobs":1,
	  "started":"2026-01-02T03:04:05Z","campaignMs":0,"durationMs":0,"cases":0,"casesPerSecond":0,
	  "totals":{"pass":0,"fail":0,"error":0,"timeout":0,"crash":0,"unsupported":0,"skipped":0,"xfail":0,"xpass":0},
	  "mismatches":0,"crashes":0,"timeouts":0,"errors":0,"generatorErrors":0,
	  "perOp":[{"op":"spill.preview","cases":0,"variants":{},"totals":{"pass":0,"fail":0,"error":0,"timeout":0,"crash":0,"unsupported":0,"skipped":0,"xfail":0,"xpass":0}}],
	  "findings":[],"interrupted":true}`
)

// Instances below are copied from the digest's worked examples where it has
// them (search-card.md §10, §12, §13; code-mode.md; spill.md; retention.md;
// session-log.md §1–4); the invalid ones are the near misses each schema
// exists to catch.
const (
	metaGrep3    = `{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}`
	metaGlobLog  = `{"shape":"paths","paths":["tree/archive/a.ts","tree/docs/guide.md","tree/src/index.ts","tree/test/spec.ts"],"truncated":true,"total":8}`
	viewGrep3    = `{"card":"search","shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}`
	viewGlobLog  = `{"card":"search","shape":"paths","paths":["tree/archive/a.ts","tree/docs/guide.md","tree/src/index.ts","tree/test/spec.ts"],"truncated":true,"total":8}`
	callGrep     = `{"card":"generic","title":"Grep x","kind":"search","rawInput":"x"}`
	callGlob     = `{"card":"generic","title":"Glob * in tree","kind":"search","rawInput":"*"}`
	callRunCode  = `{"card":"generic","title":"Run two echo commands and join outputs","kind":"execute","rawInput":"return 1"}`
	globLogText  = `tree/archive/a.ts\ntree/docs/guide.md\ntree/src/index.ts\ntree/test/spec.ts\n\n(Showing 4 of 8 paths, sampled across 4 of the 6 top-level entries this pattern matched instead of taken in modification-time order. Narrow path to inspect a specific subtree. The complete result could not be saved; narrow pattern or path to see more.)`
	header       = `{"type":"session","version":0,"id":"4428b809-66d5-4ea2-9a03-89de742fcda1","createdAt":1785591986068,"cwd":"{{cwd}}","delegationDepth":0}`
	dispatchArgs = `"rootCallId":"call_00_UiQPVqoELyzBZCY5pm1z7875","parentCallId":"call_00_UiQPVqoELyzBZCY5pm1z7875","subCallId":"call_00_UiQPVqoELyzBZCY5pm1z7875:code:1","name":"bash","arguments":{"command":"echo CODE_ONE","description":"Print CODE_ONE"}`
	resultMsg    = `"message":{"source":{"kind":"tool","callId":"c1"},"content":[{"type":"tool-result","toolCallId":"c1","content":[{"type":"text","text":"captured output\nCODE_ONE+CODE_TWO"}],"isError":false}],"role":"user","id":"e40c6472-d68e-4be1-963f-edb0edc80d82"}`
)

type instances struct{ valid, invalid []string }

var schemaInstances = map[string]instances{
	"report-check-log": {
		valid: []string{checkLogReport},
		invalid: []string{
			strings.Replace(checkLogReport, `"level":"violation"`, `"level":"error"`, 1),
			strings.Replace(checkLogReport, `"dropped":0,"elapsedSeconds":0.1}]`, `"elapsedSeconds":0.1}]`, 1),
			strings.Replace(checkLogReport, `"version":1`, `"version":2`, 1),
		},
	},
	"report-fuzz": {
		valid: []string{fuzzReport, fuzzShardReport},
		invalid: []string{
			strings.Replace(fuzzReport, `"format":"conform-fuzz"`, `"format":"conform-run"`, 1),
			strings.Replace(fuzzReport, `"version":1`, `"version":2`, 1),
			strings.Replace(fuzzReport, `,"xpass":0},`+"\n", `},`+"\n", 1),                                             // totals miss a verdict
			strings.Replace(fuzzReport, `"verdict":"fail"}`, `"verdict":"pass"}`, 1),                                   // a passing finding
			strings.Replace(fuzzReport, `"verdict":"crash"}`, `"verdict":"crash","field":"content"}`, 1),               // a fault has no field
			strings.Replace(fuzzReport, `"broken":["CODE-RENDER-1"],"diffs":[`, `"broken":["CODE-RENDER-1"],"x":[`, 1), // a mismatch without diffs
			strings.Replace(fuzzReport, `"message":"adapter exited",`, ``, 1),                                          // a fault without message
			strings.Replace(fuzzReport, `"input":{"run":{"logs":[""]}}`, `"input":"{\"run\":{\"logs\":[\"\"]}}"`, 1),   // the input as a string
			strings.Replace(fuzzReport, `"caseSeed":7,`, `"caseSeed":18446744073709551616,`, 1),                        // not a uint64
			strings.Replace(fuzzReport, `"comparator":"exact"`, `"comparator":"fuzzy"`, 1),                             // the run report's diff
			strings.Replace(fuzzReport, `/fuzz-0123456789ab","fixture"`, `/fuzz-0123","fixture"`, 1),                   // saved ID
			strings.Replace(fuzzReport, `"perOp":[`, `"perOps":[`, 1),
			strings.Replace(fuzzShardReport, `"count":2}`, `"count":1}`, 1),
			strings.Replace(fuzzShardReport, `"interrupted":true`, `"interrupted":false`, 1),
			strings.Replace(fuzzShardReport, `"jobs":1`, `"jobs":0`, 1),
			strings.Replace(fuzzShardReport, `"ops":["spill.preview"]`, `"ops":[]`, 1),
		},
	},
	"search-meta": {
		valid: []string{
			metaGrep3,
			metaGlobLog,
			`{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"one"},{"lineNumber":2,"line":"two"}]}],"truncated":true,"total":3}`,
			`{"shape":"matches","files":[],"truncated":false,"total":0}`,
			`{"shape":"matches","files":[],"truncated":true,"total":0}`,
			`{"shape":"paths","paths":[],"truncated":false,"total":0}`,
			`{"shape":"paths","paths":["vendor/a.ts","src/d.ts","guide/e.md"],"truncated":true,"total":6}`,
			`{"shape":"matches","files":[{"path":"a.txt","matches":[{"lineNumber":1,"line":"aéaéa (line truncated)"}]}],"truncated":false,"total":1}`,
			`{"shape":"paths","paths":["日本/ファイル.ts","a<b>&c.ts","x` + "\u2028" + `y"],"truncated":false,"total":3}`,
		},
		invalid: []string{
			`{"kind":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"}]}],"truncated":false,"total":1}`,
			`{"shape":"paths","paths":["a"],"truncated":false,"total":1,"extra":1}`,
			`{"shape":"paths","paths":["a"],"truncated":false,"total":1,"title":"T"}`,
			`{"shape":"matches","files":[],"truncated":false,"total":-1}`,
			`{"shape":"paths","paths":[],"truncated":false,"total":2.5}`,
			`{"shape":"paths","paths":[],"truncated":false,"total":1e400}`,
			`{"shape":"paths","paths":[],"truncated":false,"total":"0"}`,
			`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1.5,"line":"x"}]}],"truncated":false,"total":1}`,
			`{"shape":"matches","files":[{"path":"a","matches":[{"lineNumber":1,"line":"x","extraM":true}]}],"truncated":false,"total":1}`,
			`{"shape":"matches","files":[{"path":"a","matches":[]}],"truncated":false,"total":0}`,
			`{"shape":"paths","files":[],"truncated":false,"total":0}`,
			`{"shape":"Paths","paths":[],"truncated":false,"total":0}`,
			`{"shape":"paths","paths":[],"total":0}`,
			`{"shape":"paths","paths":[],"truncated":"false","total":0}`,
			`{"shape":"paths","paths":[1],"truncated":false,"total":1}`,
			`null`, `[]`, `"nope"`,
		},
	},
	"search-result-view": {
		valid: []string{
			viewGrep3,
			viewGlobLog,
			`{"card":"search","shape":"paths","paths":["a.ts"],"truncated":false,"total":1}`,
			`{"card":"search","shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"x"}]}],"truncated":true,"total":5}`,
			`{"card":"search","shape":"matches","files":[],"truncated":false,"total":0}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":0}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":-3}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":2.5}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":1e400}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":null}`,
			`{"card":"search","shape":"paths","paths":["a","b","c"],"truncated":false,"total":1}`,
			`{"card":"search","shape":"matches","files":[{"path":"a","matches":[]}],"truncated":false,"total":0}`,
			`{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":-1.5,"line":"x"}]}],"truncated":false,"total":1}`,
			`{"card":"search","shape":"matches","files":[{"path":"a","extraF":1,"matches":[{"lineNumber":1,"line":"x","extraM":true}]}],"truncated":false,"total":1}`,
		},
		invalid: []string{
			`{"card":"search","shape":"paths","paths":["a"],"truncated":false,"total":1,"extra":1}`,
			`{"card":"search","shape":"paths","paths":["a"],"truncated":false,"total":1,"title":"T"}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":0,"content":"x"}`,
			`{"card":"other","shape":"paths","paths":[],"truncated":false,"total":0}`,
			`{"shape":"paths","paths":[],"truncated":false,"total":0}`,
			`{"card":"search","kind":"paths","paths":[],"truncated":false,"total":0}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":false,"total":"0"}`,
			`{"card":"search","shape":"paths","paths":[],"truncated":0,"total":0}`,
			`{"card":"search","shape":"paths","paths":[null],"truncated":false,"total":1}`,
			`{"card":"search","shape":"paths","files":[],"truncated":false,"total":0}`,
			`{"card":"search","shape":"matches","files":[null],"truncated":false,"total":1}`,
			`{"card":"search","shape":"matches","files":[{"path":"a"}],"truncated":false,"total":1}`,
			`{"card":"search","shape":"matches","files":[{"path":"a","matches":[{"lineNumber":"1","line":"x"}]}],"truncated":false,"total":1}`,
		},
	},
	"generic-call-view": {
		valid: []string{
			callGrep, callGlob, callRunCode,
			`{"card":"generic","title":"Grep todo in src (*.ts)","kind":"search","rawInput":"todo"}`,
			`{"card":"generic","title":"Grep  in  ()","kind":"search","rawInput":""}`,
			`{"card":"generic","title":"   ","kind":"execute","rawInput":"return 1"}`,
		},
		invalid: []string{
			`{"card":"generic","title":"Grep x","kind":"read","rawInput":"x"}`,
			`{"card":"search","title":"Grep x","kind":"search","rawInput":"x"}`,
			`{"card":"generic","title":"Grep x","kind":"search"}`,
			`{"card":"generic","kind":"search","rawInput":"x"}`,
			`{"card":"generic","title":"Grep x","kind":"search","rawInput":"x","content":"x"}`,
		},
	},
	"op-grep.result.input": {
		valid: []string{
			`{"args":{"pattern":"x"},"value":{"matches":[{"path":"b.ts","lineNumber":2,"line":"x"},{"path":"a.ts","lineNumber":1,"line":"y"}]}}`,
			`{"args":{"pattern":"x"},"value":{"matches":[]},"config":{"maxMatches":2,"maxLineBytes":2000,"maxMetaBytes":65536},"spill":{"saved":true,"locator":"/spill/session-ab12/x1y2-grep-results.txt","retrievalHint":"Use read with offset/limit, or grep this path to search within it."}}`,
			`{"args":"not an object","value":{"matches":[]},"config":{"maxMatches":-1.5,"maxLineBytes":0},"spill":{"saved":false},"nested":true}`,
			`{"args":null,"value":{"matches":[]},"config":{}}`,
			`{"args":{},"value":{"matches":[{"path":"a","lineNumber":"1","line":"x"}]},"tool":"grep"}`,
		},
		invalid: []string{
			`{"args":{"pattern":"x"}}`,
			`{"value":{"matches":[]}}`,
			`{"args":{},"value":{"matches":[]},"nested":"yes"}`,
			`{"args":{},"value":{"matches":[]},"spill":{"saved":1}}`,
		},
	},
	"op-grep.result.output": {
		valid: []string{
			`{"isError":false,"content":"Found 3 matches\n\nb.ts\nLine 2: x\nLine 5: z\n\na.ts\nLine 1: y","error":null,"meta":` + metaGrep3 + `,"view":` + viewGrep3 + `,"callView":` + callGrep + `,"spillText":null}`,
			`{"isError":false,"content":"Found 2 of 3 matches\n\na.ts\nLine 1: one\nLine 2: two\n\n(Full grep result stored at: /spill/x. hint)","error":null,"meta":{"shape":"matches","files":[{"path":"a.ts","matches":[{"lineNumber":1,"line":"one"},{"lineNumber":2,"line":"two"}]}],"truncated":true,"total":3},"view":null,"callView":` + callGrep + `,"spillText":"Found 3 matches\n\na.ts\nLine 1: one\nLine 2: two\n\nb.ts\nLine 3: three"}`,
			`{"isError":false,"content":"No matches found","error":null,"meta":null,"view":null,"callView":null,"spillText":null}`,
			`{"isError":true,"content":"Error: pattern must be a non-empty string","error":null,"meta":null,"view":null,"callView":{"card":"generic","title":"Grep ","kind":"search","rawInput":""},"spillText":null}`,
			`{"isError":true,"content":"Error: invalid arguments: missing required property \"pattern\"","error":{"name":"ToolArgsError","code":"INVALID_ARGS"},"meta":null,"view":null,"callView":null,"spillText":null}`,
		},
		invalid: []string{
			`{"isError":true,"content":"Error: x","error":null,"meta":` + metaGrep3 + `,"view":null,"callView":null,"spillText":null}`,
			`{"isError":true,"content":"Error: x","error":null,"meta":null,"view":` + viewGrep3 + `,"callView":null,"spillText":null}`,
			`{"isError":false,"content":"x","error":null,"meta":` + metaGlobLog + `,"view":null,"callView":null,"spillText":null}`,
			`{"isError":false,"content":"x","error":null,"meta":null,"view":` + viewGlobLog + `,"callView":null,"spillText":null}`,
			`{"isError":false,"content":"x","error":null,"meta":null,"view":null,"callView":null}`,
			`{"isError":false,"content":"x","error":{"name":"SearchError"},"meta":null,"view":null,"callView":null,"spillText":null}`,
			`{"isError":false,"content":"x","error":null,"meta":null,"view":null,"callView":` + callRunCode + `,"spillText":null}`,
			`{"isError":false,"content":["x"],"error":null,"meta":null,"view":null,"callView":null,"spillText":null}`,
		},
	},
	"op-glob.result.input": {
		valid: []string{
			`{"args":{"pattern":"*","path":"tree"},"value":{"root":"tree","paths":["tree/z/1","tree/z/2"]},"config":{"maxResults":4,"sampleOverCap":true}}`,
			`{"args":{"pattern":"*"},"value":{"root":".","paths":[]},"config":{"sampleOverCap":false},"spill":{"saved":false},"nested":false}`,
			`{"args":{},"value":{"root":".","paths":[]},"config":{}}`,
			`{"args":{},"value":{"root":".","paths":[]},"config":{"maxResults":0,"maxMetaBytes":1e400,"sampleOverCap":true}}`,
		},
		invalid: []string{
			`{"args":{},"value":{"root":".","paths":[]}}`,
			`{"args":{},"value":{"root":".","paths":[]},"config":{"sampleOverCap":true},"spill":[]}`,
		},
	},
	"op-glob.result.output": {
		valid: []string{
			`{"isError":false,"content":"` + globLogText + `","error":null,"meta":` + metaGlobLog + `,"view":` + viewGlobLog + `,"callView":` + callGlob + `,"spillText":null}`,
			`{"isError":false,"content":"No files found","error":null,"meta":{"shape":"paths","paths":[],"truncated":false,"total":0},"view":{"card":"search","shape":"paths","paths":[],"truncated":false,"total":0},"callView":` + callGlob + `,"spillText":null}`,
			`{"isError":true,"content":"Error: glob search failed (exit 2)","error":{"name":"SearchError","code":"SEARCH_FAILED"},"meta":null,"view":null,"callView":` + callGlob + `,"spillText":null}`,
		},
		invalid: []string{
			`{"isError":false,"content":"x","error":null,"meta":` + metaGrep3 + `,"view":null,"callView":null,"spillText":null}`,
			`{"isError":true,"content":"Error: x","error":null,"meta":null,"view":null,"callView":null,"spillText":"a.ts"}`,
			`{"isError":false,"content":"x","error":null,"meta":{"kind":"paths","paths":[],"truncated":false,"total":0},"view":null,"callView":null,"spillText":null}`,
		},
	},
	"op-search.present.input": {
		valid: []string{
			`{"tool":"grep","args":{"pattern":"x"},"result":{"isError":false,"meta":` + metaGrep3 + `}}`,
			`{"tool":"glob","result":{"isError":false}}`,
			`{"tool":"glob","args":{"pattern":1},"result":{"isError":true,"meta":"nope"}}`,
			`{"tool":"grep","args":null,"result":{"isError":false,"meta":{"kind":"matches","files":[],"truncated":false,"total":0}}}`,
			`{"tool":"grep","result":{"meta":null}}`,                  // isError absent is false (docs/ops.md)
			`{"tool":"grep","result":{"isError":null,"meta":"nope"}}`, // and so is null
		},
		invalid: []string{
			`{"tool":"read","result":{"isError":false}}`,
			`{"tool":"grep"}`,
			`{"tool":"grep","result":{"isError":"no"}}`,
		},
	},
	"op-search.present.output": {
		valid:   []string{`{"view":null}`, `{"view":` + viewGlobLog + `}`, `{"view":` + viewGrep3 + `}`},
		invalid: []string{`{}`, `{"view":` + metaGlobLog + `}`, `{"view":null,"callView":null}`},
	},
	"op-run_code.result.input": {
		valid: []string{
			`{"args":{"code":"return 1","description":"d"},"run":{"logs":["printed"],"result":"returned"}}`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":["a","b"],"result":{"x":1}}}`,
			`{"args":null,"run":{"logs":[]}}`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":[],"result":null}}`,
			`{"args":{"code":"x","description":"d"},"run":{"logs":["captured before failure"],"error":{"kind":"output-limit","message":"outer output exceeded 8 bytes"}}}`,
			`{"args":{},"run":{"logs":[],"error":{"kind":"crash"},"value":1}}`,
		},
		invalid: []string{
			`{"args":{},"run":"logs"}`,
			`{"args":{}}`,
		},
	},
	"op-run_code.result.output": {
		valid: []string{
			`{"isError":false,"content":"printed\nreturned","error":null,"meta":null,"view":null,"callView":` + callRunCode + `}`,
			`{"isError":true,"content":"Error: code run failed (abort): user-cancel","error":{"name":"CodeRunFailedError","code":"CODE_RUN_FAILED"},"meta":null,"view":null,"callView":` + callRunCode + `}`,
			`{"isError":true,"content":"Error: invalid arguments: missing required property \"description\"","error":{"name":"ToolArgsError","code":"INVALID_ARGS"},"meta":null,"view":null,"callView":null}`,
		},
		invalid: []string{
			`{"isError":false,"content":"printed","error":null,"meta":{"logs":["printed"]},"view":null,"callView":null}`,
			`{"isError":false,"content":"printed","error":null,"meta":null,"view":{"card":"generic"},"callView":null}`,
			`{"isError":false,"content":"x","error":null,"meta":null,"view":null,"callView":` + callGrep + `}`,
			`{"isError":false,"content":"x","error":null,"meta":null,"view":null}`,
		},
	},
	"op-retain.items.input": {
		valid: []string{
			`{"strategy":{"kind":"head","maxItems":2},"items":["a","b","c","d"]}`,
			`{"strategy":{"kind":"head","maxItems":0},"items":["a"]}`,
			`{"strategy":{"kind":"head","maxItems":-1},"items":[]}`,
			`{"strategy":{"kind":"head","maxItems":1.5},"items":[{"x":1},null,[2]]}`,
		},
		invalid: []string{
			`{"strategy":{"kind":"tail","maxItems":2},"items":[]}`,
			`{"strategy":{"kind":"head","maxItems":2},"items":"abc"}`,
			`{"items":[]}`,
		},
	},
	"op-retain.items.output": {
		valid: []string{
			`{"items":["a","b"],"truncated":true,"seen":4,"kept":2,"omitted":{"kind":"exact","count":2},"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true},{"kept":false,"truncated":true}]}`,
			`{"items":[],"truncated":false,"seen":0,"kept":0,"omitted":{"kind":"none"},"pushes":[]}`,
		},
		invalid: []string{
			`{"items":[],"truncated":true,"seen":1,"kept":0,"omitted":{"kind":"unknown"},"pushes":[{"kept":false,"truncated":true}]}`,
			`{"items":[],"truncated":false,"seen":0,"kept":0,"omitted":{"kind":"none","count":0},"pushes":[]}`,
			`{"items":[],"truncated":false,"seen":-1,"kept":0,"omitted":{"kind":"none"},"pushes":[]}`,
			`{"items":[],"truncated":false,"seen":0,"kept":0,"omitted":{"kind":"none"}}`,
		},
	},
	"op-retain.text.input": {
		valid: []string{
			`{"strategy":{"kind":"head","maxBytes":5},"chunks":["abc","de","fgh"]}`,
			`{"strategy":{"kind":"tail","maxBytes":4},"chunks":["hello","world"]}`,
			`{"strategy":{"kind":"headTail","headBytes":3,"tailBytes":3},"chunks":["abcdefghij"]}`,
			`{"strategy":{"kind":"head","maxBytes":10},"chunksBase64":["4oJB"]}`,
			`{"strategy":{"kind":"head","maxBytes":10},"chunksBase64":["ww==","qQ=="]}`,
			`{"strategy":{"kind":"headTail","headBytes":-1,"tailBytes":-2},"chunks":[]}`,
		},
		invalid: []string{
			`{"strategy":{"kind":"head","maxBytes":5},"chunks":["a"],"chunksBase64":["YQ=="]}`,
			`{"strategy":{"kind":"head","maxBytes":5}}`,
			`{"strategy":{"kind":"middle","maxBytes":5},"chunks":[]}`,
			`{"strategy":{"kind":"head","maxBytes":5},"chunksBase64":["not base64!"]}`,
			`{"strategy":{"kind":"head","maxBytes":5},"chunks":[1]}`,
		},
	},
	"op-retain.text.output": {
		valid: []string{
			`{"text":"abcde","truncated":true,"omittedBytes":{"kind":"exact","count":3},"pushes":[{"kept":true,"truncated":false},{"kept":true,"truncated":false},{"kept":false,"truncated":true}]}`,
			`{"text":"","truncated":false,"omittedBytes":{"kind":"none"},"pushes":[]}`,
		},
		invalid: []string{
			`{"text":"abcde","truncated":true,"pushes":[]}`,
			`{"text":null,"truncated":false,"omittedBytes":{"kind":"none"},"pushes":[]}`,
			`{"text":"","truncated":false,"omittedBytes":{"kind":"exact","count":-1},"pushes":[]}`,
		},
	},
	"op-spill.preview.input": {
		valid: []string{
			`{"text":"xxxxx","maxInlineBytes":4,"ref":{"locator":"/spill/big.txt","retrievalHint":"Use the stub retrieval path."}}`,
			`{"blocks":[{"type":"text","text":"a"},{"type":"image"}],"maxInlineBytes":1,"toolName":"read","arm":"dispatch"}`,
			`{"text":"a","maxInlineBytes":-1}`,
			`{"text":"a","maxInlineBytes":1.5,"arm":"result"}`,
			`{"text":null,"blocks":[{"type":"text","text":null}],"maxInlineBytes":1,"ref":null,"toolName":null,"arm":null}`, // null reads as absent
			`{"text":"a","blocks":null,"maxInlineBytes":1}`,
		},
		invalid: []string{
			`{"text":"a","blocks":[],"maxInlineBytes":1}`,
			`{"maxInlineBytes":1}`,
			`{"text":null,"blocks":null,"maxInlineBytes":1}`,
			`{"text":"a","maxInlineBytes":1,"arm":"model"}`,
			`{"text":"a","maxInlineBytes":1,"ref":{"locator":"/spill/big.txt"}}`,
			`{"blocks":[{"text":"a"}],"maxInlineBytes":1}`,
		},
	},
	"op-spill.preview.output": {
		valid: []string{
			`{"content":null,"save":null}`,
			`{"content":"(Omitted 1000 bytes. Full formatted result stored at: /spill/big.txt. Use the stub retrieval path.)","save":{"label":"result","suggestedName":"tool.txt","text":"aaaa"}}`,
			`{"content":null,"save":{"label":"dispatch","suggestedName":"bash.txt","text":"xxxxx"}}`,
		},
		invalid: []string{
			`{"content":null}`,
			`{"content":null,"save":{"label":"model","suggestedName":"x.txt","text":"x"}}`,
			`{"content":null,"save":{"label":"result","text":"x"}}`,
			`{"content":["x"],"save":null}`,
		},
	},
	"log-header": {
		valid: []string{
			header,
			`{"type":"session","version":0,"id":"old","createdAt":1783352099834}`,
			`{"type":"session","version":0,"id":"child","createdAt":0,"cwd":"/w","parentSession":"parent","seedLength":3,"origin":"subagent","delegationDepth":1,"agentPreset":"explore"}`,
		},
		invalid: []string{
			`{"type":"session","version":1,"id":"x","createdAt":0,"delegationDepth":0}`,
			`{"type":"session","version":0,"id":"x","createdAt":-1,"delegationDepth":0}`,
			`{"type":"session","version":0,"id":"x","createdAt":1.5,"delegationDepth":0}`,
			`{"type":"session","version":0,"id":"x","createdAt":9007199254740992,"delegationDepth":0}`,
			`{"type":"session","version":0,"id":"x","createdAt":0,"delegationDepth":0,"origin":"user"}`,
			`{"type":"session","version":0,"id":"x","createdAt":0,"delegationDepth":0,"sandboxMode":"off"}`,
			`{"type":"session","version":0,"createdAt":0,"delegationDepth":0}`,
			`{"type":"tool/call","seq":0,"time":0,"data":{}}`,
		},
	},
	"log-event": {
		valid: []string{
			`{"type":"tool/call","seq":61,"time":1785815911849,"data":{"turn":1,"step":1,"callId":"c","name":"glob","arguments":"{}"}}`,
			`{"type":"tool/result","seq":62,"time":1785815911873,"data":{},"sourceEventSeqs":[61],"surfaceOp":"append"}`,
			`{"type":"tool/result","seq":70,"time":1785815911873,"data":{},"sourceEventSeqs":[62],"surfaceOp":{"op":"replace","start":62,"end":62}}`,
			`{"type":"user/message","seq":3,"time":1,"data":{},"surfaceOp":"append"}`,
			`{"type":"vendor/extension","seq":4,"time":1,"data":{"x":1},"ignorable":true}`,
		},
		invalid: []string{
			`{"type":"tool/call","seq":61,"time":1,"data":{},"surfaceOp":"append"}`,
			`{"type":"tool/code-dispatch","seq":61,"time":1,"data":{},"sourceEventSeqs":[60]}`,
			`{"type":"tool/call","time":1,"data":{}}`,
			`{"type":"tool/call","seq":1.5,"time":1,"data":{}}`,
			`{"type":"tool/call","seq":1,"time":1,"data":"x"}`,
			`{"type":"tool/result","seq":1,"time":1,"data":{},"surfaceOp":"prepend"}`,
			`{"type":"tool/result","seq":1,"time":1,"data":{},"surfaceOp":{"op":"replace","start":0}}`,
			`{"type":"x/y","seq":1,"time":1,"data":{},"ignorable":false}`,
			`{"type":"tool/call","seq":1,"time":1,"data":{},"extra":1}`,
			`{"type":"text-chunks","seq0":108,"time0":1785591990470,"data":{"turn":1,"step":2,"index":1,"dt":[],"texts":["G"]}}`,
			`{"type":"text-chunks","seq":108,"time":1785591990470,"data":{}}`,
		},
	},
	"log-packed-chunks": {
		valid: []string{
			`{"type":"text-chunks","seq0":108,"time0":1785591990470,"data":{"turn":1,"step":2,"index":1,"dt":[0,0,48,0,8],"texts":["G","LOB","_S","AM","PL","ED"]}}`,
			`{"type":"reasoning-chunks","seq0":9,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["The"]}}`,
			`{"type":"tool-call-chunks","seq0":38,"time0":1785591988090,"data":{"turn":1,"step":1,"index":1,"dt":[0],"id":"call_00_1cLZjkCW0vxVw0e3xVfh3430","name":"glob","args":["","{}"]}}`,
			`{"type":"tool-call-chunks","seq0":38,"time0":1,"data":{"turn":1,"step":1,"index":1,"dt":[],"id":"c","args":["{}"]}}`,
		},
		invalid: []string{
			`{"type":"text-chunks","seq0":108,"time0":1,"data":{"turn":1,"step":2,"index":1,"dt":[],"texts":[]}}`,
			`{"type":"image-chunks","seq0":108,"time0":1,"data":{"turn":1,"step":2,"index":1,"dt":[],"texts":["x"]}}`,
			`{"type":"text-chunks","seq":108,"time0":1,"data":{"turn":1,"step":2,"index":1,"dt":[],"texts":["x"]}}`,
			`{"type":"tool-call-chunks","seq0":38,"time0":1,"data":{"turn":1,"step":1,"index":1,"dt":[],"args":["{}"]}}`,
			`{"type":"text-chunks","seq0":108,"time0":1,"data":{"turn":1,"step":2,"index":1,"dt":[],"args":["x"]}}`,
		},
	},
	"log-tool-call": {
		valid: []string{
			`{"turn":1,"step":1,"callId":"call_00_1cLZjkCW0vxVw0e3xVfh3430","name":"glob","arguments":"{\"pattern\": \"*\", \"path\": \"tree\"}"}`,
		},
		invalid: []string{
			`{"turn":1,"step":1,"callId":"c","name":"glob","arguments":{"pattern":"*"}}`,
			`{"turn":1,"step":1,"name":"glob","arguments":"{}"}`,
			`{"turn":1,"step":1,"callId":"c","name":"glob","arguments":"{}","meta":{}}`,
		},
	},
	"log-tool-result": {
		valid: []string{
			`{"turn":1,"step":1,` + resultMsg + `}`,
			`{"turn":1,"step":1,` + resultMsg + `,"meta":` + metaGlobLog + `}`,
			`{"turn":1,"step":3,"message":{"source":{"kind":"tool","callId":"c"},"content":[{"type":"tool-result","toolCallId":"c","content":[{"type":"text","text":"Error: cannot read \"{{cwd}}/deleted.txt\": not found"}],"isError":true}],"role":"user","id":"660e8735"},"error":{"name":"FsError","code":"FS_NOT_FOUND"}}`,
			`{"turn":1,"step":1,"callId":"call_00_6VNoF1gDSerTBKoCfYSH3765","content":[{"type":"text","text":"{}"}],"isError":false}`,
			`{"turn":1,"step":1,"callId":"c","content":[{"type":"text","text":"Error: x"}],"isError":true,"error":{"name":"X","code":"Y"},"meta":null}`,
			`{"step":1,"turn":1,"error":{"code":"TOOL_NOT_STARTED","name":"ToolNotStartedError"},"message":{"id":"interrupted-tool-result-c-9","role":"user","content":[{"isError":true,"content":[{"text":"The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.","type":"text"}],"toolCallId":"c","type":"tool-result"}],"source":{"callId":"c","kind":"tool"}}}`,
			`{"turn":1,"step":1,"callId":"c","content":[{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":false}`,
		},
		invalid: []string{
			`{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"c"},"content":[],"role":"user","id":"m"}}`,
			`{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"c"},"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false},{"type":"tool-result","toolCallId":"c","content":[],"isError":false}],"role":"user","id":"m"}}`,
			`{"turn":1,"step":1,` + resultMsg + `,"error":{"name":"X"}}`,
			`{"turn":1,"step":1,` + resultMsg + `,"callId":"c1"}`,
			`{"turn":1,"step":1,"message":{"source":{"kind":"tool","callId":"c"},"content":[{"type":"tool-result","toolCallId":"c","content":[],"isError":false}],"role":"assistant","id":"m"}}`,
			`{"turn":1,"step":1,"callId":"c","content":[{"type":"text","text":"x"}]}`,
			`{"turn":1,"step":1,"callId":"c","content":[{"type":"text"}],"isError":false}`,
			`{"turn":1,"step":1,"callId":"c","content":"x","isError":false}`,
		},
	},
	"log-code-dispatch-start": {
		valid: []string{
			`{` + dispatchArgs + `}`,
			`{"rootCallId":"r","parentCallId":"r","subCallId":"r:code:12","name":"read","arguments":{"file_path":"missing.txt"}}`,
		},
		invalid: []string{
			`{` + dispatchArgs + `,"isError":false}`,
			`{"rootCallId":"r","parentCallId":"r","subCallId":"r:code:0","name":"read","arguments":{}}`,
			`{"rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"read"}`,
			`{"rootCallId":"r","parentCallId":"r","subCallId":"r:code:1","name":"read","arguments":"{\"file_path\":\"a\"}"}`,
			`{"rootCallId":"","parentCallId":"r","subCallId":"r:code:1","name":"read","arguments":{}}`,
		},
	},
	"log-code-dispatch": {
		valid: []string{
			`{` + dispatchArgs + `,"isError":false,"content":[{"type":"text","text":"CODE_ONE\n"}]}`,
			`{"rootCallId":"r","parentCallId":"r","subCallId":"r:code:2","name":"read","arguments":{"file_path":"missing.txt"},"isError":true,"content":[{"type":"text","text":"Error: cannot read \"{{cwd}}/workspace/missing.txt\": not found"}]}`,
		},
		invalid: []string{
			`{` + dispatchArgs + `}`,
			`{` + dispatchArgs + `,"isError":"false","content":[]}`,
			`{` + dispatchArgs + `,"isError":false,"content":"CODE_ONE\n"}`,
			`{` + dispatchArgs + `,"isError":false,"content":[],"meta":{}}`,
		},
	},
}

var _ = Describe("schemas", func() {
	It("are exactly the expected set", func() {
		Expect(spec.SchemaNames()).To(Equal(schemaNames))
		Expect(schemaInstances).To(HaveLen(len(schemaNames)))
		entries, err := filepath.Glob("schemas/*.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(len(schemaNames)))
	})

	It("refuses unknown names", func() {
		_, err := spec.Schema("nope")
		Expect(err).To(MatchError(ContainSubstring(`no schema named "nope"`)))
		_, err = spec.Schema("search-meta.json")
		Expect(err).To(HaveOccurred())
	})

	for _, name := range schemaNames {
		Describe(name, func() {
			It("compiles and declares draft 2020-12 and its $id", func() {
				_, err := spec.Schema(name)
				Expect(err).NotTo(HaveOccurred())
				data, err := os.ReadFile(filepath.Join("schemas", name+".json"))
				Expect(err).NotTo(HaveOccurred())
				var doc map[string]any
				Expect(json.Unmarshal(data, &doc)).To(Succeed())
				Expect(doc).To(HaveKeyWithValue("$schema", "https://json-schema.org/draft/2020-12/schema"))
				Expect(doc).To(HaveKeyWithValue("$id", spec.SchemaBaseURL+name+".json"))
				Expect(doc["description"]).NotTo(BeEmpty())
			})

			It("accepts the valid instances", func() {
				cases := schemaInstances[name]
				Expect(cases.valid).NotTo(BeEmpty())
				for _, inst := range cases.valid {
					Expect(spec.ValidateJSON(name, []byte(inst))).To(Succeed(), "instance %s", inst)
				}
			})

			It("rejects the invalid instances", func() {
				cases := schemaInstances[name]
				Expect(cases.invalid).NotTo(BeEmpty())
				for _, inst := range cases.invalid {
					Expect(json.Valid([]byte(inst))).To(BeTrue(), "test instance is not JSON: %s", inst)
					err := spec.ValidateJSON(name, []byte(inst))
					Expect(err).To(HaveOccurred(), "instance %s", inst)
					var verr *spec.ValidationError
					Expect(errors.As(err, &verr)).To(BeTrue(), "not a validation failure: %v", err)
				}
			})
		})
	}

	It("names the schema and the instance path in validation errors", func() {
		err := spec.ValidateJSON("search-meta", []byte(`{"shape":"paths","paths":["a",7],"truncated":false,"total":1}`))
		var verr *spec.ValidationError
		Expect(errors.As(err, &verr)).To(BeTrue())
		Expect(verr.Schema).To(Equal("search-meta"))
		Expect(verr.Paths).To(ContainElement("/paths/1"))
		Expect(err.Error()).To(ContainSubstring("search-meta"))
		Expect(err.Error()).To(ContainSubstring("'/paths/1'"))
		var inner *jsonschema.ValidationError
		Expect(errors.As(err, &inner)).To(BeTrue())

		err = spec.ValidateJSON("log-tool-result", []byte(`{"turn":1,"step":1,"callId":"c","content":[{"type":"text","text":1}],"isError":false}`))
		Expect(err).To(MatchError(ContainSubstring("log-tool-result")))
		Expect(err).To(MatchError(ContainSubstring("'/content/0/text'")))
	})

	It("reports non-JSON instances with the schema name", func() {
		err := spec.ValidateJSON("log-header", []byte(`{"type":"session"`))
		Expect(err).To(MatchError(ContainSubstring("log-header")))
		var verr *spec.ValidationError
		Expect(errors.As(err, &verr)).To(BeFalse())
	})

	It("keeps numbers exact", func() {
		// 2^53+1 is not a safe integer; a float64 round trip would hide it.
		Expect(spec.ValidateJSON("log-header", []byte(`{"type":"session","version":0,"id":"x","createdAt":9007199254740993,"delegationDepth":0}`))).NotTo(Succeed())
	})
})

// logDataSchema maps the event types whose payload conform reads to the
// schema of their data member.
var logDataSchema = map[string]string{
	"tool/call":                "log-tool-call",
	"tool/result":              "log-tool-result",
	"tool/code-dispatch-start": "log-code-dispatch-start",
	"tool/code-dispatch":       "log-code-dispatch",
}

// validateLogLine routes one JSONL line to its schemas and returns its kind
// ("session", "packed" or the event type).
func validateLogLine(line []byte) (string, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return "", err
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return "", fmt.Errorf("line is not an object")
	}
	typ, _ := obj["type"].(string)
	switch typ {
	case "session":
		return typ, spec.Validate("log-header", doc)
	case "text-chunks", "reasoning-chunks", "tool-call-chunks":
		return "packed", spec.Validate("log-packed-chunks", doc)
	}
	if err := spec.Validate("log-event", doc); err != nil {
		return typ, err
	}
	if name, ok := logDataSchema[typ]; ok {
		return typ, spec.Validate(name, obj["data"])
	}
	return typ, nil
}

var _ = Describe("digest log excerpts", func() {
	It("validate: the real lines of session-log.md §3.2", func() {
		text := readDigest("session-log.md")
		_, rest, ok := strings.Cut(text, "### 3.2")
		Expect(ok).To(BeTrue())
		section, _, ok := strings.Cut(rest, "### 3.3")
		Expect(ok).To(BeTrue())
		kinds := map[string]int{}
		for _, line := range strings.Split(section, "\n") {
			if !strings.HasPrefix(line, `{"type":`) {
				continue
			}
			kind, err := validateLogLine([]byte(line))
			Expect(err).NotTo(HaveOccurred(), "line %s", line)
			kinds[kind]++
		}
		Expect(kinds).To(Equal(map[string]int{
			"tool/call": 2, "tool/result": 4, "tool/code-dispatch-start": 3, "tool/code-dispatch": 3,
		}))
	})

	It("validate: the header and packed-row examples of LOG-2 and LOG-4", func() {
		text := readDigest("session-log.md")
		spans := regexp.MustCompile("`(\\{\"type\":\"(?:session|text-chunks)\".*?\\})`").FindAllStringSubmatch(text, -1)
		Expect(spans).To(HaveLen(2))
		for _, m := range spans {
			_, err := validateLogLine([]byte(m[1]))
			Expect(err).NotTo(HaveOccurred(), "example %s", m[1])
		}
	})

	It("validate: the produced metas of search-card.md §10–§12", func() {
		text := readDigest("search-card.md")
		_, rest, ok := strings.Cut(text, "## 10.")
		Expect(ok).To(BeTrue())
		section, _, ok := strings.Cut(rest, "## 13.")
		Expect(ok).To(BeTrue())
		n := 0
		for _, m := range regexp.MustCompile("`(\\{\"shape\":[^`]*)`").FindAllStringSubmatch(section, -1) {
			if !json.Valid([]byte(m[1])) {
				continue // byte-count fragments such as `{"shape":"paths","paths":[`
			}
			Expect(spec.ValidateJSON("search-meta", []byte(m[1]))).To(Succeed(), "meta %s", m[1])
			n++
		}
		Expect(n).To(BeNumerically(">=", 9))
	})

	It("validate: the views of the narrowing table (search-card.md §13)", func() {
		text := readDigest("search-card.md")
		_, rest, ok := strings.Cut(text, "## 13.")
		Expect(ok).To(BeTrue())
		section, _, ok := strings.Cut(rest, "## 14.")
		Expect(ok).To(BeTrue())
		n := 0
		for _, m := range regexp.MustCompile("`(\\{\"card\":\"search\"[^`]*)`").FindAllStringSubmatch(section, -1) {
			if !json.Valid([]byte(m[1])) {
				continue // "[…same…]" placeholders
			}
			Expect(spec.ValidateJSON("search-result-view", []byte(m[1]))).To(Succeed(), "view %s", m[1])
			n++
		}
		Expect(n).To(Equal(3))
	})
})

var _ = Describe("real session logs", func() {
	It("validate line by line against their schemas", func() {
		requireDir(sessionsDir, "session logs")
		logs, err := filepath.Glob(filepath.Join(sessionsDir, "*.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(logs).NotTo(BeEmpty())
		kinds := map[string]int{}
		for _, path := range logs {
			f, err := os.Open(path)
			Expect(err).NotTo(HaveOccurred())
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			for n := 1; sc.Scan(); n++ {
				kind, err := validateLogLine(sc.Bytes())
				Expect(err).NotTo(HaveOccurred(), "%s:%d", filepath.Base(path), n)
				Expect(kind == "session").To(Equal(n == 1), "%s:%d: the header is the first line and only there", filepath.Base(path), n)
				kinds[kind]++
			}
			Expect(sc.Err()).NotTo(HaveOccurred())
			f.Close()
		}
		Expect(kinds["session"]).To(Equal(len(logs)))
		for _, k := range []string{"packed", "tool/call", "tool/result", "tool/code-dispatch-start", "tool/code-dispatch"} {
			Expect(kinds[k]).To(BeNumerically(">", 0), "no %s line was checked", k)
		}
		Expect(kinds).To(HaveKey("assistant/chunk"))
	})
})
