package logcheck_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 22: LOG-CHECK-CODE-7 (results.go isNestedID). A tool/call's id is
// a Code Mode sub-call id when a dispatch used it, or when it has the form
// <x>:code:<n> for a known run_code call x; an id of that form under a
// call that is not run_code, or under no known call, is an ordinary id.

// globRenamed is valid-base.jsonl with the glob call's id (seq 8, its
// result seq 9) replaced by id everywhere.
func globRenamed(id string) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	Expect(strings.Count(string(b), "call_glob")).To(Equal(4))
	return []byte(strings.ReplaceAll(string(b), "call_glob", id))
}

var _ = Describe("check-log's judge, sub-call ids on tool/call (issue 22)", func() {
	DescribeTable("accepts a <x>:code:<n> id whose x is no known run_code call",
		func(id string) {
			Expect(findings(globRenamed(id))).To(BeEmpty())
		},
		Entry("x unknown", "zzz:code:1"),
		Entry("x a finished grep call", "call_grep:code:1"),
		Entry("x a one-byte unknown id", "z:code:1"),
		Entry("not a sub-call number", "call_grep:code:01"),
		Entry("a colon without :code:", "call:glob"),
	)
})

// afterCode is valid-base.jsonl with the run_code call's id replaced by
// code everywhere, and a copy of the glob call and result with call id
// id inserted after the run_code result (seq 14, 15).
func afterCode(code, id string) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	Expect(lines).To(HaveLen(15)) // the text-chunks row holds seqs 3..5
	call := strings.NewReplacer(`"seq":8,`, `"seq":14,`, "call_glob", id).Replace(lines[7])
	res := strings.NewReplacer(`"seq":9,`, `"seq":15,`, "call_glob", id, `"sourceEventSeqs":[8]`, `"sourceEventSeqs":[14]`).Replace(lines[8])
	out := append(append([]string{}, lines[:13]...), call, res,
		strings.Replace(lines[13], `"seq":14,`, `"seq":16,`, 1),
		strings.Replace(lines[14], `"seq":15,`, `"seq":17,`, 1))
	return []byte(strings.ReplaceAll(strings.Join(out, "\n")+"\n", "call_code", code))
}

var _ = Describe("check-log's judge, sub-call ids of run_code calls of any id (issue 22)", func() {
	It("keeps the inserted call valid under an ordinary id", func() {
		Expect(findings(afterCode("call_code", "call_more"))).To(BeEmpty())
	})
	// <x>:code:<n> for a finished run_code call x is a sub-call id, whatever
	// x's spelling, one leading ':' included.
	for _, code := range []string{"call_code", ":c", "c"} {
		It("reports a tool/call "+code+":code:2 after run_code "+code+" finished", func() {
			log := afterCode(code, code+":code:2")
			got := findings(log)
			Expect(got).NotTo(BeEmpty())
			Expect(got[0]).To(HavePrefix("LOG-CHECK-CODE-7 violation"), "%q", got)
			for _, f := range got {
				Expect(f).To(HavePrefix("LOG-CHECK-CODE-7 "))
			}
		})
	}
})

var _ = Describe("check-log's judge, a dispatched sub-call id of any form (issue 22)", func() {
	// LOG-CHECK-CODE-7: an id a dispatch used as subCallId is a sub-call id
	// even when it does not have the <parent>:code:<n> form (itself a
	// LOG-CHECK-CODE-4 violation), so a tool/call under it is a nested card.
	It("reports a tool/call that reuses a malformed subCallId", func() {
		log := subThenCall(`"subCallId":"weird"`, "weird")
		got := findings(log)
		Expect(got).To(ContainElement(HavePrefix("LOG-CHECK-CODE-7 violation")), "%q", got)
		for _, f := range got {
			Expect(f).To(Or(HavePrefix("LOG-CHECK-CODE-7 "), HavePrefix("LOG-CHECK-CODE-4 ")), "%q", got)
		}
	})
	It("reports a tool/call whose id is <sub-call>:code:<n> of a known sub-call", func() {
		log := subThenCall(`"subCallId":"call_code:code:1"`, "call_code:code:1:code:1")
		got := findings(log)
		Expect(got).NotTo(BeEmpty())
		for _, f := range got {
			Expect(f).To(HavePrefix("LOG-CHECK-CODE-7 violation"), "%q", got)
		}
	})
})

// subThenCall is valid-base.jsonl with its dispatch pair's subCallId
// member written as sub, and a copy of the glob call and result with call
// id id inserted after the settle, while the run_code call is open.
func subThenCall(sub, id string) []byte {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	Expect(lines).To(HaveLen(15))
	call := strings.NewReplacer(`"seq":8,`, `"seq":13,`, "call_glob", id).Replace(lines[7])
	res := strings.NewReplacer(`"seq":9,`, `"seq":14,`, "call_glob", id, `"sourceEventSeqs":[8]`, `"sourceEventSeqs":[13]`).Replace(lines[8])
	out := append(append([]string{}, lines[:12]...), call, res,
		strings.Replace(lines[12], `"seq":13,`, `"seq":15,`, 1),
		strings.Replace(lines[13], `"seq":14,`, `"seq":16,`, 1),
		strings.Replace(lines[14], `"seq":15,`, `"seq":17,`, 1))
	return []byte(strings.ReplaceAll(strings.Join(out, "\n")+"\n", `"subCallId":"call_code:code:1"`, sub))
}
