package adapter

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Serve is the adapter side of protocol v1: it reads requests from r, one
// JSON object per line, and writes one answer line per request to w:
//
//	{"cmd":"hello","protocol":1}          → {"protocol":1,"implementation":impl,"ops":h.Ops()}
//	{"cmd":"run","id":…,"op":…,"input":…} → {"id":…,"output":…} | {"id":…,"error":{"message":…}} | {"id":…,"skip":…}
//	{"cmd":"bye"}                         → (no answer) Serve returns nil
//
// The input reaches h.Run as the text the request carried, and h.Run's
// output is written as returned (compacted only if it spans lines). An error
// from h.Run is an error answer; an op h does not list gets a skip answer. A
// malformed request (not JSON, no cmd, a run without id, op or input object,
// an unknown cmd, a line over 64 MiB) gets an error answer naming the
// problem, with the request's id when it has one. A panic in h.Run is not
// recovered: the adapter process crashes, as a harness bug should, and
// conform reports it with the stderr tail.
//
// Serve returns nil on bye or at the end of r (so the same program works in
// exec mode), ctx's error if ctx is done between requests, or a read or
// write error.
func Serve(ctx context.Context, r io.Reader, w io.Writer, h Harness, impl Implementation) error {
	return serve(ctx, r, w, h, impl, DefaultMaxLineBytes)
}

func serve(ctx context.Context, r io.Reader, w io.Writer, h Harness, impl Implementation, maxLine int) error {
	s := server{h: h, impl: impl}
	lr := lineReader{r: bufio.NewReaderSize(r, pipeBuf), max: maxLine}
	bw := bufio.NewWriterSize(w, pipeBuf)
	var out []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := lr.next()
		var bye bool
		switch err {
		case nil:
			if len(bytes.TrimSpace(line)) == 0 {
				continue // a blank line is not a request
			}
			out, bye = s.handle(out[:0], line)
		case errLineTooLong:
			out = appendErrorAnswer(out[:0], nil, fmt.Sprintf("request line over %d bytes", maxLine))
		case io.EOF:
			return nil
		default:
			return err
		}
		if bye {
			return nil
		}
		if _, err := bw.Write(out); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if cap(out) > keepBuf {
			out = nil
		}
	}
}

type server struct {
	h    Harness
	impl Implementation
	ops  []string // h.Ops(), read at the first request that needs it
}

func (s *server) loadOps() []string {
	if s.ops == nil {
		s.ops = s.h.Ops()
		if s.ops == nil {
			s.ops = []string{} // "ops":[] , never null: a missing list fails the handshake
		}
	}
	return s.ops
}

func (s *server) supports(op string) bool {
	for _, o := range s.loadOps() {
		if o == op {
			return true
		}
	}
	return false
}

// handle appends the answer to one request line; bye reports a bye.
func (s *server) handle(dst, line []byte) (out []byte, bye bool) {
	clean, bad := sanitize(line)
	v, err := jsonjs.Parse(clean) // JSON.parse semantics: no depth limit
	if err != nil {
		return appendErrorAnswer(dst, nil, "request is not JSON: "+excerpt(line)+" ("+err.Error()+")"), false
	}
	if v.Kind() != jsonjs.Object {
		return appendErrorAnswer(dst, nil, "request is not a JSON object: "+excerpt(line)), false
	}
	ms := jsonjs.RawMembers(line, "id", "input")
	idRaw, inputRaw := ms[0], ms[1]
	if idV, _ := v.Get("id"); idV.Kind() != jsonjs.String || (bad != nil && pathAt(line, bad.Offset) == "$.id") {
		idRaw = nil // an id that cannot be echoed as a string
	}
	if bad != nil { // a request is UTF-8 (docs/protocol.md); nothing repairs it
		bad.Path = pathAt(line, bad.Offset)
		return appendErrorAnswer(dst, idRaw, "request is not UTF-8: "+bad.Error()), false
	}
	cmdV, _ := v.Get("cmd")
	cmd, ok := cmdV.Str()
	if !ok {
		return appendErrorAnswer(dst, idRaw, "request has no \"cmd\" string: "+excerpt(line)), false
	}
	switch cmd {
	case "hello":
		return append(append(dst, jsonjs.Marshal(Hello{Protocol: Protocol, Implementation: s.impl, Ops: s.loadOps()}.Value())...), '\n'), false
	case "bye":
		return dst, true
	case "run":
	default:
		return appendErrorAnswer(dst, idRaw, fmt.Sprintf("unknown cmd %q", cmd)), false
	}
	if idRaw == nil {
		return appendErrorAnswer(dst, nil, "run request has no \"id\" string"), false
	}
	opV, _ := v.Get("op")
	op, ok := opV.Str()
	if !ok {
		return appendErrorAnswer(dst, idRaw, "run request has no \"op\" string"), false
	}
	if inputRaw == nil || inputRaw[0] != '{' {
		return appendErrorAnswer(dst, idRaw, "run request has no \"input\" object"), false
	}
	if !s.supports(op) {
		dst = append(dst, `{"id":`...)
		dst = append(dst, idRaw...)
		dst = append(dst, `,"skip":`...)
		dst = appendQuoted(dst, unsupported(op))
		return append(dst, "}\n"...), false
	}
	output, err := s.h.Run(op, bytes.Clone(inputRaw)) // the line buffer is reused
	if err != nil {
		return appendErrorAnswer(dst, idRaw, err.Error()), false
	}
	if clean, _ := sanitize(output); !isObject(clean) { // bad bytes are the client's to judge
		return appendErrorAnswer(dst, idRaw, "harness output is not a JSON object: "+excerpt(output)), false
	}
	// Bytes that are not UTF-8 go out as the harness wrote them: the client
	// judges them (the case fails), nothing here repairs them.
	dst = append(dst, `{"id":`...)
	dst = append(dst, idRaw...) // as the request spelled it
	dst = append(dst, `,"output":`...)
	dst = appendOneLine(dst, output)
	return append(dst, "}\n"...), false
}

// appendErrorAnswer appends {"id":…,"error":{"message":…}}; idRaw is the
// request's raw id token, or nil when it has none.
func appendErrorAnswer(dst, idRaw []byte, message string) []byte {
	dst = append(dst, '{')
	if idRaw != nil {
		dst = append(dst, `"id":`...)
		dst = append(dst, idRaw...)
		dst = append(dst, ',')
	}
	dst = append(dst, `"error":{"message":`...)
	dst = appendQuoted(dst, message)
	return append(dst, "}}\n"...)
}
