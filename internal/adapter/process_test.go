package adapter_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A small case every harness answers.
const (
	itemsOp    = "retain.items"
	itemsInput = `{"strategy":{"kind":"head","maxItems":1},"items":[1,2]}`
	itemsThrow = `{"strategy":{"kind":"head","maxItems":-1},"items":[1,2]}`
)

func referenceOutput(op, input string) []byte {
	out, err := reference.Run(op, []byte(input))
	Expect(err).NotTo(HaveOccurred())
	return out
}

// start starts an adapter that must pass the handshake; it is closed after
// the spec.
func start(cfg adapter.Config) adapter.Session {
	s, err := adapter.Start(context.Background(), cfg)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = s.Close() })
	return s
}

// asFault returns err as a *Fault, failing the spec when it is not one.
func asFault(err error) *adapter.Fault {
	GinkgoHelper()
	var f *adapter.Fault
	Expect(errors.As(err, &f)).To(BeTrue(), "want a *adapter.Fault, got %v", err)
	return f
}

func expectItemsOutput(s adapter.Session, id string) {
	GinkgoHelper()
	r, err := s.Run(context.Background(), id, itemsOp, []byte(itemsInput))
	Expect(err).NotTo(HaveOccurred())
	Expect(string(r.Output)).To(Equal(string(referenceOutput(itemsOp, itemsInput))))
}

// shAdapter is an adapter written in sh: it answers the handshake with
// hello and every later request with answer.
func shAdapter(hello, answer string) adapter.Config {
	return adapter.Config{
		Argv: []string{"sh", "-c", `read -r l; printf '%s\n' "$HELLO"; while read -r l; do printf '%s\n' "$ANSWER"; done`},
		Env:  append(os.Environ(), "HELLO="+hello, "ANSWER="+answer),
	}
}

const shHello = `{"protocol":1,"implementation":{"name":"sh","version":"1","language":"sh","homepage":"https://example.com"},"ops":["retain.items"]}`

// processGone reports whether pid no longer runs (gone or a zombie).
func processGone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && (fields[0] == "Z" || fields[0] == "X")
}

var _ = Describe("a persistent adapter process", func() {
	ctx := context.Background()

	It("speaks the protocol with `conform adapter`: every fixture gives the reference's answer", func() {
		s := start(adapter.Config{Argv: []string{bin("conform"), "adapter"}})
		h := s.Hello()
		Expect(h.Protocol).To(Equal(1))
		Expect(h.Implementation).To(Equal(adapter.ReferenceImplementation()))
		Expect(h.Ops).To(Equal(reference.Ops()))
		cases, err := loadFixtures(0)
		Expect(err).NotTo(HaveOccurred())
		for _, c := range cases {
			r, err := s.Run(ctx, c.ID, c.Op, c.Input)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			want, werr := reference.Run(c.Op, c.Input)
			if werr != nil {
				Expect(r.Error).NotTo(BeNil(), c.ID)
				Expect(*r.Error).To(Equal(werr.Error()), c.ID)
				continue
			}
			Expect(r.Error).To(BeNil(), c.ID)
			Expect(r.Skip).To(BeNil(), c.ID)
			Expect(string(r.Output)).To(Equal(string(want)), c.ID)
		}
		Expect(s.Close()).To(Succeed())
	})

	It("reports a thrown error, a malformed input and an unsupported op as answers", func() {
		s := start(adapter.Config{Argv: []string{bin("conform"), "adapter"}})
		r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsThrow))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Error).To(Equal("maxItems must be a non-negative integer"))
		r, err = s.Run(ctx, "c2", itemsOp, []byte(`{"strategy":{"kind":"head","maxItems":1},"items":7}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Error).To(HavePrefix("retain.items input: "))
		r, err = s.Run(ctx, "c3", "no.such.op", []byte(`{}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Skip).To(ContainSubstring(`"no.such.op"`))
	})

	It("splices a multi-line input in as one line, and refuses an input that is not a JSON object", func() {
		s := start(adapter.Config{Argv: []string{bin("conform"), "adapter"}})
		r, err := s.Run(ctx, "c1", itemsOp, []byte("{\n  \"strategy\": {\"kind\": \"head\", \"maxItems\": 1},\n  \"items\": [1, 2]\n}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Output)).To(Equal(string(referenceOutput(itemsOp, itemsInput))))
		for _, bad := range []string{``, `[1]`, `{"a":`, `{} {}`} {
			_, err = s.Run(ctx, "c2", itemsOp, []byte(bad))
			Expect(err).To(HaveOccurred(), bad)
			var f *adapter.Fault
			Expect(errors.As(err, &f)).To(BeFalse(), "a bad input is the caller's error, not the adapter's: %q", bad)
		}
		expectItemsOutput(s, "c3") // nothing was sent for the bad inputs
	})

	It("reports the crash of crash-third with its exit status and stderr, then restarts it", func() {
		s := start(adapter.Config{Argv: []string{bin("crash-third")}})
		expectItemsOutput(s, "c1")
		expectItemsOutput(s, "c2")
		_, err := s.Run(ctx, "c3", itemsOp, []byte(itemsInput))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultCrash))
		Expect(f.Message).To(ContainSubstring("exit status 3"))
		Expect(f.Message).To(ContainSubstring("case c3"))
		Expect(f.Stderr).To(Equal("crash-third: giving up on run 3\n"))
		expectItemsOutput(s, "c4") // a new process, handshake replayed
		expectItemsOutput(s, "c5")
		_, err = s.Run(ctx, "c6", itemsOp, []byte(itemsInput)) // its third run
		Expect(asFault(err).Kind).To(Equal(adapter.FaultCrash))
	})

	It("names the exit status of a crash though the exit is reaped after the end-of-stdout grace (a loaded machine)", func() {
		DeferCleanup(adapter.HoldReaping(time.Second))
		s := start(adapter.Config{Argv: []string{bin("crash-third")}})
		expectItemsOutput(s, "c1")
		expectItemsOutput(s, "c2")
		_, err := s.Run(ctx, "c3", itemsOp, []byte(itemsInput))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultCrash))
		Expect(f.Message).To(Equal("adapter exited (exit status 3) before answering case c3"))
	})

	It("times out on hang, kills its process group, and the next case runs on a new process", func() {
		s := start(adapter.Config{Argv: []string{bin("hang"), "search.present"}, Timeout: time.Second})
		expectItemsOutput(s, "c1")
		began := time.Now()
		_, err := s.Run(ctx, "c2", "search.present", []byte(`{"tool":"grep","result":{"isError":false}}`))
		Expect(time.Since(began)).To(BeNumerically("<", watchdog))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultTimeout))
		m := regexp.MustCompile(`child (\d+)`).FindStringSubmatch(f.Stderr)
		Expect(m).NotTo(BeNil(), "stderr tail: %q", f.Stderr)
		child, _ := strconv.Atoi(m[1])
		// The sweep found the child by its token and says so.
		Expect(f.Message).To(Equal("no answer to case c2 within 1s; adapter killed; killed 1 process it left behind: " + m[1] + " (hang)"))
		Eventually(func() bool { return processGone(child) }).WithTimeout(5*time.Second).Should(BeTrue(),
			"the adapter's child %d outlived the timeout", child)
		expectItemsOutput(s, "c3")
	})

	It("returns the context's error, not a fault, when the caller cancels, and restarts after it", func() {
		s := start(adapter.Config{Argv: []string{bin("hang"), "search.present"}})
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(100*time.Millisecond, cancel)
		began := time.Now()
		_, err := s.Run(cctx, "c1", "search.present", []byte(`{"tool":"grep","result":{"isError":false}}`))
		Expect(err).To(MatchError(context.Canceled))
		Expect(time.Since(began)).To(BeNumerically("<", watchdog))
		_, err = s.Run(cctx, "c2", itemsOp, []byte(itemsInput))
		Expect(err).To(MatchError(context.Canceled))
		dctx, cancel2 := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel2()
		_, err = s.Run(dctx, "c3", "search.present", []byte(`{"tool":"grep","result":{"isError":false}}`))
		Expect(err).To(MatchError(context.DeadlineExceeded))
		expectItemsOutput(s, "c4")
	})

	It("faults a line that is not JSON and replaces the process, whose stream is out of step", func() {
		s := start(adapter.Config{Argv: []string{bin("garbage")}})
		for _, id := range []string{"c1", "c2"} {
			_, err := s.Run(ctx, id, itemsOp, []byte(itemsInput))
			f := asFault(err)
			Expect(f.Kind).To(Equal(adapter.FaultProtocol))
			// Not "answer is for id c1": the stale answer went with the old process.
			Expect(f.Message).To(HavePrefix(`answer is not JSON: "running retain.items ..."`), id)
		}
	})

	It("faults an answer under another id", func() {
		s := start(adapter.Config{Argv: []string{bin("wrong-id")}})
		_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultProtocol))
		Expect(f.Message).To(Equal(`answer is for id "wrong-c1", want "c1"`))
	})

	It("passes a well-formed wrong answer (wrong-meta) through for the comparison to judge", func() {
		cases, err := loadFixtures(0)
		Expect(err).NotTo(HaveOccurred())
		s := start(adapter.Config{Argv: []string{bin("wrong-meta")}})
		checked := 0
		for _, c := range cases {
			if c.Op != reference.OpGrepResult || checked == 3 {
				continue
			}
			want, err := reference.Run(c.Op, c.Input)
			if err != nil {
				continue
			}
			var w struct{ Meta *struct{ Total float64 } }
			Expect(json.Unmarshal(want, &w)).To(Succeed())
			if w.Meta == nil {
				continue
			}
			r, err := s.Run(ctx, c.ID, c.Op, c.Input)
			Expect(err).NotTo(HaveOccurred())
			var g struct{ Meta struct{ Total float64 } }
			Expect(json.Unmarshal(r.Output, &g)).To(Succeed())
			Expect(g.Meta.Total).To(Equal(w.Meta.Total+1), c.ID)
			checked++
		}
		Expect(checked).To(Equal(3))
	})

	It("drains a 100 MB answer line without holding it, and keeps the process", func() {
		// Memory for an over-long line is bounded by the cap (the buffer grows
		// to it, doubling: about 2×cap allocated in all), never by the line.
		// An 8 MiB cap makes that visible against the 100 MB line.
		s := start(adapter.Config{Argv: []string{bin("huge-line")}, MaxLineBytes: 8 << 20})
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		runtime.ReadMemStats(&after)
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultProtocol))
		Expect(f.Message).To(ContainSubstring("over 8388608 bytes"))
		AddReportEntry("bytes allocated while draining 100 MB", after.TotalAlloc-before.TotalAlloc)
		Expect(after.TotalAlloc-before.TotalAlloc).To(BeNumerically("<", 32<<20), "bytes allocated while reading the line")
		Expect(int64(after.HeapAlloc)-int64(before.HeapAlloc)).To(BeNumerically("<", 32<<20), "heap growth")
		// huge-line answers normally from its second run on: the same process
		// answers, so the stream stayed in step.
		expectItemsOutput(s, "c2")
	})

	It("takes an empty ops list as a valid handshake: every case is unsupported", func() {
		s := start(adapter.Config{Argv: []string{bin("no-ops")}})
		Expect(s.Hello().Ops).To(BeEmpty())
		Expect(s.Hello().Ops).NotTo(BeNil())
		Expect(s.Hello().Supports(itemsOp)).To(BeFalse())
		r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Skip).NotTo(BeNil())
	})

	It("attaches the last 4 KiB of stderr to a crash (stderr-noise)", func() {
		s := start(adapter.Config{Argv: []string{bin("stderr-noise")}})
		_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultCrash))
		Expect(f.Message).To(ContainSubstring("exit status 2"))
		var all strings.Builder
		for i := range 1024 {
			all.WriteString("noise line " + strconv.Itoa(10000 + i)[1:] + "\n")
		}
		all.WriteString("stderr-noise: fatal: the last words\n")
		Expect(len(f.Stderr)).To(Equal(4096))
		Expect(f.Stderr).To(Equal(all.String()[all.Len()-4096:]))
	})

	It("reports a failed restart as a start fault and stops retrying after three", func() {
		marker := GinkgoT().TempDir() + "/started"
		s := start(adapter.Config{Argv: []string{bin("start-once"), marker}})
		_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(asFault(err).Kind).To(Equal(adapter.FaultCrash))
		for i := range 3 {
			_, err = s.Run(ctx, "c", itemsOp, []byte(itemsInput))
			f := asFault(err)
			Expect(f.Kind).To(Equal(adapter.FaultStart), "attempt %d", i)
			Expect(f.Message).To(HavePrefix("restarting the adapter: adapter exited (exit status 1) before answering the restart's handshake"))
			Expect(f.Stderr).To(Equal("start-once: refusing to start again\n"))
		}
		_, err = s.Run(ctx, "c", itemsOp, []byte(itemsInput))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultStart))
		Expect(f.Message).To(HavePrefix("not run: 3 restarts of the adapter failed in a row; last: restarting the adapter: "))
	})

	It("refuses runs after Close, and Close twice is fine", func() {
		s := start(adapter.Config{Argv: []string{bin("conform"), "adapter"}})
		Expect(s.Close()).To(Succeed())
		Expect(s.Close()).To(Succeed())
		_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(err).To(MatchError(ContainSubstring("closed")))
	})

	It("kills an adapter that does not exit on bye", func() {
		cfg := shAdapter(shHello, `{"id":"c1","output":{}}`)
		cfg.Argv = []string{"sh", "-c", `read -r l; printf '%s\n' "$HELLO"; trap '' TERM; exec sleep 60`}
		s, err := adapter.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		err = s.Close()
		Expect(asFault(err).Kind).To(Equal(adapter.FaultTimeout))
	})
})

var _ = Describe("the handshake", func() {
	ctx := context.Background()

	DescribeTable("start faults",
		func(cfg adapter.Config, message string) {
			s, err := adapter.Start(ctx, cfg)
			Expect(s).To(BeNil())
			f := asFault(err)
			Expect(f.Kind).To(Equal(adapter.FaultStart))
			Expect(f.Message).To(ContainSubstring(message))
		},
		Entry("no command", adapter.Config{}, "no adapter command"),
		Entry("a program that does not exist", adapter.Config{Argv: []string{"/nonexistent/adapter"}}, "cannot start /nonexistent/adapter"),
		Entry("not JSON", shAdapter("hello there", ""), `handshake answer is not a JSON object: "hello there"`),
		Entry("another protocol", shAdapter(`{"protocol":2,"implementation":{"name":"x"},"ops":[]}`, ""), "adapter speaks protocol 2; conform speaks protocol 1"),
		Entry("protocol not a number", shAdapter(`{"protocol":"1","implementation":{"name":"x"},"ops":[]}`, ""), `"protocol" is not an integer`),
		Entry("no protocol", shAdapter(`{"implementation":{"name":"x"},"ops":[]}`, ""), `no "protocol"`),
		Entry("no implementation", shAdapter(`{"protocol":1,"ops":[]}`, ""), `no "implementation" object`),
		Entry("implementation without name", shAdapter(`{"protocol":1,"implementation":{"version":"1"},"ops":[]}`, ""), `no "name"`),
		Entry("no ops member", shAdapter(`{"protocol":1,"implementation":{"name":"x"}}`, ""), `no "ops" array`),
		Entry("ops null", shAdapter(`{"protocol":1,"implementation":{"name":"x"},"ops":null}`, ""), `no "ops" array`),
		Entry("ops not strings", shAdapter(`{"protocol":1,"implementation":{"name":"x"},"ops":[1]}`, ""), `"ops" is not an array of strings`),
		Entry("an error answer", shAdapter(`{"error":{"message":"protocol 1 unsupported"}}`, ""), "adapter refused the handshake"),
	)

	It("faults no-ops missing: a handshake without an ops member", func() {
		_, err := adapter.Start(ctx, adapter.Config{Argv: []string{bin("no-ops"), "missing"}})
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultStart))
		Expect(f.Message).To(ContainSubstring(`no "ops" array`))
	})

	It("faults an adapter that exits before answering, with its stderr", func() {
		_, err := adapter.Start(ctx, adapter.Config{Argv: []string{"sh", "-c", "echo 'cannot find harness' >&2; exit 7"}})
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultStart))
		Expect(f.Message).To(Equal("adapter exited (exit status 7) before answering the handshake"))
		Expect(f.Stderr).To(Equal("cannot find harness\n"))
	})

	It("faults an adapter that does not answer in time", func() {
		began := time.Now()
		_, err := adapter.Start(ctx, adapter.Config{Argv: []string{"sh", "-c", "exec sleep 60"}, HandshakeTimeout: 200 * time.Millisecond})
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultStart))
		Expect(f.Message).To(ContainSubstring("within 200ms"))
		Expect(time.Since(began)).To(BeNumerically("<", watchdog))
	})

	It("accepts extra members and a CRLF line end", func() {
		s := start(shAdapter(`{"protocol":1,"implementation":{"name":"sh"},"ops":["retain.items"],"extra":{"x":[1]}}`+"\r", ""))
		Expect(s.Hello().Implementation.Name).To(Equal("sh"))
		Expect(s.Hello().Ops).To(Equal([]string{"retain.items"}))
	})
})

var _ = Describe("answers", func() {
	ctx := context.Background()

	DescribeTable("malformed answers are protocol faults",
		func(answer, message string) {
			s := start(shAdapter(shHello, answer))
			_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
			f := asFault(err)
			Expect(f.Kind).To(Equal(adapter.FaultProtocol))
			Expect(f.Message).To(ContainSubstring(message))
		},
		Entry("not JSON", `{"id":"c1",`, "answer is not JSON"),
		Entry("not an object", `[1]`, "answer is not a JSON object"),
		Entry("no id", `{"output":{}}`, `answer has no "id"`),
		Entry("id spelled otherwise", `{"ID":"c1","output":{}}`, `answer has no "id"`),
		Entry("another id", `{"id":"c2","output":{}}`, `answer is for id "c2", want "c1"`),
		Entry("a numeric id", `{"id":1,"output":{}}`, `answer is for id 1, want "c1"`),
		Entry("none of output, error, skip", `{"id":"c1"}`, `none of "output", "error", "skip"`),
		Entry("output and skip", `{"id":"c1","output":{},"skip":"x"}`, `several of "output", "error", "skip" (["output" "skip"])`),
		Entry("output twice", `{"id":"c1","output":{},"output":{}}`, `several of`),
		Entry("output not an object", `{"id":"c1","output":[]}`, `"output" is not a JSON object`),
		Entry("output null", `{"id":"c1","output":null}`, `"output" is not a JSON object`),
		Entry("error a string", `{"id":"c1","error":"boom"}`, `"error" is not an object with a string "message"`),
		Entry("error without message", `{"id":"c1","error":{}}`, `"error" is not an object with a string "message"`),
		Entry("skip not a string", `{"id":"c1","skip":true}`, `"skip" is not a string`),
	)

	DescribeTable("well-formed answers",
		func(answer string, check func(adapter.Reply)) {
			s := start(shAdapter(shHello, answer))
			r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
			Expect(err).NotTo(HaveOccurred())
			check(r)
			r2, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput)) // the process stays
			Expect(err).NotTo(HaveOccurred())
			Expect(r2.Value == nil).To(Equal(r.Value == nil))
			if r.Value != nil { // Values compare by their bytes, not reflect.DeepEqual
				Expect(jsonjs.Marshal(*r2.Value)).To(Equal(jsonjs.Marshal(*r.Value)))
				r.Value, r2.Value = nil, nil
			}
			Expect(r2).To(Equal(r))
		},
		Entry("output, members kept as written", `{"id":"c1","output":{"b":1,"a":1e400,"b":-0}}`, func(r adapter.Reply) {
			Expect(string(r.Output)).To(Equal(`{"b":1,"a":1e400,"b":-0}`))
		}),
		Entry("error with extra members", `{"id":"c1","error":{"message":"boom","stack":"at x"},"extra":1}`, func(r adapter.Reply) {
			Expect(*r.Error).To(Equal("boom"))
		}),
		Entry("skip", `{"skip":"not yet","id":"c1"}`, func(r adapter.Reply) {
			Expect(*r.Skip).To(Equal("not yet"))
		}),
		Entry("a lone surrogate in a message, kept as JSON.parse keeps it (WTF-8)", `{"id":"c1","error":{"message":"a\ud800"}}`, func(r adapter.Reply) {
			Expect(*r.Error).To(Equal("a\xed\xa0\x80"))
		}),
		Entry("escapes in id and message, CRLF", `{"id":"\u0063\u0031","error":{"message":"a\"b\u00e9"}}`+"\r", func(r adapter.Reply) {
			Expect(*r.Error).To(Equal(`a"bé`))
		}),
	)

	It("keeps the process after a malformed answer whose id is right", func() {
		s := start(shAdapter(shHello, `{"id":"c1","output":[]}`))
		for range 2 {
			_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
			Expect(asFault(err).Message).To(ContainSubstring(`"output" is not a JSON object`))
		}
	})
})

var _ = Describe("exec mode", func() {
	ctx := context.Background()

	It("runs `conform adapter` once per case, with the reference's answers", func() {
		s := start(adapter.Config{Argv: []string{bin("conform"), "adapter"}, Exec: true})
		Expect(s.Hello().Ops).To(Equal(reference.Ops()))
		cases, err := loadFixtures(2)
		Expect(err).NotTo(HaveOccurred())
		for _, c := range cases {
			r, err := s.Run(ctx, c.ID, c.Op, c.Input)
			Expect(err).NotTo(HaveOccurred(), c.ID)
			want, werr := reference.Run(c.Op, c.Input)
			if werr != nil {
				Expect(*r.Error).To(Equal(werr.Error()), c.ID)
			} else {
				Expect(string(r.Output)).To(Equal(string(want)), c.ID)
			}
		}
	})

	It("starts a fresh process for every case: crash-third never reaches its third run", func() {
		s := start(adapter.Config{Argv: []string{bin("crash-third")}, Exec: true})
		for i := range 5 {
			expectItemsOutput(s, "c"+strconv.Itoa(i))
		}
	})

	It("reports timeouts, crashes with stderr, and malformed answers", func() {
		s := start(adapter.Config{Argv: []string{bin("hang")}, Exec: true, Timeout: 300 * time.Millisecond})
		_, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(asFault(err).Kind).To(Equal(adapter.FaultTimeout))

		s = start(adapter.Config{Argv: []string{bin("stderr-noise")}, Exec: true})
		_, err = s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		f := asFault(err)
		Expect(f.Kind).To(Equal(adapter.FaultCrash))
		Expect(f.Stderr).To(HaveSuffix("the last words\n"))
		Expect(len(f.Stderr)).To(BeNumerically("<=", 4096))

		s = start(adapter.Config{Argv: []string{bin("wrong-id")}, Exec: true})
		_, err = s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(asFault(err).Kind).To(Equal(adapter.FaultProtocol))
	})

	It("accepts a last answer line without a line end", func() {
		cfg := shAdapter(shHello, `{"id":"c1","skip":"no newline"}`)
		cfg.Argv = []string{"sh", "-c", `read -r l; case "$l" in *hello*) printf '%s' "$HELLO";; *) printf '%s' "$ANSWER";; esac`}
		cfg.Exec = true
		s := start(cfg)
		r, err := s.Run(ctx, "c1", itemsOp, []byte(itemsInput))
		Expect(err).NotTo(HaveOccurred())
		Expect(*r.Skip).To(Equal("no newline"))
	})
})

var _ = Describe("resources", func() {
	It("leaves no goroutines behind", func() {
		ctx := context.Background()
		base := runtime.NumGoroutine()
		for _, cfg := range []adapter.Config{
			{Argv: []string{bin("conform"), "adapter"}},
			{Argv: []string{bin("conform"), "adapter"}, Exec: true},
			{Argv: []string{bin("crash-third")}},
			{Argv: []string{bin("hang"), itemsOp}, Timeout: 200 * time.Millisecond},
			{Argv: []string{bin("garbage")}},
			{Argv: []string{bin("stderr-noise")}, Exec: true},
		} {
			s, err := adapter.Start(ctx, cfg)
			Expect(err).NotTo(HaveOccurred())
			for i := range 4 {
				_, _ = s.Run(ctx, "c"+strconv.Itoa(i), itemsOp, []byte(itemsInput))
			}
			_ = s.Close()
		}
		_, err := adapter.Start(ctx, adapter.Config{Argv: []string{"sh", "-c", "exec sleep 60"}, HandshakeTimeout: 100 * time.Millisecond})
		Expect(err).To(HaveOccurred())
		Eventually(runtime.NumGoroutine).WithTimeout(5*time.Second).Should(BeNumerically("<=", base),
			"goroutines: %d before", base)
	})
})
