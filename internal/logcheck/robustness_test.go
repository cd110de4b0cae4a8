package logcheck_test

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/logcheck"
)

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

func valid() []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "rules", "valid-base.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	return b
}

var _ = Describe("robustness", func() {
	// A line is kept up to MaxLineBytes (64 MiB by default), so the bytes
	// read before the checker knows the line is too long are bounded by
	// about twice that, whatever the line's length; past the cap nothing is
	// buffered.
	It("skips a 100 MB line with one finding and without holding it", func() {
		const size = 100 << 20
		line := &repeatReader{left: size, b: 'x', tail: []byte("\n")}
		before := totalAlloc()
		r := check(multiReader(bytes.NewReader([]byte(logHeader)), line, bytes.NewReader([]byte(`{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}`+"\n"))),
			"big.jsonl", logcheck.Defaults())
		allocated := totalAlloc() - before
		Expect(allocated).To(BeNumerically("<", 2*logcheck.Defaults().MaxLineBytes+(4<<20)), "bytes allocated while reading the long line")
		Expect(r.err).NotTo(HaveOccurred())
		Expect(r.kinds()).To(Equal([]string{"LOG-1 violation"}), r.String())
		Expect(r.findings[0].Line).To(Equal(2))
		Expect(r.findings[0].Message).To(Equal("line 2 is longer than 67108864 bytes; skipped (104857600 bytes)"))
		Expect(r.stats.Bytes).To(BeNumerically(">", size))
		Expect(r.stats.Lines).To(Equal(3))
		Expect(r.stats.MalformedLines).To(Equal(1))
	})

	It("reads a 100 MB line in constant memory when the cap is small", func() {
		opt := logcheck.Defaults()
		opt.MaxLineBytes = 1 << 20
		for _, size := range []int64{100 << 20, 200 << 20} {
			before := totalAlloc()
			r := check(multiReader(bytes.NewReader([]byte(logHeader)), &repeatReader{left: size, b: '"', tail: []byte("\n")}), "big.jsonl", opt)
			Expect(r.kinds()).To(Equal([]string{"LOG-1 violation"}))
			Expect(totalAlloc()-before).To(BeNumerically("<", 4<<20), "bytes allocated for a %d-byte line", size)
		}
	})

	It("honours a smaller MaxLineBytes", func() {
		opt := logcheck.Defaults()
		opt.MaxLineBytes = 500
		r := checkBytes(valid(), opt)
		// The grep and glob result lines are over 500 bytes; losing them
		// leaves two calls without a result, which is no finding.
		Expect(r.kinds()).To(ConsistOf("LOG-1 violation", "LOG-1 violation"), r.String())
		for _, f := range r.findings {
			Expect(f.Message).To(MatchRegexp(`^line \d+ is longer than 500 bytes; skipped \(\d+ bytes\)$`))
		}
	})

	It("keeps memory flat over a long well-formed log", func() {
		samples := map[int]uint64{}
		rd := &turnReader{n: 6000, probe: func(turn int) {
			if turn == 1000 || turn == 5900 {
				samples[turn] = heapAlloc()
			}
		}}
		r := check(rd, "long.jsonl", logcheck.Defaults())
		Expect(r.findings).To(BeEmpty(), r.String())
		Expect(r.stats.Bytes).To(BeNumerically(">", 40<<20))
		Expect(r.stats.ResultsChecked).To(Equal(map[string]int{"grep": 6000, "glob": 6000, "run_code": 6000}))
		// The window of recently completed calls (4096) fills by turn ~1400;
		// after that nothing may accumulate.
		Expect(samples[5900]).To(BeNumerically("<", samples[1000]+(2<<20)), "heap at turn 1000: %d, at 5900: %d", samples[1000], samples[5900])
	})

	It("checks a truncated final line when it parses", func() {
		b := valid()
		r := checkBytes(b[:len(b)-1], logcheck.Defaults())
		Expect(r.kinds()).To(Equal([]string{"LOG-1 warning"}))
		Expect(r.stats.Events).To(Equal(16))
	})

	It("reports a final line cut inside its JSON", func() {
		b := valid()
		r := checkBytes(b[:len(b)-20], logcheck.Defaults())
		Expect(r.kinds()).To(Equal([]string{"LOG-1 violation", "LOG-1 warning"}), r.String())
	})

	It("names the line with invalid UTF-8 and keeps checking it", func() {
		b := bytes.Replace(valid(), []byte(`"find x"`), []byte("\"find \xc3\x28 x\""), 1)
		r := checkBytes(b, logcheck.Defaults())
		Expect(r.kinds()).To(Equal([]string{"LOG-1 violation"}))
		Expect(r.findings[0].Message).To(Equal("line 4 is not valid UTF-8 (first invalid byte at column 100)"))
		Expect(r.stats.Events).To(Equal(16))
	})

	It("survives random garbage", func() {
		rng := rand.New(rand.NewSource(1))
		for i := 0; i < 200; i++ {
			garbage := make([]byte, rng.Intn(4000))
			rng.Read(garbage)
			r := checkBytes(garbage, logcheck.Defaults())
			Expect(r.err).NotTo(HaveOccurred())
			Expect(r.stats.Bytes).To(BeEquivalentTo(len(garbage)))
		}
	})

	It("survives a valid log with bytes flipped", func() {
		rng := rand.New(rand.NewSource(2))
		base := valid()
		for i := 0; i < 500; i++ {
			b := append([]byte(nil), base...)
			for k := 0; k < 1+rng.Intn(5); k++ {
				b[rng.Intn(len(b))] = byte(rng.Intn(256))
			}
			r := checkBytes(b, logcheck.Defaults())
			Expect(r.err).NotTo(HaveOccurred())
		}
	})

	It("reports empty input as a missing header", func() {
		r := checkBytes(nil, logcheck.Defaults())
		Expect(r.kinds()).To(Equal([]string{"LOG-2 violation"}))
		Expect(r.findings[0].Line).To(Equal(0))
		Expect(r.stats.Lines).To(BeZero())
	})

	It("reports a missing header once and checks the rest", func() {
		b := valid()
		b = b[bytes.IndexByte(b, '\n')+1:]
		r := checkBytes(b, logcheck.Defaults())
		Expect(r.kinds()).To(Equal([]string{"LOG-2 violation"}), r.String())
		Expect(r.findings[0].Message).To(Equal(`line 1: missing session header: line 1 is a "turn/start" line`))
		Expect(r.stats.ResultsChecked).To(HaveLen(3))
	})

	It("returns read errors, with the findings so far", func() {
		boom := errors.New("disk on fire")
		r := check(&failingReader{data: valid()[:200], err: boom}, "x.jsonl", logcheck.Defaults())
		Expect(r.err).To(MatchError(boom))
	})

	It("accepts CRLF line ends (JSON whitespace)", func() {
		b := bytes.ReplaceAll(valid(), []byte("\n"), []byte("\r\n"))
		r := checkBytes(b, logcheck.Defaults())
		Expect(r.findings).To(BeEmpty(), r.String())
	})
})

// A broken byte class in the line scanner (a raw control, quote or
// backslash let through) would pass a line JSON.parse refuses: each is
// tried at every position of a 16-byte string of a real event line.
var _ = Describe("the byte classes of the line scanner", func() {
	It("reports a raw control, quote or backslash at every position of a 16-byte string as not JSON", func() {
		bad := []byte{'"', '\\'}
		for c := byte(0); c < 0x20; c++ {
			if c != '\n' { // LF ends the line instead
				bad = append(bad, c)
			}
		}
		for _, c := range bad {
			for i := 0; i < 16; i++ {
				s := []byte("aaaaaaaaaaaaaaaa")
				s[i] = c
				line := `{"type":"turn/start","seq":0,"time":1785591990000,"data":{"turn":1,"note":"` + string(s) + `"}}` + "\n"
				r := checkBytes([]byte(logHeader+line), logcheck.Defaults())
				Expect(r.stats.MalformedLines).To(Equal(1), "byte %#x at %d: %s", c, i, r)
				Expect(r.findings[0].Requirement).To(Equal("LOG-1"))
				Expect(r.findings[0].Message).To(HavePrefix("line 2 is not JSON"), "byte %#x at %d", c, i)
			}
		}
	})
})
