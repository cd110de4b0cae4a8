package matrix_test

import (
	"bytes"
	"html"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// cellOf finds a row's cell in column i.
func cellOf(m *matrix.Matrix, id string, i int) matrix.Cell {
	GinkgoHelper()
	for _, a := range m.Areas {
		for _, r := range a.Rows {
			if r.ID == id {
				return r.Cells[i]
			}
		}
	}
	Fail("no row " + id)
	return matrix.Cell{}
}

func pageOf(m *matrix.Matrix) string {
	GinkgoHelper()
	var buf bytes.Buffer
	Expect(matrix.WriteHTML(&buf, m)).To(Succeed())
	return buf.String()
}

// htmlCell is the text of the page's cell of a requirement in a column.
func htmlCell(page, id, col string) string {
	GinkgoHelper()
	row := regexp.MustCompile(`(?s)<tr class="row" data-id="` + regexp.QuoteMeta(id) + `".*?</tr>`).FindString(page)
	Expect(row).NotTo(BeEmpty(), id)
	td := regexp.MustCompile(`(?s)<td [^>]*data-col="` + col + `"[^>]*>(.*?)</td>`).FindStringSubmatch(row)
	Expect(td).To(HaveLen(2), id)
	summary := regexp.MustCompile(`(?s)<summary>(.*?)</summary>`).FindStringSubmatch(td[1])
	text := td[1]
	if summary != nil {
		text = summary[1]
	}
	return html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(text, ""))
}

var _ = Describe("the matrix", func() {
	It("has a row per requirement, grouped by area, and a column per report", func() {
		m := build("reference", "number-go", "meta-ascii")
		Expect(m.Columns).To(HaveLen(3))
		n := 0
		for _, a := range m.Areas {
			for _, r := range a.Rows {
				q, ok := spec.Lookup(r.ID)
				Expect(ok).To(BeTrue())
				Expect(q.Area).To(Equal(a.Name))
				n++
			}
		}
		Expect(n).To(Equal(len(spec.IDs())))
		Expect(m.Columns[0].Conformant).To(BeTrue())
		Expect(m.Columns[1].Conformant).To(BeFalse())
	})

	It("counts each cell as the report's own requirement accounting does", func() {
		for _, name := range []string{"reference", "number-go", "meta-ascii"} {
			r, err := report.ReadRun(name, sampleReports()[name])
			Expect(err).NotTo(HaveOccurred())
			m := build(name)
			Expect(r.Requirements).To(HaveLen(len(spec.IDs())))
			for _, q := range r.Requirements {
				c := cellOf(m, q.ID, 0)
				Expect(c.Status).To(Equal(q.Status), name+" "+q.ID)
				Expect(c.Fail).To(Equal(q.Fail), name+" "+q.ID)
				Expect(c.Cases).To(HaveLen(q.Fail), name+" "+q.ID)
			}
		}
	})

	It("shows number-go failing CODE-NUM-1 with its cases, diffs, inputs and reproductions", func() {
		m := build("reference", "number-go")
		c := cellOf(m, "CODE-NUM-1", 1)
		Expect(c.Status).To(Equal(matrix.Failed))
		Expect(c.Fail).To(BeNumerically(">", 0))
		for _, k := range c.Cases {
			Expect(k.Diffs).NotTo(BeEmpty(), k.ID)
			Expect(k.Input).NotTo(BeEmpty(), k.ID)
			Expect(k.Reproduce).To(HavePrefix("conform run --run "), k.ID)
		}
		page := pageOf(m)
		Expect(htmlCell(page, "CODE-NUM-1", "c0")).To(HavePrefix("✓passed"))
		Expect(htmlCell(page, "CODE-NUM-1", "c1")).To(Equal("✗failed (" + strconv.Itoa(c.Fail) + " cases)"))
		Expect(page).To(ContainSubstring(html.EscapeString(c.Cases[0].Diffs[0])))
	})

	It("changes a cell when one case verdict in a report changes", func() {
		r, err := report.ReadRun("reference.json", sampleReports()["reference"])
		Expect(err).NotTo(HaveOccurred())
		i := -1
		for j, c := range r.Cases {
			if c.Verdict == verdict.Pass && len(c.Requirements) > 0 {
				i = j
				break
			}
		}
		Expect(i).NotTo(Equal(-1))
		id := r.Cases[i].Requirements[0]
		before, err := matrix.Build([]matrix.Input{{File: "r.json", Report: r}})
		Expect(err).NotTo(HaveOccurred())
		Expect(htmlCell(pageOf(before), id, "c0")).To(HavePrefix("✓passed"))

		r.Cases[i].Verdict, r.Cases[i].Message = verdict.Crash, "adapter exited (exit status 2)"
		var buf bytes.Buffer
		Expect(report.WriteRunJSON(&buf, r)).To(Succeed())
		changed, err := report.ReadRun("changed.json", buf.Bytes())
		Expect(err).NotTo(HaveOccurred())
		after, err := matrix.Build([]matrix.Input{{File: "changed.json", Report: changed}})
		Expect(err).NotTo(HaveOccurred())
		Expect(htmlCell(pageOf(after), id, "c0")).To(Equal("✗failed (1 case)"))
		Expect(after.Columns[0].Totals["crash"]).To(Equal(1))
		Expect(after.Columns[0].Conformant).To(BeFalse())
	})

	It("tells unsupported ops apart from not exercised", func() {
		r, err := report.ReadRun("reference.json", sampleReports()["reference"])
		Expect(err).NotTo(HaveOccurred())
		ops := map[string]map[string]bool{} // requirement → the ops citing it
		for _, c := range r.Cases {
			for _, q := range c.Requirements {
				if ops[q] == nil {
					ops[q] = map[string]bool{}
				}
				ops[q][c.Op] = true
			}
		}
		var id, op string
		for _, q := range spec.IDs() {
			if len(ops[q]) == 1 {
				for o := range ops[q] {
					id, op = q, o
				}
				break
			}
		}
		Expect(id).NotTo(BeEmpty())
		for j := range r.Cases {
			if r.Cases[j].Op == op {
				r.Cases[j].Verdict, r.Cases[j].Message = verdict.Unsupported, "the adapter does not list op "+op
			}
		}
		m, err := matrix.Build([]matrix.Input{{File: "r.json", Report: r}})
		Expect(err).NotTo(HaveOccurred())
		Expect(htmlCell(pageOf(m), id, "c0")).To(Equal("⊘unsupported"))
	})

	It("writes Markdown with the rows that differ and a badge per implementation", func() {
		m := build("reference", "number-go")
		var buf bytes.Buffer
		Expect(matrix.WriteMarkdown(&buf, m)).To(Succeed())
		Expect(buf.String()).To(ContainSubstring("| `CODE-NUM-1` MUST | ✓ passed | ✗ failed ("))
		Expect(strings.Count(buf.String(), "\n| `")).To(Equal(1))
		Expect(string(matrix.Badge(m.Columns[0]))).To(Equal(`{"schemaVersion":1,"label":"conform","message":"120/120 checked","color":"brightgreen"}` + "\n"))
		Expect(string(matrix.Badge(m.Columns[1]))).To(Equal(`{"schemaVersion":1,"label":"conform","message":"nonconformant","color":"red"}` + "\n"))
	})

	It("refuses an empty report list", func() {
		_, err := matrix.Build(nil)
		Expect(err).To(MatchError("matrix: no reports"))
	})
})
