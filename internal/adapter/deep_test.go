package adapter_test

import (
	"context"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// depthOf is how many arrays are nested in v, each the first element of
// the one around it.
func depthOf(v jsonjs.Value) int {
	n := 0
	for {
		items, ok := v.Items()
		if !ok {
			return n
		}
		n++
		if len(items) == 0 {
			return n
		}
		v = items[0]
	}
}

// Issue 23: testdata/deep answers with a meta nested 10^6 levels, a 2 MB
// line. Before, reading it allocated 367 bytes a level (Parse's stack of
// open containers grew by 1.25x, 48 bytes each, and a node took 56); then
// the tree (a 24-byte node and a 32-byte element a level), Parse's 8-byte
// stack entry and the line's copies (106); then, from 64 levels down, a
// 48-byte span of a pointer-free tape and the line's copies (59); now a
// 24-byte span and the copies (34; the issue allows 100).
var _ = Describe("an answer nested 10^6 levels deep (issue 23)", func() {
	const depth = 1_000_000
	ctx := context.Background()

	It("is read in at most 50 bytes a level, with JSON.parse semantics", func() {
		s := start(adapter.Config{Argv: []string{bin("deep")}})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		runtime.ReadMemStats(&after)
		Expect(err).NotTo(HaveOccurred())
		Expect((after.TotalAlloc - before.TotalAlloc) / depth).To(BeNumerically("<=", 50))
		v, err := r.OutputValue()
		Expect(err).NotTo(HaveOccurred())
		meta, _ := v.Get("meta")
		Expect(depthOf(meta)).To(Equal(depth))
		items, _ := v.Get("items")
		Expect(jsonjs.Marshal(items)).To(Equal([]byte(`[1]`)))
	})

	It("as an error answer keeps only its message, not the line's text", func() {
		s := start(adapter.Config{Argv: []string{bin("deep"), "-error"}})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(s.Close()).To(Succeed()) // and its line buffer with it
		runtime.GC()
		runtime.ReadMemStats(&after)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Error).NotTo(BeNil())
		Expect(*r.Error).To(Equal("deep"))
		Expect(int64(after.HeapAlloc)-int64(before.HeapAlloc)).To(BeNumerically("<", 1<<20), "bytes the reply keeps")
		runtime.KeepAlive(r)
	})
})
