package sessionlog_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"io"
	"runtime"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/dsh-conform/conform/generators/sessionlog"
	"github.com/dsh-conform/conform/reference/codemode"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

const validSeeds = 120

var _ = Describe("Valid", func() {
	It("writes well-formed logs: JSON lines, spec schemas, contiguous seqs, enclosed dispatches, unique ids", func() {
		for seed := 1; seed <= validSeeds; seed++ {
			Expect(validate(sessionlog.Valid(seed))).To(BeEmpty(), "seed %d", seed)
		}
	})

	It("draws well-formed logs under rapid", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			l := sessionlog.ValidGen().Draw(t, "log")
			if errs := validate(l); len(errs) > 0 {
				t.Fatalf("%s", strings.Join(errs, "\n"))
			}
		})
	})

	It("is a pure function of the seed", func() {
		for _, seed := range []int{1, 2, 77} {
			Expect(sessionlog.Valid(seed).Bytes()).To(Equal(sessionlog.Valid(seed).Bytes()))
		}
		Expect(sessionlog.Valid(1).Bytes()).NotTo(Equal(sessionlog.Valid(2).Bytes()))
		Expect(sessionlog.Valid(9).Name).To(Equal("valid-9"))
	})

	It("covers every feature the brief asks for", func() {
		count := map[string]int{}
		for seed := 1; seed <= validSeeds; seed++ {
			l := sessionlog.Valid(seed)
			names := map[string]string{}
			subs := map[string]int{}
			open := map[string]int{} // started, not settled, per parent
			for _, line := range l.Lines[1:] {
				v, err := jsonjs.Parse(line)
				Expect(err).NotTo(HaveOccurred())
				typ := str(v, "type")
				count[typ]++
				switch typ {
				case "tool/call":
					names[str(v, "data", "callId")] = str(v, "data", "name")
					count["call:"+str(v, "data", "name")]++
				case "tool/result":
					name := names[str(v, "data", "message", "source", "callId")]
					if str(v, "surfaceOp") != "append" {
						count["replace"]++
						continue
					}
					if flag(v, resultIsError...) {
						count["error:"+name]++
					} else if has(v, "data", "meta") {
						count["meta:"+name]++
					}
					if has(v, "data", "error") {
						count["errorInfo:"+name]++
					}
				case codemode.EventDispatchStart:
					p := str(v, "data", "parentCallId")
					subs[p]++
					if open[p] > 0 {
						count["start-while-open"]++
					}
					open[p]++
					count["sub:"+str(v, "data", "name")]++
				case codemode.EventDispatchSettle:
					p := str(v, "data", "parentCallId")
					if !strings.HasSuffix(str(v, "data", "subCallId"), ":code:"+itoa(subs[p]-open[p]+1)) {
						count["settle-out-of-order"]++
					}
					open[p]--
				}
			}
			for _, n := range subs {
				if n >= 2 {
					count["parent-with-2-subs"]++
				}
			}
		}
		GinkgoWriter.Printf("feature counts over %d logs: %v\n", validSeeds, count)
		for _, k := range []string{
			"text-chunks", "tool-call-chunks", "assistant/message", "user/message", "compaction/prune", "replace",
			"call:grep", "call:glob", "call:run_code", "call:read", "call:bash",
			"meta:grep", "meta:glob", "error:grep", "error:glob", "errorInfo:grep", "error:run_code", "errorInfo:run_code",
			"sub:grep", "sub:glob", "sub:bash", "sub:read", "parent-with-2-subs", "start-while-open", "settle-out-of-order",
		} {
			Expect(count[k]).To(BeNumerically(">", 0), k)
		}
	})
})

func itoa(n int) string { return string(jsonjs.Marshal(jsonjs.IntValue(n))) }

var _ = Describe("Log.WriteTo", func() {
	It("writes every line followed by LF and reports the byte count", func() {
		l := sessionlog.Valid(3)
		var buf bytes.Buffer
		n, err := l.WriteTo(&buf)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(int64(buf.Len())))
		Expect(buf.Bytes()).To(Equal(l.Bytes()))
		Expect(bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))).To(Equal(l.Lines))
	})
})

// applied finds, for each mutation, a seed whose Valid log it applies to.
func applied(m sessionlog.Mutation) (sessionlog.Log, sessionlog.Log, bool) {
	for seed := 1; seed <= 400; seed++ {
		l := sessionlog.Valid(seed)
		before := l.Bytes()
		out, ok := m.Apply(l)
		Expect(l.Bytes()).To(Equal(before), "%s modified its input", m.Name)
		if ok {
			return l, out, true
		}
	}
	return sessionlog.Log{}, sessionlog.Log{}, false
}

var _ = Describe("Mutations", func() {
	It("have unique names and catalogued requirement IDs", func() {
		seen := map[string]bool{}
		for _, m := range sessionlog.Mutations() {
			Expect(seen[m.Name]).To(BeFalse(), m.Name)
			seen[m.Name] = true
			_, ok := spec.Lookup(m.Requirement)
			Expect(ok).To(BeTrue(), "%s: %s", m.Name, m.Requirement)
		}
	})

	It("each apply to some generated log, change it, and keep every line JSON and the seqs contiguous", func() {
		for _, m := range sessionlog.Mutations() {
			in, out, ok := applied(m)
			Expect(ok).To(BeTrue(), "%s applies to no generated log", m.Name)
			Expect(out.Bytes()).NotTo(Equal(in.Bytes()), m.Name)
			for i, line := range out.Lines {
				_, err := jsonjs.Parse(line)
				Expect(err).NotTo(HaveOccurred(), "%s line %d", m.Name, i+1)
			}
			if m.Name != "non-increasing-seq" {
				Expect(seqProblems(out)).To(BeEmpty(), m.Name)
			}
			if m.Name != "missing-header" {
				Expect(spec.ValidateJSON("log-header", out.Lines[0]) == nil).To(Equal(m.Name != "header-version"), m.Name)
			}
		}
	})

	It("report no place on a log without calls, chunks or dispatches", func() {
		l := sessionlog.Log{Name: "bare", Lines: [][]byte{
			[]byte(`{"type":"session","version":0,"id":"x","createdAt":1786000000000,"delegationDepth":0}`),
			[]byte(`{"type":"turn/start","seq":0,"time":1786000000001,"data":{"turn":1}}`),
			[]byte(`{"type":"turn/end","seq":1,"time":1786000000002,"data":{"turn":1,"reason":{"kind":"completed"}}}`),
		}}
		for _, m := range sessionlog.Mutations() {
			_, ok := m.Apply(l)
			switch m.Name {
			case "missing-header", "header-version", "unknown-event-type":
				Expect(ok).To(BeTrue(), m.Name)
			default:
				Expect(ok).To(BeFalse(), m.Name)
			}
		}
	})

	It("build the search results they claim with the reference", func() {
		byName := map[string]sessionlog.Mutation{}
		for _, m := range sessionlog.Mutations() {
			byName[m.Name] = m
		}
		resultMeta := func(l sessionlog.Log, pred func(jsonjs.Value) bool) (string, jsonjs.Value) {
			for _, line := range l.Lines {
				v, _ := jsonjs.Parse(line)
				if str(v, "type") == "tool/result" && str(v, "surfaceOp") == "append" && pred(v) {
					return str(v, resultText...), get(v, "data", "meta")
				}
			}
			Fail("no such result")
			return "", jsonjs.Value{}
		}
		_, out, ok := applied(byName["search-meta-over-cap"])
		Expect(ok).To(BeTrue())
		text, meta := resultMeta(out, func(v jsonjs.Value) bool { return len(items(v, "data", "meta", "paths")) == 700 })
		Expect(len(jsonjs.Marshal(meta))).To(BeNumerically(">", 65536))
		Expect(flag(meta, "truncated")).To(BeFalse())
		Expect(num(meta, "total")).To(Equal(int64(700)))
		Expect(strings.Count(text, "\n")).To(Equal(699))

		_, out, ok = applied(byName["search-wrong-total"])
		Expect(ok).To(BeTrue())
		text, meta = resultMeta(out, func(v jsonjs.Value) bool { return strings.Contains(str(v, resultText...), strings.Repeat("z", 60)) })
		Expect(text).To(HavePrefix("Found 43 matches\n\n"))
		Expect(strings.Count(text, "\nLine ")).To(Equal(43))
		Expect(items(meta, "files")).To(HaveLen(3))
		Expect(flag(meta, "truncated")).To(BeFalse())
		Expect(num(meta, "total")).To(Equal(int64(43)))

		_, out, ok = applied(byName["search-path-dropped"])
		Expect(ok).To(BeTrue())
		text, meta = resultMeta(out, func(v jsonjs.Value) bool { return str(v, resultText...) == "src/a.ts\nsrc/c.ts" })
		Expect(items(meta, "paths")).To(HaveLen(3))
	})
})

// sampler is an io.Writer that discards what it gets and samples the heap
// every 4 MB.
type sampler struct {
	n, next  int64
	peakHeap uint64
}

func (s *sampler) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	if s.n >= s.next {
		s.next = s.n + 4<<20
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s.peakHeap = max(s.peakHeap, ms.HeapAlloc)
	}
	return len(p), nil
}

var _ = Describe("Big", func() {
	It("streams a valid log of at least the target size with unique ids across repeated turns", func() {
		var buf bytes.Buffer
		n, err := sessionlog.Big(&buf, 3<<20, 7)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(int64(buf.Len())))
		Expect(n).To(BeNumerically(">=", 3<<20))
		Expect(buf.Bytes()).To(HaveSuffix("\n"))
		l := sessionlog.Log{Name: "big"}
		sc := bufio.NewScanner(&buf)
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			l.Lines = append(l.Lines, append([]byte(nil), sc.Bytes()...))
		}
		Expect(sc.Err()).NotTo(HaveOccurred())
		turns := 0
		for _, line := range l.Lines {
			if bytes.Contains(line, []byte(`"type":"turn/start"`)) {
				turns++
			}
		}
		Expect(turns).To(BeNumerically(">", 64), "the pool must repeat for this test to mean anything")
		Expect(validate(l)).To(BeEmpty())
	})

	It("is a pure function of the seed", func() {
		digest := func(seed int64) [32]byte {
			h := sha256.New()
			_, err := sessionlog.Big(h, 1<<20, seed)
			Expect(err).NotTo(HaveOccurred())
			var d [32]byte
			copy(d[:], h.Sum(nil))
			return d
		}
		Expect(digest(3)).To(Equal(digest(3)))
		Expect(digest(3)).NotTo(Equal(digest(4)))
	})

	It("writes 50 MB in bounded memory", func() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		s := &sampler{}
		start := time.Now()
		n, err := sessionlog.Big(s, 50<<20, 1)
		elapsed := time.Since(start)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically(">=", 50<<20))
		growth := int64(s.peakHeap) - int64(base)
		AddReportEntry("Big throughput", map[string]any{
			"bytes": n, "seconds": elapsed.Seconds(), "MB/s": float64(n) / (1 << 20) / elapsed.Seconds(), "heapGrowthMB": float64(growth) / (1 << 20),
		})
		GinkgoWriter.Printf("Big: %d bytes in %v (%.0f MB/s), heap growth %.1f MB\n", n, elapsed, float64(n)/(1<<20)/elapsed.Seconds(), float64(growth)/(1<<20))
		Expect(growth).To(BeNumerically("<", 20<<20))
	})

	It("reports the writer's error", func() {
		_, err := sessionlog.Big(failWriter{}, 1<<20, 1)
		Expect(err).To(MatchError(io.ErrShortWrite))
	})
})

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, io.ErrShortWrite }
