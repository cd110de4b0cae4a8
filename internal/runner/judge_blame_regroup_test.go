package runner_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// blame.go regrouped (issue 22 item 3, the judge's survivors at 52:51 and
// 52:65): a meta file group whose path differs holds another file's
// matches, so every diff inside that group is the grouping's fault and
// blames what the path diff blames, not the preview of its lines.
var _ = Describe("the blame of a meta group holding another file (regrouped)", func() {
	It("gives a group's line diffs the blame of its path diff", func() {
		c := refCase("grep.result/judge-regrouped", "grep.result",
			`{"args":{"pattern":"x"},"value":{"matches":[{"path":"a.go","lineNumber":1,"line":"xa"},{"path":"b.go","lineNumber":2,"line":"xb"}]}}`,
			"SEARCH-META-2", "SEARCH-PREVIEW-1")
		rep := run([]runner.Case{c}, funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
			// The first group names b.go and holds b.go's line.
			meta := get(out, "meta")
			files, ok := get(meta, "files").Items()
			Expect(ok).To(BeTrue())
			Expect(files).To(HaveLen(2))
			rows, _ := get(files[0], "matches").Items()
			Expect(rows).To(HaveLen(1))
			g := append([]jsonjs.Value(nil), files...)
			g[0] = files[0].With("path", jsonjs.StringValue("b.go")).
				With("matches", jsonjs.ArrayValue(rows[0].With("line", jsonjs.StringValue("xb"))))
			return out.With("meta", meta.With("files", jsonjs.ArrayValue(g...)))
		}})
		r := rep.Cases[0]
		path := diffAt(r, "$.meta.files[0].path", runner.CmpJSON)
		line := diffAt(r, "$.meta.files[0].matches[0].line", runner.CmpJSON)
		Expect(path).NotTo(BeNil(), "%+v", r.Diffs)
		Expect(line).NotTo(BeNil(), "%+v", r.Diffs)
		Expect(path.Requirements).To(Equal([]string{"SEARCH-META-2"}))
		Expect(line.Requirements).To(Equal([]string{"SEARCH-META-2"}), "the line is in a group of another file")

		// The same line diff in a group whose path agrees is the preview's.
		rep = run([]runner.Case{c}, funcHarness{alter: func(_ string, _ []byte, out jsonjs.Value) jsonjs.Value {
			meta := get(out, "meta")
			files, _ := get(meta, "files").Items()
			rows, _ := get(files[0], "matches").Items()
			g := append([]jsonjs.Value(nil), files...)
			g[0] = files[0].With("matches", jsonjs.ArrayValue(rows[0].With("line", jsonjs.StringValue("xb"))))
			return out.With("meta", meta.With("files", jsonjs.ArrayValue(g...)))
		}})
		r = rep.Cases[0]
		Expect(diffAt(r, "$.meta.files[0].path", runner.CmpJSON)).To(BeNil())
		line = diffAt(r, "$.meta.files[0].matches[0].line", runner.CmpJSON)
		Expect(line).NotTo(BeNil(), "%+v", r.Diffs)
		Expect(line.Requirements).To(Equal([]string{"SEARCH-PREVIEW-1"}))
	})
})
