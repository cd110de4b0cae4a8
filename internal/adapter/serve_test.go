package adapter_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

var impl = adapter.Implementation{Name: "test", Version: "0.1.0", Language: "go", Homepage: "https://example.com"}

// serveOnce runs Serve over the given request lines and returns its answer
// lines.
func serveOnce(h adapter.Harness, requests ...string) []string {
	var out bytes.Buffer
	err := adapter.Serve(context.Background(), strings.NewReader(strings.Join(requests, "\n")+"\n"), &out, h, impl)
	Expect(err).NotTo(HaveOccurred())
	if out.Len() == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

var _ = Describe("Serve", func() {
	ctx := context.Background()

	It("holds a whole session over in-memory pipes and returns nil on bye", func() {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() {
			done <- adapter.Serve(ctx, inR, outW, adapter.Reference(), impl)
			_ = outW.Close()
		}()
		answers := bufio.NewReader(outR)
		ask := func(request string) string {
			GinkgoHelper()
			_, err := io.WriteString(inW, request+"\n")
			Expect(err).NotTo(HaveOccurred())
			line, err := answers.ReadString('\n')
			Expect(err).NotTo(HaveOccurred())
			return strings.TrimSuffix(line, "\n")
		}

		var hello adapter.Hello
		Expect(json.Unmarshal([]byte(ask(`{"cmd":"hello","protocol":1}`)), &hello)).To(Succeed())
		Expect(hello).To(Equal(adapter.Hello{Protocol: 1, Implementation: impl, Ops: reference.Ops()}))

		Expect(ask(`{"cmd":"run","id":"c1","op":"retain.items","input":` + itemsInput + `}`)).
			To(Equal(`{"id":"c1","output":` + string(referenceOutput(itemsOp, itemsInput)) + `}`))
		Expect(ask(`{"cmd":"run","id":"c2","op":"retain.items","input":` + itemsThrow + `}`)).
			To(Equal(`{"id":"c2","error":{"message":"maxItems must be a non-negative integer"}}`))
		Expect(ask(`{"input":{"items":[],"bogus":1},"op":"retain.items","id":"c3","cmd":"run"}`)).
			To(HavePrefix(`{"id":"c3","error":{"message":"retain.items input: `))
		Expect(ask(`{"cmd":"run","id":"c4","op":"nope","input":{}}`)).
			To(Equal(`{"id":"c4","skip":"op \"nope\" is not supported by this harness"}`))

		_, err := io.WriteString(inW, `{"cmd":"bye"}`+"\n")
		Expect(err).NotTo(HaveOccurred())
		Eventually(done).Should(Receive(BeNil()))
		_, err = answers.ReadString('\n')
		Expect(err).To(Equal(io.EOF)) // nothing answers a bye
	})

	It("returns nil at the end of its input (exec mode)", func() {
		lines := serveOnce(adapter.Reference(), `{"cmd":"run","id":"c1","op":"retain.items","input":`+itemsInput+`}`)
		Expect(lines).To(HaveLen(1))
		Expect(lines[0]).To(HavePrefix(`{"id":"c1","output":{`))
	})

	It("answers an empty ops list as [] and skips every run", func() {
		lines := serveOnce(noOps{}, `{"cmd":"hello","protocol":1}`, `{"cmd":"run","id":"c1","op":"retain.items","input":{}}`)
		Expect(lines[0]).To(HaveSuffix(`"ops":[]}`))
		Expect(lines[1]).To(HavePrefix(`{"id":"c1","skip":`))
	})

	It("writes the output as the harness returned it, on one line", func() {
		lines := serveOnce(fixed("{\n  \"a\": 1e400,\n  \"a\": \"<>\"\n}"), `{"cmd":"run","id":"c1","op":"x","input":{}}`)
		Expect(lines).To(Equal([]string{`{"id":"c1","output":{"a":1e400,"a":"<>"}}`}))
	})

	It("ignores blank lines and unknown request members", func() {
		lines := serveOnce(fixed(`{}`), ``, `  `, `{"cmd":"run","id":"c1","op":"x","input":{},"trace":"t-1"}`)
		Expect(lines).To(Equal([]string{`{"id":"c1","output":{}}`}))
	})

	DescribeTable("malformed requests get an error answer naming the problem",
		func(request, answer string) {
			Expect(serveOnce(fixed(`{}`), request)).To(Equal([]string{answer}))
		},
		Entry("not JSON", `{"cmd":`, `{"error":{"message":"request is not JSON: \"{\\\"cmd\\\":\" (line 1, column 8: unexpected end of input, expecting a value)"}}`),
		Entry("not an object", `["run"]`, `{"error":{"message":"request is not a JSON object: \"[\\\"run\\\"]\""}}`),
		Entry("no cmd", `{"id":"c1"}`, `{"id":"c1","error":{"message":"request has no \"cmd\" string: \"{\\\"id\\\":\\\"c1\\\"}\""}}`),
		Entry("unknown cmd", `{"cmd":"jump","id":"c1"}`, `{"id":"c1","error":{"message":"unknown cmd \"jump\""}}`),
		Entry("run without id", `{"cmd":"run","op":"x","input":{}}`, `{"error":{"message":"run request has no \"id\" string"}}`),
		Entry("run with a numeric id", `{"cmd":"run","id":1,"op":"x","input":{}}`, `{"error":{"message":"run request has no \"id\" string"}}`),
		Entry("run without op", `{"cmd":"run","id":"c1","input":{}}`, `{"id":"c1","error":{"message":"run request has no \"op\" string"}}`),
		Entry("run without input", `{"cmd":"run","id":"c1","op":"x"}`, `{"id":"c1","error":{"message":"run request has no \"input\" object"}}`),
		Entry("run with an array input", `{"cmd":"run","id":"c1","op":"x","input":[]}`, `{"id":"c1","error":{"message":"run request has no \"input\" object"}}`),
		Entry("harness output not an object", `{"cmd":"run","id":"c1","op":"bad","input":{}}`, `{"id":"c1","error":{"message":"harness output is not a JSON object: \"[]\""}}`),
	)

	It("returns the context's error between requests", func() {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		err := adapter.Serve(cctx, strings.NewReader(`{"cmd":"hello"}`+"\n"), io.Discard, adapter.Reference(), impl)
		Expect(err).To(MatchError(context.Canceled))
	})

	It("returns a write error", func() {
		err := adapter.Serve(ctx, strings.NewReader(`{"cmd":"hello"}`+"\n"), failingWriter{}, adapter.Reference(), impl)
		Expect(err).To(MatchError("disk full"))
	})
})

var _ = Describe("InProcess", func() {
	ctx := context.Background()

	It("runs the reference with its implementation", func() {
		s := adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation())
		Expect(s.Hello()).To(Equal(adapter.Hello{Protocol: 1, Implementation: adapter.Implementation{
			Name: "conform reference", Version: conform.Version, Language: "go", Homepage: "https://github.com/dsh-conform/conform",
		}, Ops: reference.Ops()}))
		expectItemsOutput(s, "c1")
		r, err := s.Run(ctx, "c2", itemsOp, []byte(itemsThrow))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Error).To(Equal("maxItems must be a non-negative integer"))
		Expect(s.Close()).To(Succeed())
	})

	It("reports the reference's InputError as a thrown error that names the input", func() {
		s := adapter.InProcess(adapter.Reference(), adapter.ReferenceImplementation())
		r, err := s.Run(ctx, "c1", reference.OpGrepResult, []byte(`{"args":{},"value":{"matches":[]},"nested":"yes","typo":1}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Error).To(Equal(`grep.result input: $.nested: want a boolean, got string`))
		var inputErr *reference.InputError
		_, rerr := adapter.Reference().Run(reference.OpGrepResult, []byte(`{"spill":[]}`))
		Expect(errors.As(rerr, &inputErr)).To(BeTrue())
	})

	It("skips an op the harness does not list", func() {
		s := adapter.InProcess(noOps{}, impl)
		r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Skip).To(ContainSubstring("not supported"))
	})

	It("turns a panic into a crash fault with the panic value and stack", func() {
		s := adapter.InProcess(panicky{}, impl)
		_, err := s.Run(ctx, "c1", "x", []byte(`{}`))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultCrash))
		Expect(f.Message).To(Equal("harness panicked on case c1: index out of range"))
		Expect(f.Stderr).To(HavePrefix("panic: index out of range\n"))
		Expect(f.Stderr).To(ContainSubstring("panicky"))
		Expect(len(f.Stderr)).To(BeNumerically("<=", 4096))
	})

	It("faults output that is not a JSON object", func() {
		s := adapter.InProcess(fixed(`[]`), impl)
		_, err := s.Run(ctx, "c1", "x", []byte(`{}`))
		Expect(asFault(err).Kind).To(Equal(adapter.FaultProtocol))
	})

	It("returns the context's error", func() {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := adapter.InProcess(adapter.Reference(), impl).Run(cctx, "c1", itemsOp, []byte(itemsInput))
		Expect(err).To(MatchError(context.Canceled))
	})
})

// noOps lists no ops.
type noOps struct{}

func (noOps) Ops() []string                      { return nil }
func (noOps) Run(string, []byte) ([]byte, error) { return nil, errors.New("unreachable") }

// fixed answers every op with one output; op "bad" gets "[]".
type fixed string

func (fixed) Ops() []string { return []string{"x", "bad"} }
func (f fixed) Run(op string, _ []byte) ([]byte, error) {
	if op == "bad" {
		return []byte(`[]`), nil
	}
	return []byte(f), nil
}

// panicky panics in Run.
type panicky struct{}

func (panicky) Ops() []string { return []string{"x"} }
func (panicky) Run(string, []byte) ([]byte, error) {
	panic("index out of range")
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// framings.jsonl holds request lines conform never writes but the protocol
// allows (JSON.parse reads them): whitespace between tokens (space, tab,
// CR), member names spelled with escapes, an escaped extra member, a
// repeated id (the last wins), id before cmd, leading blanks. The mutation
// runner sends the same script to every mutant (docs/mutation.md); it holds
// no malformed line, whose error answer would judge the wording of parse
// errors, which the list of equivalent mutants leaves out.
var _ = Describe("Serve with protocol-valid request framings", func() {
	data, err := os.ReadFile(filepath.Join("testdata", "framings.jsonl"))
	if err != nil {
		panic(err)
	}
	framed := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")

	It("answers each as it answers the same request written compact", func() {
		Expect(len(framed)).To(BeNumerically(">", 8))
		for _, line := range framed[1 : len(framed)-1] { // between hello and bye
			v, err := jsonjs.Parse([]byte(line))
			Expect(err).NotTo(HaveOccurred(), line)
			compact := string(jsonjs.Marshal(v)) // id-first-1 is compact already; its answer is checked below
			got := serveOnce(adapter.Reference(), line)
			Expect(got).To(Equal(serveOnce(adapter.Reference(), compact)), line)
			Expect(got[0]).To(ContainSubstring(`,"output":{`), line)
		}
	})

	It("holds the whole script as one session", func() {
		got := serveOnce(adapter.Reference(), framed...)
		Expect(got).To(HaveLen(len(framed) - 1)) // bye has no answer
		Expect(got[0]).To(HavePrefix(`{"protocol":1,`))
		ids := []string{"space-1", "tab-1", "cr-1", "mixed-1", "escaped-1", "extra-1", "last-wins-1", "id-first-1", "indented-1"}
		for i, id := range ids {
			Expect(got[i+1]).To(HavePrefix(`{"id":"` + id + `","output":{`))
		}
	})
})
