package logcheck_test

import (
	"bytes"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

// Issue 23: a log line holding a value nested 10^6 levels deep. Before,
// check-log allocated 729 bytes a level for a deep grep meta (Lazy's tape
// grew by 1.25x, 5 times its 48 bytes a value, and LOG-7's hash walk kept
// 72-byte frames the same way) and 254 for a deep member elsewhere; then
// 280 for the meta (a doubled tape, 96; the meta's tree, 71; its hash
// walk's doubled 48-byte frames, 97), then 73 (a tape sized once, 48; a
// meta that is no object hashed from the line, 16, without a tree); with
// 24-byte spans 50, 67 for a meta of objects and 29 elsewhere (the issue
// allows 100).
var _ = Describe("a session log line nested 10^6 levels deep (issue 23)", func() {
	const depth = 1_000_000
	deep := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	perLevel := func(log []byte) (uint64, run) {
		before := totalAlloc()
		r := checkBytes(log, logcheck.Defaults())
		return (totalAlloc() - before) / depth, r
	}
	const grepMeta = `"meta":{"shape":"matches","files":[{"path":"b.ts","matches":[{"lineNumber":2,"line":"x"},{"lineNumber":5,"line":"z"}]},{"path":"a.ts","matches":[{"lineNumber":1,"line":"y"}]}],"truncated":false,"total":3}`

	It("is checked in at most 60 bytes a level as a grep result's meta", func() {
		Expect(bytes.Contains(valid(), []byte(grepMeta))).To(BeTrue())
		cost, r := perLevel(bytes.Replace(valid(), []byte(grepMeta), []byte(`"meta":`+deep), 1))
		Expect(cost).To(BeNumerically("<=", 60))
		Expect(r.kinds()).To(Equal([]string{"LOG-CHECK-SEARCH-2 violation"}), r.String())
	})

	It("is checked in at most 80 bytes a level as a grep result's meta of nested objects", func() {
		objects := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		cost, r := perLevel(bytes.Replace(valid(), []byte(grepMeta), []byte(`"meta":`+objects), 1))
		Expect(cost).To(BeNumerically("<=", 80))
		Expect(r.kinds()).To(Equal([]string{"LOG-CHECK-SEARCH-2 violation"}), r.String())
	})

	It("is checked in at most 40 bytes a level as a member no rule reads", func() {
		tail := `"surfaceOp":"append","sourceEventSeqs":[6]}`
		Expect(bytes.Contains(valid(), []byte(tail))).To(BeTrue())
		cost, r := perLevel(bytes.Replace(valid(), []byte(tail), []byte(strings.TrimSuffix(tail, "}")+`,"x":`+deep+"}"), 1))
		Expect(cost).To(BeNumerically("<=", 40))
		Expect(r.kinds()).To(Equal([]string{"LOG-3 violation"}), r.String())
	})
})
