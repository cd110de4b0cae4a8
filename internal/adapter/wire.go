package adapter

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// This file holds the byte-level parts of the protocol shared by the client
// (Start) and the server (Serve): the bounded line reader, request and answer
// building, and a member walker over JSON objects. Requests and answers are
// assembled by splicing byte slices, never by re-encoding the input or the
// output: the input text a fixture carries reaches the adapter as written.

// errLineTooLong reports a line over the cap; the rest of it was drained.
var errLineTooLong = errors.New("line too long")

// keepBuf is the largest line buffer kept between lines; a larger one (a
// legitimately large answer) is dropped after use so it does not stay pinned.
const keepBuf = 4 << 20

// lineReader reads '\n'-terminated lines of at most max bytes (not counting
// the line end). A longer line is drained and reported as errLineTooLong:
// what was buffered of it before it crossed the cap is released at once, the
// rest streams through the reader's fixed buffer. A final line without '\n'
// at EOF is returned as a line.
//
// A returned line longer than keepBuf is the caller's to keep: the reader
// lets go of its buffer (see owned), so a large answer is not copied again.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// next returns the next line without its "\n" or "\r\n". The slice is valid
// until the following call.
func (lr *lineReader) next() ([]byte, error) {
	if cap(lr.buf) > keepBuf {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		n := len(chunk)
		if err == nil {
			n-- // the '\n' does not count
		}
		if len(lr.buf)+n > lr.max {
			lr.buf = nil // release what was buffered of the over-long line
			for err == bufio.ErrBufferFull {
				_, err = lr.r.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, errLineTooLong
		}
		if err == nil && len(lr.buf) == 0 { // the common case: the line fits the reader's buffer
			return trimEOL(chunk), nil
		}
		switch err {
		case nil, bufio.ErrBufferFull:
			lr.grow(len(chunk))
			lr.buf = append(lr.buf, chunk...)
			if err == nil {
				return trimEOL(lr.buf), nil
			}
		case io.EOF:
			if len(lr.buf)+len(chunk) == 0 {
				return nil, io.EOF
			}
			lr.grow(len(chunk))
			lr.buf = append(lr.buf, chunk...)
			return trimEOL(lr.buf), nil
		default:
			return nil, err
		}
	}
}

// grow makes room for n more bytes, doubling (append's own growth, 1.25x
// for large slices, would allocate about five times the final size while a
// long line comes in).
func (lr *lineReader) grow(n int) {
	if len(lr.buf)+n <= cap(lr.buf) {
		return
	}
	c := max(2*cap(lr.buf), len(lr.buf)+n, 4096)
	c = min(c, lr.max+n) // a line may exceed max by the last chunk before it is refused
	buf := make([]byte, len(lr.buf), c)
	copy(buf, lr.buf)
	lr.buf = buf
}

// owned reports whether a line the reader returned is the caller's to keep
// (the reader drops a buffer above keepBuf before reading the next line,
// instead of reusing it).
func owned(line []byte) bool { return cap(line) > keepBuf }

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// Fixed requests.
var (
	helloRequest = []byte(`{"cmd":"hello","protocol":1}` + "\n")
	byeRequest   = []byte(`{"cmd":"bye"}` + "\n")
)

// appendRunRequest appends {"cmd":"run","id":…,"op":…,"input":…} and a line
// end. input is spliced in as written; only when it spans several lines is
// its insignificant whitespace removed (json.Compact keeps every token as
// written), since a request must be one line.
func appendRunRequest(dst []byte, id, op string, input []byte) ([]byte, error) {
	if !isObject(input) {
		return dst, fmt.Errorf("adapter: case %s: input is not a JSON object", id)
	}
	dst = append(dst, `{"cmd":"run","id":`...)
	dst = appendQuoted(dst, id)
	dst = append(dst, `,"op":`...)
	dst = appendQuoted(dst, op)
	dst = append(dst, `,"input":`...)
	dst = appendOneLine(dst, input)
	return append(dst, "}\n"...), nil
}

// appendOneLine appends valid JSON text with the whitespace between tokens
// removed if it contains a line end (whitespace inside strings is escaped
// already, so every raw CR or LF is between tokens). It walks the bytes
// once, with no nesting limit (encoding/json's Compact stops at 10,000).
func appendOneLine(dst, js []byte) []byte {
	if bytes.IndexByte(js, '\n') < 0 && bytes.IndexByte(js, '\r') < 0 {
		return append(dst, js...)
	}
	return append(dst, jsonjs.CompactRaw(js)...)
}

// parseObject parses JSON text with JSON.parse semantics (jsonjs: no depth
// limit) and reports whether its value is an object.
func parseObject(b []byte) (jsonjs.Value, bool) {
	v, err := jsonjs.Parse(b)
	return v, err == nil && v.Kind() == jsonjs.Object
}

// isObject reports whether b is valid JSON text whose value is an object.
func isObject(b []byte) bool {
	_, ok := parseObject(b)
	return ok
}

// appendQuoted appends s as a JSON string: '"', '\\' and control characters
// escaped, invalid UTF-8 replaced by U+FFFD (as encoding/json does), nothing
// else escaped.
func appendQuoted(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// excerpt quotes the start of an offending line for a fault message.
func excerpt(line []byte) string {
	const max = 120
	if len(line) > max {
		return fmt.Sprintf("%q… (%d bytes)", line[:max], len(line))
	}
	return fmt.Sprintf("%q", line)
}

// answerProblem is a malformed answer. desync is set when the line cannot be
// paired with the request (not a JSON object, a wrong or missing id): the
// stream can no longer be trusted and the process is replaced.
type answerProblem struct {
	msg    string
	desync bool
}

// decodeAnswer checks one answer line against the request id. The line is
// read once with JSON.parse semantics (any depth); the returned Reply owns
// its bytes (line may be reused) and carries the parsed output. Bytes that
// are not UTF-8 in the output or the error message are reported in
// Reply.BadBytes (the case fails); anywhere else they are a malformed answer.
func decodeAnswer(line []byte, id string) (Reply, *answerProblem) {
	clean, bad := sanitize(line)
	v, err := jsonjs.Parse(clean)
	if err != nil {
		return Reply{}, &answerProblem{"answer is not JSON: " + excerpt(line) + " (" + err.Error() + ")", true}
	}
	if v.Kind() != jsonjs.Object {
		return Reply{}, &answerProblem{"answer is not a JSON object: " + excerpt(line), true}
	}
	idV, hasID := v.Get("id")
	if !hasID {
		return Reply{}, &answerProblem{fmt.Sprintf("answer has no \"id\" (want %q): %s", id, excerpt(line)), true}
	}
	if got, ok := idV.Str(); !ok || got != id || (bad != nil && pathAt(line, bad.Offset) == "$.id") {
		return Reply{}, &answerProblem{fmt.Sprintf("answer is for id %s, want %q", jsonjs.Marshal(idV), id), true}
	}
	if bad != nil {
		if !bad.locate(line) {
			return Reply{}, &answerProblem{msg: "answer is not UTF-8: " + bad.Error()}
		}
	}
	var kinds []string // repeats included: a second "output" is a malformed answer, not a last-wins value
	var raw []byte     // the output's text, found in the same walk (a deep one is long to skip twice)
	jsonjs.EachRawMember(line, func(k, v []byte) bool {
		for _, name := range []string{"output", "error", "skip"} {
			if jsonjs.RawKeyIs(k, name) {
				kinds = append(kinds, name)
				if name == "output" {
					raw = v
				}
			}
		}
		return true
	})
	switch len(kinds) {
	case 0:
		return Reply{}, &answerProblem{msg: "answer has none of \"output\", \"error\", \"skip\": " + excerpt(line)}
	case 1:
	default:
		return Reply{}, &answerProblem{msg: fmt.Sprintf("answer has several of \"output\", \"error\", \"skip\" (%q): %s", kinds, excerpt(line))}
	}
	switch kinds[0] {
	case "output":
		out, _ := v.Get("output")
		if out.Kind() != jsonjs.Object {
			return Reply{}, &answerProblem{msg: "answer \"output\" is not a JSON object: " + excerpt(raw)}
		}
		if !owned(line) {
			raw = bytes.Clone(raw)
		}
		return Reply{Output: raw, Value: &out, BadBytes: bad}, nil
	case "error":
		e, _ := v.Get("error")
		msgV, _ := e.Get("message")
		msg, ok := msgV.Str()
		msg = strings.Clone(msg) // it shares the line's text, which a result must not keep alive
		if !ok {
			return Reply{}, &answerProblem{msg: "answer \"error\" is not an object with a string \"message\": " + excerpt(jsonjs.RawMembers(line, "error")[0])}
		}
		return Reply{Error: &msg, BadBytes: bad}, nil
	default:
		skip, _ := v.Get("skip")
		reason, ok := skip.Str()
		reason = strings.Clone(reason)
		if !ok {
			return Reply{}, &answerProblem{msg: "answer \"skip\" is not a string: " + excerpt(jsonjs.RawMembers(line, "skip")[0])}
		}
		return Reply{Skip: &reason}, nil
	}
}

// decodeHello checks a handshake answer, read with JSON.parse semantics
// (member names exact, unknown members ignored). An empty ops list is a
// valid handshake (every case is then unsupported); a missing or null "ops"
// is not.
func decodeHello(line []byte) (Hello, string) {
	v, ok := parseObject(line)
	if !ok {
		return Hello{}, "handshake answer is not a JSON object: " + excerpt(line)
	}
	protoV, hasProto := v.Get("protocol")
	if errV, ok := v.Get("error"); !hasProto && ok {
		return Hello{}, "adapter refused the handshake: " + excerpt(jsonjs.Marshal(errV))
	}
	var h Hello
	if !hasProto {
		return h, "handshake answer has no \"protocol\": " + excerpt(line)
	}
	n, _ := protoV.Float()
	if !protoV.IsInteger() || n < -1<<31 || n > 1<<31 {
		return h, "handshake \"protocol\" is not an integer: " + excerpt(jsonjs.Marshal(protoV))
	}
	h.Protocol = int(n)
	if h.Protocol != Protocol {
		return h, fmt.Sprintf("adapter speaks protocol %d; conform speaks protocol %d", h.Protocol, Protocol)
	}
	impl := jsonjs.Root(v).Member("implementation")
	if impl.Object() != nil {
		return h, "handshake answer has no \"implementation\" object: " + excerpt(line)
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"name", &h.Implementation.Name}, {"version", &h.Implementation.Version}, {"language", &h.Implementation.Language}, {"homepage", &h.Implementation.Homepage}} {
		s, err := impl.Member(f.name).OptString("")
		if err != nil {
			return h, fmt.Sprintf("handshake \"implementation\": %v", err)
		}
		*f.dst = s
	}
	if h.Implementation.Name == "" {
		return h, "handshake \"implementation\" has no \"name\""
	}
	ops := jsonjs.Root(v).Member("ops")
	if _, isArray := ops.Value.Items(); !isArray {
		return h, "handshake answer has no \"ops\" array (list the ops the adapter supports; [] for none): " + excerpt(line)
	}
	list, err := ops.Strings()
	if err != nil {
		return h, "handshake \"ops\" is not an array of strings: " + excerpt(jsonjs.Marshal(ops.Value))
	}
	h.Ops = list
	return h, ""
}
