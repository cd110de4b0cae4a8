package jsonjs_test

import (
	"runtime"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// allocated is the number of bytes f allocates (runtime.MemStats'
// TotalAlloc, which counts garbage too): a cost that does not depend on
// the machine's load.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// deepTexts and deepValues are the deep values of the specs below, made
// once: [[…1…]], [[…2…]], {"a":{…1…}}, {"a":{…2…}}.
var (
	deepOnce   sync.Once
	deepTexts  [4][]byte
	deepValues [4]jsonjs.Value
)

// Issue 23: a value nested a million levels deep costs a few dozen bytes a
// level to read, write and compare, not hundreds (before: Parse 361 bytes a
// level of [[…]], Marshal 344, Size 333, Differences 112 and 185 on
// objects; with trees of 24-byte nodes, Parse 67 and 118; on a tape of
// 48-byte spans, Parse 53 and 57; of 24-byte spans, Scan 26, Parse 28 and
// 32, Marshal 28 and 51, Differences 35 and 34, Equal 32).
var _ = Describe("the cost of deep values (issue 23)", func() {
	const depth = 1_000_000
	var arrays, objects []byte
	var a, a2, o, o2 jsonjs.Value
	BeforeEach(func() {
		deepOnce.Do(func() {
			deepTexts[0] = []byte(strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth))
			deepTexts[1] = []byte(strings.Repeat("[", depth) + "2" + strings.Repeat("]", depth))
			deepTexts[2] = []byte(strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth))
			deepTexts[3] = []byte(strings.Repeat(`{"a":`, depth) + "2" + strings.Repeat("}", depth))
			for i, t := range deepTexts {
				deepValues[i] = mustParse(string(t))
			}
		})
		arrays, objects = deepTexts[0], deepTexts[2]
		a, a2, o, o2 = deepValues[0], deepValues[1], deepValues[2], deepValues[3]
	})
	perLevel := func(f func()) uint64 { return allocated(f) / depth }

	It("scans [[…]] and {\"a\":{…}} lazily in one span a level (24 bytes), not a doubled tape's two", func() {
		var lz jsonjs.Lazy
		for _, text := range [][]byte{arrays, objects} {
			var ok bool
			Expect(perLevel(func() { ok = lz.Scan(text) })).To(BeNumerically("<=", 32))
			Expect(ok).To(BeTrue())
			Expect(len(lz.Root())).To(Equal(len(text)))
		}
	})

	It("parses [[…]] and {\"a\":{…}} in at most 40 bytes a level (a tape's span, 24, and the text)", func() {
		var v jsonjs.Value
		Expect(perLevel(func() { v, _ = jsonjs.Parse(arrays) })).To(BeNumerically("<=", 40))
		Expect(v.Kind()).To(Equal(jsonjs.Array))
		Expect(perLevel(func() { v, _ = jsonjs.Parse(objects) })).To(BeNumerically("<=", 40))
		Expect(v.Kind()).To(Equal(jsonjs.Object))
	})

	It("writes and measures them in at most 40 and 24 bytes a level", func() {
		var out []byte
		Expect(perLevel(func() { out = jsonjs.Marshal(a) })).To(BeNumerically("<=", 40))
		Expect(out).To(Equal(arrays))
		Expect(perLevel(func() { out = jsonjs.Marshal(o) })).To(BeNumerically("<=", 60))
		Expect(out).To(Equal(objects))
		n := 0
		Expect(perLevel(func() { n = jsonjs.Size(a) })).To(BeNumerically("<=", 24))
		Expect(n).To(Equal(len(arrays)))
	})

	It("writes a prefix of one in what the prefix costs, whatever the depth", func() {
		var out []byte
		var whole bool
		Expect(allocated(func() { out, whole = jsonjs.AppendPrefix(nil, a, 100) })).To(BeNumerically("<", 8<<10))
		Expect(string(out)).To(Equal(strings.Repeat("[", 100)))
		Expect(whole).To(BeFalse())
		out, whole = jsonjs.AppendPrefix(nil, a, len(arrays))
		Expect(whole).To(BeTrue())
		Expect(out).To(Equal(arrays))
	})

	It("compares two that differ at the bottom in at most 40 bytes a level, the path included", func() {
		var ds []jsonjs.Difference
		Expect(perLevel(func() { ds = jsonjs.Differences(a, a2, 0) })).To(BeNumerically("<=", 40))
		Expect(paths(ds)).To(Equal([]string{"$" + strings.Repeat("[0]", depth)}))
		Expect(perLevel(func() { ds = jsonjs.Differences(o, o2, 0) })).To(BeNumerically("<=", 40))
		Expect(paths(ds)).To(Equal([]string{"$" + strings.Repeat(".a", depth)}))
		equal := true
		Expect(perLevel(func() { equal = jsonjs.Equal(o, o2) })).To(BeNumerically("<=", 32))
		Expect(equal).To(BeFalse())
		Expect(jsonjs.Equal(a, mustParse(string(arrays)))).To(BeTrue())
	})
})
