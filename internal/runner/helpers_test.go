package runner_test

import (
	"context"
	"os"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// root is the module root, where fixtures/ and golden/ live.
const root = "../.."

var (
	casesOnce sync.Once
	allCases  []runner.Case
	casesErr  error
)

// cases loads every case once.
func cases() []runner.Case {
	casesOnce.Do(func() { allCases, casesErr = runner.LoadCases(os.DirFS(root)) })
	Expect(casesErr).NotTo(HaveOccurred())
	return allCases
}

// caseByID returns one case.
func caseByID(id string) runner.Case {
	for _, c := range cases() {
		if c.ID == id {
			return c
		}
	}
	Fail("no case " + id)
	return runner.Case{}
}

// funcHarness wraps the reference, letting a test alter ops and outputs.
type funcHarness struct {
	ops []string
	// alter rewrites the reference's output of a case (nil: unchanged).
	alter func(op string, input []byte, out jsonjs.Value) jsonjs.Value
}

func (h funcHarness) Ops() []string {
	if h.ops != nil {
		return h.ops
	}
	return reference.Ops()
}

func (h funcHarness) Run(op string, input []byte) ([]byte, error) {
	out, err := reference.Run(op, input)
	if err != nil || h.alter == nil {
		return out, err
	}
	v, perr := jsonjs.Parse(out)
	if perr != nil {
		return nil, perr
	}
	return jsonjs.Marshal(h.alter(op, input, v)), nil
}

// session is a small in-process adapter.Session for tests; reply, when
// set, answers instead of the harness.
type session struct {
	h     adapter.Harness
	reply func(id, op string) (adapter.Reply, error)
}

func (s *session) Hello() adapter.Hello {
	return adapter.Hello{Protocol: adapter.Protocol, Implementation: adapter.Implementation{Name: "test", Version: "0", Language: "go"}, Ops: s.h.Ops()}
}

func (s *session) Run(_ context.Context, id, op string, input []byte) (adapter.Reply, error) {
	if s.reply != nil {
		return s.reply(id, op)
	}
	out, err := s.h.Run(op, input)
	if err != nil {
		msg := err.Error()
		return adapter.Reply{Error: &msg}, nil
	}
	return adapter.Reply{Output: out}, nil
}

func (s *session) Close() error { return nil }

// sessionsOf starts in-process sessions (the adapter package's) over h.
func sessionsOf(h adapter.Harness) func(context.Context) (adapter.Session, error) {
	return func(context.Context) (adapter.Session, error) {
		return adapter.InProcess(h, adapter.Implementation{Name: "test", Version: "0", Language: "go"}), nil
	}
}

// run runs cases through a harness with 4 workers.
func run(cs []runner.Case, h adapter.Harness) *runner.Report {
	rep, err := runner.Run(context.Background(), cs, runner.Options{Jobs: 4, NewSession: sessionsOf(h)})
	Expect(err).NotTo(HaveOccurred())
	return rep
}

// del removes a top-level member.
func del(v jsonjs.Value, key string) jsonjs.Value {
	ms, _ := v.Members()
	var out []jsonjs.Member
	for _, m := range ms {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return jsonjs.ObjectValue(out...)
}

func get(v jsonjs.Value, keys ...string) jsonjs.Value {
	for _, k := range keys {
		v, _ = v.Get(k)
	}
	return v
}

func parse(s string) jsonjs.Value {
	v, err := jsonjs.Parse([]byte(s))
	Expect(err).NotTo(HaveOccurred())
	return v
}

func str(s string) *string { return &s }
