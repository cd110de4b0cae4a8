package adapter_test

import (
	"bytes"
	"context"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// leakEnv makes this test binary serve leakBytes as an adapter process: a
// misbehaving adapter without a program of its own.
const leakEnv = "CONFORM_TEST_LEAK_BYTES_ADAPTER"

func init() {
	if os.Getenv(leakEnv) == "1" {
		_ = adapter.Serve(context.Background(), os.Stdin, os.Stdout, leakBytes{}, adapter.Implementation{Name: "leak-bytes"})
		os.Exit(0)
	}
}

// leakBytes is the reference writing the raw byte FF wherever its output
// holds U+FFFD, as a harness forwarding undecoded bytes would.
type leakBytes struct{}

func (leakBytes) Ops() []string { return reference.Ops() }

func (leakBytes) Run(op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	return bytes.ReplaceAll(out, []byte("\uFFFD"), []byte{0xFF}), err
}

// deep returns n nested arrays around nothing: [[[…]]].
func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// deepCase is a run_code case nested 100,000 deep in its arguments and in
// its completion value (CODE-JSON-3), with the reference's golden answer.
func deepCase() runner.Case {
	GinkgoHelper()
	input := []byte(`{"args":{"code":"x","description":"d","extra":` + deep(100000) + `},"run":{"logs":[],"result":` + deep(100000) + `}}`)
	out, err := reference.Run(reference.OpRunCodeResult, input)
	Expect(err).NotTo(HaveOccurred())
	want, err := jsonjs.Parse(out)
	Expect(err).NotTo(HaveOccurred())
	in, err := jsonjs.Parse(input)
	Expect(err).NotTo(HaveOccurred())
	return runner.Case{ID: "run_code.result/deep", Op: reference.OpRunCodeResult, Input: input, InputValue: in, Want: runner.Want{Output: &want}}
}

var _ = Describe("exact reading at the protocol boundary (issue 10)", func() {
	ctx := context.Background()

	It("fails, through an adapter process, every case whose golden holds U+FFFD when the answer has raw bytes instead", func() {
		GinkgoT().Setenv(leakEnv, "1")
		s := start(adapter.Config{Argv: []string{os.Args[0]}})
		cases, err := runner.LoadCases(conform.Files)
		Expect(err).NotTo(HaveOccurred())
		failed := 0
		for _, c := range cases {
			out, err := reference.Run(c.Op, c.Input)
			if err != nil || !bytes.Contains(out, []byte("\uFFFD")) {
				continue
			}
			r := runner.RunCase(ctx, s, c, 0)
			Expect(r.Verdict).To(Equal(verdict.Fail), "%s: %s", c.ID, r.Message)
			Expect(r.Message).To(ContainSubstring(": FF, not repaired"), c.ID)
			failed++
		}
		Expect(failed).To(BeNumerically(">=", 23))
	})

	It("names where the bad bytes are, and refuses them in a request", func() {
		lines := serveOnce(leakBytes{}, "{\"cmd\":\"run\",\"id\":\"c1\",\"op\":\"retain.items\",\"input\":{\"strategy\":{\"kind\":\"head\",\"maxItems\":1},\"items\":[\"\xE2\x82A\"]}}")
		Expect(lines).To(Equal([]string{`{"id":"c1","error":{"message":"request is not UTF-8: invalid UTF-8 at $.input.items[0] (byte 102): E2 82, not repaired to U+FFFD"}}`}))
	})

	It("takes a request and an answer nested 100,000 deep through conform adapter and the runner", func() {
		c := deepCase()
		for _, s := range []adapter.Session{
			start(adapter.Config{Argv: []string{bin("conform"), "adapter"}}),
			adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation()),
		} {
			r := runner.RunCase(ctx, s, c, 0)
			Expect(r.Verdict).To(Equal(verdict.Pass), r.Message)
		}
		in := `{"cmd":"run","id":"c1","op":"retain.items","input":{"strategy":{"kind":"head","maxItems":1},"items":[` + deep(100000) + `]}}`
		lines := serveOnce(adapter.Reference(), in)
		Expect(lines).To(HaveLen(1))
		Expect(lines[0]).To(HavePrefix(`{"id":"c1","output":{"items":[` + deep(100000)))
	})
})
