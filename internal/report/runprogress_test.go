package report_test

import (
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/report"
)

// lines is a writer that hands each write to a channel, so a test waits
// for output instead of for time.
type lines struct {
	mu     sync.Mutex
	writes chan string
	closed bool
	after  int // writes after closed was set
}

func (l *lines) Write(b []byte) (int, error) {
	l.mu.Lock()
	if l.closed {
		l.after++
	}
	l.mu.Unlock()
	select {
	case l.writes <- string(b):
	default: // the test has what it wanted
	}
	return len(b), nil
}

var _ = Describe("the progress display when not on a terminal (issue 23)", func() {
	It("writes a plain line every interval with the items done, the rate and the note, and stops at Finish", func() {
		w := &lines{writes: make(chan string, 64)}
		p := report.NewLineProgress(w, "conform fuzz", "cases", 3000, 1) // 1 ns: a line per tick
		p.Update(1200, 3000)
		p.Note("3 findings, phase shrinking grep.result content\nSEARCH-PREVIEW-1")
		var got string
		Eventually(w.writes).Should(Receive(&got))
		for !strings.Contains(got, "1200/") { // a tick may have written the state before Update
			Eventually(w.writes).Should(Receive(&got))
		}
		Expect(got).To(MatchRegexp(`^conform fuzz: 1200/3000 cases \(40%\), [0-9.]+ cases/s, \d+ s; 3 findings, phase shrinking grep.result content\\nSEARCH-PREVIEW-1\n$`))
		Expect(strings.Count(got, "\n")).To(Equal(1), "one line: the note's newline is escaped")
		p.Finish()
		w.mu.Lock()
		w.closed = true
		w.mu.Unlock()
		p.Finish() // twice is fine
		w.mu.Lock()
		defer w.mu.Unlock()
		Expect(w.after).To(BeZero(), "a line after Finish returned")
	})

	It("counts without a total", func() {
		p := report.NewLineProgress(&lines{writes: make(chan string, 1)}, "conform fuzz", "cases", 0, 0)
		defer p.Finish()
		p.Update(7, 0)
		Expect(p.Line()).To(MatchRegexp(`^conform fuzz: 7 cases, [0-9.]+ cases/s, \d+ s$`))
	})
})
