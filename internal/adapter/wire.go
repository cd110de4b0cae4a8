package adapter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// the line end). A longer line is drained without being buffered and reported
// as errLineTooLong. A final line without '\n' at EOF is returned as a line.
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
			lr.buf = lr.buf[:0]
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

// appendOneLine appends valid JSON text, compacted if it contains a line end.
func appendOneLine(dst, js []byte) []byte {
	if bytes.IndexByte(js, '\n') < 0 && bytes.IndexByte(js, '\r') < 0 {
		return append(dst, js...)
	}
	buf := bytes.NewBuffer(dst)
	_ = json.Compact(buf, js) // js is valid: checked by the caller
	return buf.Bytes()
}

// isObject reports whether b is valid JSON text whose value is an object.
func isObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
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

// str decodes a raw value as a JSON string; ok is false for other kinds.
// Escapes are decoded as JSON.parse does (jsonjs): a lone surrogate in an
// error message survives as WTF-8, as it does in the goldens.
func str(raw []byte) (s string, ok bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	v, err := jsonjs.Parse(raw)
	if err != nil {
		return "", false
	}
	return v.Str()
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

// decodeAnswer checks one answer line against the request id. The returned
// Reply owns its bytes (line may be reused).
func decodeAnswer(line []byte, id string) (Reply, *answerProblem) {
	if !json.Valid(line) {
		return Reply{}, &answerProblem{"answer is not JSON: " + excerpt(line), true}
	}
	if bytes.TrimLeft(line, " \t\r\n")[0] != '{' {
		return Reply{}, &answerProblem{"answer is not a JSON object: " + excerpt(line), true}
	}
	var (
		idRaw, outRaw, errRaw, skipRaw []byte
		hasID                          bool
		kinds                          []string // members among output/error/skip, repeats included
		kindBuf                        [3]string
	)
	kinds = kindBuf[:0]
	jsonjs.EachRawMember(line, func(k, v []byte) bool {
		switch {
		case jsonjs.RawKeyIs(k, "id"):
			idRaw, hasID = v, true
		case jsonjs.RawKeyIs(k, "output"):
			outRaw, kinds = v, append(kinds, "output")
		case jsonjs.RawKeyIs(k, "error"):
			errRaw, kinds = v, append(kinds, "error")
		case jsonjs.RawKeyIs(k, "skip"):
			skipRaw, kinds = v, append(kinds, "skip")
		}
		return true
	})
	if !hasID {
		return Reply{}, &answerProblem{fmt.Sprintf("answer has no \"id\" (want %q): %s", id, excerpt(line)), true}
	}
	if got, ok := str(idRaw); !ok || got != id {
		return Reply{}, &answerProblem{fmt.Sprintf("answer is for id %s, want %q", idRaw, id), true}
	}
	switch len(kinds) {
	case 0:
		return Reply{}, &answerProblem{msg: "answer has none of \"output\", \"error\", \"skip\": " + excerpt(line)}
	case 1:
	default:
		return Reply{}, &answerProblem{msg: fmt.Sprintf("answer has several of \"output\", \"error\", \"skip\" (%q): %s", kinds, excerpt(line))}
	}
	switch {
	case outRaw != nil:
		if outRaw[0] != '{' {
			return Reply{}, &answerProblem{msg: "answer \"output\" is not a JSON object: " + excerpt(outRaw)}
		}
		return Reply{Output: bytes.Clone(outRaw)}, nil
	case errRaw != nil:
		var msg string
		found := false
		if errRaw[0] == '{' {
			jsonjs.EachRawMember(errRaw, func(k, v []byte) bool {
				if jsonjs.RawKeyIs(k, "message") {
					msg, found = str(v)
				}
				return true
			})
		}
		if !found {
			return Reply{}, &answerProblem{msg: "answer \"error\" is not an object with a string \"message\": " + excerpt(errRaw)}
		}
		return Reply{Error: &msg}, nil
	default:
		reason, ok := str(skipRaw)
		if !ok {
			return Reply{}, &answerProblem{msg: "answer \"skip\" is not a string: " + excerpt(skipRaw)}
		}
		return Reply{Skip: &reason}, nil
	}
}

// decodeHello checks a handshake answer. An empty ops list is a valid
// handshake (every case is then unsupported); a missing or null "ops" is not.
func decodeHello(line []byte) (Hello, string) {
	if !isObject(line) {
		return Hello{}, "handshake answer is not a JSON object: " + excerpt(line)
	}
	ms := jsonjs.RawMembers(line, "protocol", "implementation", "ops", "error")
	protoRaw, implRaw, opsRaw, errRaw := ms[0], ms[1], ms[2], ms[3]
	if protoRaw == nil && errRaw != nil {
		return Hello{}, "adapter refused the handshake: " + excerpt(errRaw)
	}
	var h Hello
	if protoRaw == nil {
		return h, "handshake answer has no \"protocol\": " + excerpt(line)
	}
	if err := json.Unmarshal(protoRaw, &h.Protocol); err != nil {
		return h, "handshake \"protocol\" is not an integer: " + excerpt(protoRaw)
	}
	if h.Protocol != Protocol {
		return h, fmt.Sprintf("adapter speaks protocol %d; conform speaks protocol %d", h.Protocol, Protocol)
	}
	if implRaw == nil || implRaw[0] != '{' {
		return h, "handshake answer has no \"implementation\" object: " + excerpt(line)
	}
	if err := json.Unmarshal(implRaw, &h.Implementation); err != nil {
		return h, fmt.Sprintf("handshake \"implementation\": %v", err)
	}
	if h.Implementation.Name == "" {
		return h, "handshake \"implementation\" has no \"name\""
	}
	if opsRaw == nil || opsRaw[0] != '[' {
		return h, "handshake answer has no \"ops\" array (list the ops the adapter supports; [] for none): " + excerpt(line)
	}
	if err := json.Unmarshal(opsRaw, &h.Ops); err != nil {
		return h, "handshake \"ops\" is not an array of strings: " + excerpt(opsRaw)
	}
	if h.Ops == nil {
		h.Ops = []string{}
	}
	return h, ""
}
