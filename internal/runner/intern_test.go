package runner_test

import (
	"context"
	"errors"
	"strings"
	"unsafe"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
)

// sameError answers every case with a fresh copy of one long error
// message, as an adapter process does (each answer line is its own).
type sameError struct{ size int }

func (sameError) Ops() []string { return reference.Ops() }

func (h sameError) Run(string, []byte) ([]byte, error) {
	return nil, errors.New(strings.Repeat("e", h.size))
}

var _ = Describe("equal messages (issue 21: stored once)", func() {
	It("a run keeps one copy of a message every case repeats, and a short excerpt of it", func() {
		const size = 100 << 10 // under MaxWholeBytes: the diff keeps the whole answer
		var selected []runner.Case
		for _, c := range cases() {
			if c.Want.Output != nil && len(selected) < 40 {
				selected = append(selected, c)
			}
		}
		rep, err := runner.Run(context.Background(), selected, runner.Options{Jobs: 2, NewSession: func(context.Context) (adapter.Session, error) {
			return adapter.InProcess(sameError{size}, adapter.Implementation{Name: "same"}), nil
		}})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Cases).To(HaveLen(40))
		messages, wholes := map[*byte]bool{}, map[*byte]bool{}
		for _, c := range rep.Cases {
			Expect(c.Verdict).To(Equal(verdict.Fail), c.ID)
			Expect(c.Diffs).To(HaveLen(1), c.ID)
			d := c.Diffs[0]
			Expect(len(d.GotJSON)).To(BeNumerically(">", size), c.ID)
			Expect(len(d.Got)).To(BeNumerically("<", 200), "the excerpt of %s is short", c.ID)
			messages[unsafe.StringData(c.Message)] = true
			wholes[&d.GotJSON[0]] = true
		}
		Expect(messages).To(HaveLen(1), "one copy of the message")
		Expect(wholes).To(HaveLen(1), "one copy of the whole answer")
	})
})
