package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"pgregory.net/rapid"
)

func readAll(input string, bufSize, max int) (lines []string, errs []error) {
	lr := lineReader{r: bufio.NewReaderSize(strings.NewReader(input), bufSize), max: max}
	for {
		line, err := lr.next()
		if err == io.EOF {
			return lines, errs
		}
		lines = append(lines, string(line))
		errs = append(errs, err)
	}
}

var _ = Describe("lineReader", func() {
	It("splits lines, drops \\n and \\r\\n, keeps a last line without a line end", func() {
		lines, errs := readAll("a\nbb\r\n\nlast", 16, 100)
		Expect(lines).To(Equal([]string{"a", "bb", "", "last"}))
		Expect(errs).To(HaveEach(BeNil()))
	})

	It("accepts a line of exactly max bytes, refuses max+1 and drains it, longer than its buffer", func() {
		exact := strings.Repeat("x", 40)
		over := strings.Repeat("y", 41)
		lines, errs := readAll(exact+"\n"+over+"\nnext\n"+strings.Repeat("z", 500)+"\nend", 16, 40)
		Expect(lines).To(Equal([]string{exact, "", "next", "", "end"}))
		Expect(errs).To(Equal([]error{nil, errLineTooLong, nil, errLineTooLong, nil}))
	})

	It("refuses an unterminated line over max at EOF", func() {
		_, errs := readAll(strings.Repeat("x", 41), 16, 40)
		Expect(errs).To(Equal([]error{errLineTooLong}))
	})

	It("reads any input back line by line (property)", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			var parts []string
			for _, p := range rapid.SliceOf(rapid.StringMatching(`[a-z\r]{0,70}`)).Draw(t, "lines") {
				parts = append(parts, strings.TrimRight(p, "\r")) // a trailing \r is part of the line end
			}
			max := rapid.IntRange(1, 80).Draw(t, "max")
			lines, errs := readAll(strings.Join(parts, "\n")+"\n", 16, max)
			if len(parts) == 0 {
				lines, errs = nil, nil
			}
			if len(lines) != len(parts) {
				t.Fatalf("got %d lines, want %d", len(lines), len(parts))
			}
			for i, p := range parts {
				if len(p) > max {
					if errs[i] != errLineTooLong {
						t.Fatalf("line %d (%d bytes, max %d): want errLineTooLong, got %v", i, len(p), max, errs[i])
					}
				} else if errs[i] != nil || lines[i] != p {
					t.Fatalf("line %d: got %q, %v; want %q", i, lines[i], errs[i], p)
				}
			}
		})
	})
})

var _ = Describe("ring", func() {
	It("keeps the last max bytes, however they were written", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			limit := rapid.IntRange(1, 64).Draw(t, "max")
			r := newRing(limit)
			var all []byte
			for _, w := range rapid.SliceOf(rapid.SliceOfN(rapid.ByteRange('a', 'z'), 0, 150)).Draw(t, "writes") {
				_, _ = r.Write(w)
				all = append(all, w...)
			}
			want := all[max(0, len(all)-limit):]
			if got := r.String(); got != string(want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	})

	It("starts a cut tail on a character boundary", func() {
		r := newRing(5)
		_, _ = r.Write([]byte("ab€cde")) // € is 3 bytes: the last 5 bytes start inside it
		Expect(r.String()).To(Equal("cde"))
		_, _ = r.Write([]byte("€"))
		Expect(r.String()).To(Equal("de€"))
		Expect(utf8.ValidString(r.String())).To(BeTrue())
	})
})

var _ = Describe("request building", func() {
	It("quotes ids as JSON strings that decode back (property)", func() {
		rapid.Check(GinkgoT(), func(t *rapid.T) {
			s := rapid.String().Draw(t, "s")
			q := appendQuoted(nil, s)
			var back string
			if err := json.Unmarshal(q, &back); err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			if utf8.ValidString(s) && back != s {
				t.Fatalf("got %q, want %q", back, s)
			}
			if bytes.ContainsAny(q, "\n\r") {
				t.Fatalf("a line end in %q", q)
			}
		})
	})

	It("splices the input as written", func() {
		req, err := appendRunRequest(nil, "a/b", "grep.result", []byte(`{"x":1e400,"x":-0,"s":"<\u2028>"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(req)).To(Equal(`{"cmd":"run","id":"a/b","op":"grep.result","input":{"x":1e400,"x":-0,"s":"<\u2028>"}}` + "\n"))
	})
})

var _ = Describe("Serve limits", func() {
	It("answers a request line over the cap with an error and goes on", func() {
		in := strings.Repeat("x", 100) + "\n" + `{"cmd":"hello","protocol":1}` + "\n"
		var out bytes.Buffer
		err := serve(context.Background(), strings.NewReader(in), &out, Reference(), ReferenceImplementation(), 64)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		Expect(lines).To(HaveLen(2))
		Expect(lines[0]).To(Equal(`{"error":{"message":"request line over 64 bytes"}}`))
		Expect(lines[1]).To(HavePrefix(`{"protocol":1,`))
	})
})

// FuzzDecodeAnswer: no answer line makes the client panic, and every
// accepted answer has exactly one of output, error, skip.
func FuzzDecodeAnswer(f *testing.F) {
	for _, seed := range []string{
		`{"id":"c1","output":{}}`, `{"id":"c1","error":{"message":"m"}}`, `{"id":"c1","skip":"s"}`,
		`{"id":"c1","output":{},"skip":"x"}`, `{"id":"c1"}`, `[1]`, `{"id":"c1","output":[`, ``, ` `,
		`{"id":"c1","error":{"message":"\ud800"}}`, `{"\u0069d":"c1","output":{"a":[{"b":"}"}]}}`,
		`{"id":"c1","output":{}} trailing`, `{"protocol":1,"implementation":{"name":"x"},"ops":[]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		r, problem := decodeAnswer(line, "c1")
		_, _ = decodeHello(line)
		if problem != nil {
			return
		}
		n := 0
		if r.Output != nil {
			n++
			if !json.Valid(r.Output) || r.Output[0] != '{' {
				t.Fatalf("output %q", r.Output)
			}
		}
		if r.Error != nil {
			n++
		}
		if r.Skip != nil {
			n++
		}
		if n != 1 {
			t.Fatalf("%q: %d of output/error/skip", line, n)
		}
	})
}

// FuzzServe: no request line makes the server panic or write anything but
// one JSON line per request.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		`{"cmd":"hello","protocol":1}`, `{"cmd":"run","id":"a","op":"retain.items","input":{"strategy":{"kind":"head","maxItems":1},"items":[1]}}`,
		`{"cmd":"run","id":7,"op":"x","input":{}}`, `{"cmd":"nope"}`, `nope`, `{"cmd":"run"}`, `{"cmd":"bye"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n\r") {
			return
		}
		var out bytes.Buffer
		err := serve(context.Background(), bytes.NewReader(line), &out, Reference(), ReferenceImplementation(), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if out.Len() == 0 {
			return // bye, or a blank line
		}
		if !bytes.HasSuffix(out.Bytes(), []byte("\n")) || bytes.Count(out.Bytes(), []byte("\n")) != 1 || !json.Valid(out.Bytes()) {
			t.Fatalf("answer to %q: %q", line, out.Bytes())
		}
	})
}

var _ = Describe("bytes that are not UTF-8 in an answer (issue 10)", func() {
	DescribeTable("are located by JSON path, relative to the output",
		func(line, path, field string, hex []byte) {
			r, problem := decodeAnswer([]byte(line), "c1")
			Expect(problem).To(BeNil())
			Expect(r.BadBytes).NotTo(BeNil())
			Expect(r.BadBytes.Path).To(Equal(path))
			Expect(r.BadBytes.Field).To(Equal(field))
			Expect(r.BadBytes.Bytes).To(Equal(hex))
			Expect(r.BadBytes.Offset).To(Equal(strings.Index(line, string(hex[:1]))))
		},
		Entry("in the content", "{\"id\":\"c1\",\"output\":{\"content\":\"ok \xE2\x82A\"}}", "$.content", "content", []byte{0xE2, 0x82}),
		Entry("in a nested string", "{\"id\":\"c1\",\"output\":{\"meta\":{\"files\":[{\"path\":\"a\"},{\"path\":\"\xFF\"}]}}}", "$.meta.files[1].path", "meta", []byte{0xFF}),
		Entry("in a member name", "{\"id\":\"c1\",\"output\":{\"view\":{\"\xC3x\":1}}}", `$.view["?x"]`, "view", []byte{0xC3}),
		Entry("in the error message", "{\"id\":\"c1\",\"error\":{\"message\":\"boom \xED\xA0\"}}", "$.error.message", "", []byte{0xED}),
	)

	It("takes a lone surrogate as a \\u escape, and its raw 3-byte form as bad bytes", func() {
		r, problem := decodeAnswer([]byte(`{"id":"c1","output":{"text":"\ud800"}}`), "c1")
		Expect(problem).To(BeNil())
		Expect(r.BadBytes).To(BeNil())
		r, problem = decodeAnswer([]byte("{\"id\":\"c1\",\"output\":{\"text\":\"\xED\xA0\x80\"}}"), "c1")
		Expect(problem).To(BeNil())
		Expect(r.BadBytes).NotTo(BeNil())
		Expect(r.BadBytes.Bytes).To(Equal([]byte{0xED}))
	})

	It("makes the answer malformed when they are outside the output and the message", func() {
		_, problem := decodeAnswer([]byte("{\"id\":\"c1\",\"skip\":\"\xFF\"}"), "c1")
		Expect(problem).NotTo(BeNil())
		Expect(problem.msg).To(Equal("answer is not UTF-8: invalid UTF-8 at $.skip (byte 19): FF, not repaired to U+FFFD"))
		_, problem = decodeAnswer([]byte("{\"id\":\"c\xFF\",\"output\":{}}"), "c1")
		Expect(problem.desync).To(BeTrue())
	})

	It("stops the path at the depth bound in a deep answer", func() {
		line := `{"id":"c1","output":{"a":` + strings.Repeat("[", 100) + "\"\xFF\"" + strings.Repeat("]", 100) + `}}`
		r, problem := decodeAnswer([]byte(line), "c1")
		Expect(problem).To(BeNil())
		Expect(r.BadBytes.Path).To(HavePrefix("$.a[0][0]"))
		Expect(strings.Count(r.BadBytes.Path, "[0]")).To(Equal(maxPathDepth - 2))
	})
})
