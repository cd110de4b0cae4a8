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
	)
})
