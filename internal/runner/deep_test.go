package runner_test

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// deepLevels is how deep deepHarness nests its answers' meta.
const deepLevels = 1_000_000

// deepArrays is [[…[]…]], levels deep: 2 bytes a level.
func deepArrays(levels int) string { return strings.Repeat("[", levels) + strings.Repeat("]", levels) }

// deepHarness is the reference answering every case with its output's
// "meta" replaced (or added) by deepArrays(deepLevels) (issue 23), spliced
// in as bytes. The test binary serves it as an adapter process when
// adapterEnv is "deep".
type deepHarness struct{}

func (deepHarness) Ops() []string { return reference.Ops() }

func (deepHarness) Run(op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	if err != nil {
		out = []byte(`{}`) // the golden answer is an error: answer an output
	}
	var b bytes.Buffer
	b.WriteByte('{')
	jsonjs.EachRawMember(out, func(k, v []byte) bool {
		if !jsonjs.RawKeyIs(k, "meta") {
			b.Write(k)
			b.WriteByte(':')
			b.Write(v)
			b.WriteByte(',')
		}
		return true
	})
	b.WriteString(`"meta":` + deepArrays(deepLevels) + "}")
	return b.Bytes(), nil
}

// allocated is the number of bytes f allocates (runtime.MemStats'
// TotalAlloc, garbage included): a cost independent of the machine's load.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// withMeta is the golden output of c with its meta replaced by meta.
func withMeta(c runner.Case, meta jsonjs.Value) jsonjs.Value {
	return c.Want.Output.With("meta", meta)
}

var _ = Describe("deep answers (issue 23)", func() {
	It("compares, excerpts and blames a meta nested 10^6 levels in a few bytes a level, keeping no whole copy", func() {
		// Before: the excerpt and the whole value were each a Marshal of
		// the meta (344 bytes a level), and kept in the diff.
		c := caseByID("grep.result/gen-001")
		out := withMeta(c, parse(deepArrays(deepLevels)))
		var diffs []runner.Diff
		Expect(allocated(func() { diffs = runner.Compare(c, &out, nil) }) / deepLevels).To(BeNumerically("<", 1)) // SizeAtLeast: no walk
		Expect(diffs).To(HaveLen(1))
		d := diffs[0]
		Expect(d.Path).To(Equal("$.meta"))
		Expect(d.Message).To(Equal("want an object, got an array"))
		Expect(d.GotJSON).To(BeNil())
		Expect(d.GotTooLarge).To(BeTrue())
		Expect(d.WantJSON).NotTo(BeNil())
		Expect(d.Got).To(Equal(strings.Repeat("[", 160) + "…"))
		Expect(d.Requirements).To(Equal(runner.Compare(c, ptr(withMeta(c, parse("[]"))), nil)[0].Requirements))
		text := report.DiffText(d)
		Expect(len(text)).To(BeNumerically("<", 2000))
		Expect(text).To(ContainSubstring("got (whole):  over 262144 bytes, too large to show whole; it starts [[["))
	})

	It("blames a list that gained a deep element as it blames one that gained a shallow one, in a few bytes a level", func() {
		// Before: blame parsed the diff's whole want and got texts again
		// to find the list lengths (361 bytes a level).
		c := caseByID("grep.result/grep-default-meta-cap-65536")
		meta, _ := c.Want.Output.Get("meta")
		files, _ := meta.Get("files")
		items, _ := files.Items()
		longer := func(extra jsonjs.Value) *jsonjs.Value {
			v := withMeta(c, meta.With("files", jsonjs.ArrayValue(append(append([]jsonjs.Value{}, items...), extra)...)))
			return &v
		}
		shallow := runner.Compare(c, longer(parse("[]")), nil)
		deep := longer(parse(deepArrays(deepLevels)))
		var diffs []runner.Diff
		Expect(allocated(func() { diffs = runner.Compare(c, deep, nil) }) / deepLevels).To(BeNumerically("<=", 8))
		Expect(diffs).NotTo(BeEmpty())
		Expect(diffs[0].Element).NotTo(BeNil())
		Expect(diffs[0].Path).To(Equal("$.meta.files"))
		Expect(diffs[0].Requirements).To(Equal(shallow[0].Requirements))
		Expect(diffs[0].Requirements).NotTo(BeEmpty())
	})

	It("measures a meta holding a value nested 10^6 levels against maxMetaBytes in what the cap costs, not the value", func() {
		// Before: SEARCH-CAP-5 took the meta's whole Size (a 16-byte frame
		// a level), and every property of the meta serialized it again.
		c := caseByID("grep.result/grep-default-meta-cap-65536")
		meta, _ := c.Want.Output.Get("meta")
		out := withMeta(c, meta.With("x", parse(deepArrays(deepLevels))))
		var diffs []runner.Diff
		Expect(allocated(func() { diffs = runner.CheckProperties(c.Op, parse(string(c.Input)), out) }) / deepLevels).To(BeNumerically("<=", 4))
		var msgs []string
		for _, d := range diffs {
			msgs = append(msgs, d.Requirements[0]+": "+d.Message)
			Expect(d.GotTooLarge).To(BeTrue())
		}
		Expect(msgs).To(Equal([]string{"SEARCH-CAP-5: the meta of 31 files is over 131073 bytes, over maxMetaBytes 65536"}))
	})

	It("runs cases answered with a meta nested 10^6 levels through an adapter process: they fail, with a bounded report that keeps no answer alive", func() {
		exe, err := os.Executable()
		Expect(err).NotTo(HaveOccurred())
		var cs []runner.Case
		for _, op := range []string{"grep.result", "glob.result", "run_code.result", "retain.items", "retain.text", "spill.preview", "search.present"} {
			cs = append(cs, caseByID(op+"/gen-001"))
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rep, err := runner.Run(context.Background(), cs, runner.Options{
			Jobs: 2,
			NewSession: func(ctx context.Context) (adapter.Session, error) {
				return adapter.Start(ctx, adapter.Config{Argv: []string{exe}, Env: append(os.Environ(), adapterEnv+"=deep")})
			},
		})
		Expect(err).NotTo(HaveOccurred())
		runtime.GC()
		runtime.ReadMemStats(&after)
		// Before, an unexpected member's name (the answer's "meta" where
		// the golden output has none) kept its answer's 2 MB text alive.
		Expect(int64(after.HeapAlloc)-int64(before.HeapAlloc)).To(BeNumerically("<", 2<<20), "bytes the results keep")
		rep.Finish(runner.Finishing{Cases: cs, All: cases()})
		Expect(rep.Totals[verdict.Fail]).To(Equal(len(cs)), "%v", rep.Totals)
		for _, r := range rep.Cases {
			Expect(r.Diffs).NotTo(BeEmpty(), r.ID)
			for _, d := range r.Diffs {
				Expect(len(d.WantJSON)+len(d.GotJSON)+len(d.Want)+len(d.Got)).To(BeNumerically("<", 4096), "%s %s", r.ID, d.Path)
			}
		}
		var text bytes.Buffer
		Expect(report.WriteRunText(&text, rep, report.RunText{})).To(Succeed())
		Expect(text.Len()).To(BeNumerically("<", 64<<10))
		Expect(text.String()).To(ContainSubstring("too large to show whole"))
	})
})

func ptr(v jsonjs.Value) *jsonjs.Value { return &v }
