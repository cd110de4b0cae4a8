package adapter

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// InProcess wraps an in-process harness as a Session. An error from h.Run
// becomes an error answer (Reply.Error), a panic inside h.Run a crash Fault
// carrying the panic value and stack, an op h does not list a skip, and
// output that is not a JSON object a protocol Fault, exactly as the same
// behaviour would be reported through an adapter process. Close is a no-op.
func InProcess(h Harness, impl Implementation) Session {
	ops := slices.Clone(h.Ops())
	if ops == nil {
		ops = []string{}
	}
	return &inProcess{h: h, hello: Hello{Protocol: Protocol, Implementation: impl, Ops: ops}}
}

type inProcess struct {
	h     Harness
	hello Hello
}

func (s *inProcess) Hello() Hello { return s.hello }

func (s *inProcess) Close() error { return nil }

func (s *inProcess) Run(ctx context.Context, id, op string, input []byte) (reply Reply, err error) {
	if err := ctx.Err(); err != nil {
		return Reply{}, err
	}
	if !s.hello.Supports(op) {
		reason := unsupported(op)
		return Reply{Skip: &reason}, nil
	}
	defer func() {
		if v := recover(); v != nil {
			stack := fmt.Sprintf("panic: %v\n\n%s", v, debug.Stack())
			if len(stack) > DefaultStderrTail {
				stack = stack[:DefaultStderrTail] // the top frames are the ones that matter
			}
			reply, err = Reply{}, &Fault{Kind: FaultCrash, Message: fmt.Sprintf("harness panicked on case %s: %v", id, v), Stderr: stack}
		}
	}()
	out, herr := s.h.Run(op, input)
	if herr != nil {
		msg := herr.Error()
		reply := Reply{Error: &msg}
		if off, bad, found := jsonjs.FirstInvalidWTF8(msg); found {
			reply.BadBytes = &BadBytes{Path: "$.error.message", Offset: off, Bytes: bytes.Clone(bad)}
		}
		return reply, nil
	}
	clean, bad := sanitize(out)
	v, ok := parseObject(clean)
	if !ok {
		return Reply{}, &Fault{Kind: FaultProtocol, Message: "harness output is not a JSON object: " + excerpt(out)}
	}
	if bad != nil { // not repaired: the case fails on them, as through a process
		bad.inOutput(pathAt(out, bad.Offset))
	}
	return Reply{Output: out, Value: &v, BadBytes: bad}, nil
}

func unsupported(op string) string { return fmt.Sprintf("op %q is not supported by this harness", op) }

// Reference returns the embedded reference (package reference) as a
// Harness. Its errors are of two sorts, and both become error answers,
// since an adapter has no other channel: the harness's own thrown errors
// ("tool-fs-search: grepMaxMatches must be a positive integer") and
// *reference.InputError for input that does not decode into the op's input
// type, whose message names the op's input ("grep.result input: …").
func Reference() Harness { return referenceHarness{} }

type referenceHarness struct{}

func (referenceHarness) Ops() []string { return reference.Ops() }

func (referenceHarness) Run(op string, input []byte) ([]byte, error) {
	return reference.Run(op, input)
}

// ReferenceImplementation describes the embedded reference in a handshake;
// its version is conform's own, so the same binary says the same however it
// was built.
func ReferenceImplementation() Implementation {
	return Implementation{
		Name:     "conform reference",
		Version:  conform.Version,
		Language: "go",
		Homepage: "https://github.com/dsh-conform/conform",
	}
}
