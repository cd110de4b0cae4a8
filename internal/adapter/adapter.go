// Package adapter speaks adapter protocol v1 (docs/protocol.md): conform
// starts a harness's adapter as a child process from a plain argv, writes one
// JSON request per line to its stdin and reads one JSON answer per line from
// its stdout. The same Session interface also wraps an in-process harness,
// so the runner, the fuzzer and conformtest drive every harness alike.
package adapter

import (
	"context"
	"fmt"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Protocol is the protocol version this package speaks.
const Protocol = 1

// Implementation describes a harness, from the handshake.
type Implementation struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Language string `json:"language"`
	Homepage string `json:"homepage"`
}

// Hello is the adapter's handshake answer.
type Hello struct {
	Protocol       int            `json:"protocol"`
	Implementation Implementation `json:"implementation"`
	Ops            []string       `json:"ops"`
}

// Value returns the handshake answer as a JSON value, written by jsonjs so
// that names and versions keep lone surrogates as JSON.stringify does.
func (h Hello) Value() jsonjs.Value {
	ops := make([]jsonjs.Value, len(h.Ops))
	for i, op := range h.Ops {
		ops[i] = jsonjs.StringValue(op)
	}
	im := h.Implementation
	return jsonjs.ObjectValue(
		jsonjs.Member{Key: "protocol", Value: jsonjs.IntValue(h.Protocol)},
		jsonjs.Member{Key: "implementation", Value: jsonjs.ObjectValue(
			jsonjs.Member{Key: "name", Value: jsonjs.StringValue(im.Name)},
			jsonjs.Member{Key: "version", Value: jsonjs.StringValue(im.Version)},
			jsonjs.Member{Key: "language", Value: jsonjs.StringValue(im.Language)},
			jsonjs.Member{Key: "homepage", Value: jsonjs.StringValue(im.Homepage)},
		)},
		jsonjs.Member{Key: "ops", Value: jsonjs.ArrayValue(ops...)},
	)
}

// Supports reports whether the adapter listed an op.
func (h Hello) Supports(op string) bool {
	for _, o := range h.Ops {
		if o == op {
			return true
		}
	}
	return false
}

// Reply is the adapter's answer to one case: exactly one of Output, Error
// (the harness threw; Message is its message) and Skip (a reason) is set.
//
// Value is Output parsed with JSON.parse semantics when the session parsed
// it already (OutputValue parses otherwise). BadBytes is set when Output or
// the error message holds bytes that are not UTF-8: they are not repaired,
// and the case fails.
type Reply struct {
	Output   []byte
	Value    *jsonjs.Value
	Error    *string
	Skip     *string
	BadBytes *BadBytes
}

// OutputValue returns the output as a JSON value.
func (r Reply) OutputValue() (jsonjs.Value, error) {
	if r.Value != nil {
		return *r.Value, nil
	}
	return jsonjs.Parse(r.Output)
}

// FaultKind classifies a broken exchange.
type FaultKind string

// Fault kinds; each maps to a verdict of the same name.
const (
	FaultTimeout  FaultKind = "timeout" // no answer in time; the process was killed
	FaultCrash    FaultKind = "crash"   // the process exited
	FaultProtocol FaultKind = "error"   // a line that is not JSON, a wrong id, a line over the cap, a malformed answer
	FaultStart    FaultKind = "start"   // the process could not be started or failed the handshake
)

// Fault is a broken exchange with an adapter. Stderr holds the last 4 KiB
// the adapter wrote to stderr, for the report.
type Fault struct {
	Kind    FaultKind
	Message string
	Stderr  string
	// NotRun marks the circuit breaker's fault: the case was never sent,
	// so the run did not complete (issue 21). Last is then the whole
	// message of the fault that opened the breaker.
	NotRun bool
	Last   string
}

func (f *Fault) Error() string { return fmt.Sprintf("adapter %s: %s", f.Kind, f.Message) }

// Session is one adapter: a process (persistent or one per case) or an
// in-process harness. Run returns a *Fault for a broken exchange; the
// session restarts a persistent process by itself before the next Run.
type Session interface {
	Hello() Hello
	Run(ctx context.Context, id, op string, input []byte) (Reply, error)
	Close() error
}

// Harness is an in-process harness: op name and JSON input in, JSON output
// out. An error is the harness's own thrown error (an adapter error answer).
type Harness interface {
	Ops() []string
	Run(op string, input []byte) ([]byte, error)
}
