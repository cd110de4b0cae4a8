// Package conformtest checks an in-process Go harness against conform's
// embedded cases, in the style of testing/fstest.TestFS:
//
//	func TestConformance(t *testing.T) {
//		if err := conformtest.Check(myHarness{}); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// or, with one subtest per case (go test -run 'TestConformance/grep.result/'):
//
//	func TestConformance(t *testing.T) { conformtest.Run(t, myHarness{}) }
//
// A harness implements the ops of docs/ops.md: Run takes an op name and
// the op's JSON input and returns the op's JSON output, or an error whose
// message is the library's own (the golden answer of an invalid
// configuration is such a message). Cases of an optional op (retain.items,
// retain.text, spill.preview) that Ops does not list are skipped; the four
// contract ops are required, as in `conform run`. Answers are judged exactly as `conform run` judges
// an adapter: field by field with the comparators of docs/fixtures.md, plus
// the property checks, every one of which names the requirement it
// enforces. The harness is called from one goroutine at a time.
package conformtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// Harness is an in-process harness: op name and JSON input in, JSON output
// out. An error is the harness's thrown error; its message is compared
// with the golden error message.
type Harness interface {
	Ops() []string
	Run(op string, input []byte) ([]byte, error)
}

// Violation is one way a harness's answer to a case breaks the contract.
type Violation struct {
	Case         string   // the case ID, e.g. "grep.result/gen-001"
	Verdict      string   // fail, error, timeout or crash
	Field        string   // the output field, "" for the whole answer
	Path         string   // the JSON path, e.g. "$.meta.total"
	Requirements []string // the requirement(s) broken
	Message      string
	Want, Got    string // excerpts, for differences from the golden answer
}

func (v *Violation) Error() string {
	var b strings.Builder
	b.WriteString(v.Case)
	b.WriteString(": ")
	if v.Verdict != string(verdict.Fail) {
		b.WriteString(v.Verdict + ": ")
	}
	if v.Path != "" {
		b.WriteString(v.Path + ": ")
	}
	b.WriteString(v.Message)
	if v.Want != "" || v.Got != "" {
		fmt.Fprintf(&b, " (want %s, got %s)", v.Want, v.Got)
	}
	switch len(v.Requirements) {
	case 0:
	case 1:
		b.WriteString(" [" + v.Requirements[0] + "]")
	default:
		b.WriteString(" [" + strings.Join(v.Requirements, ", ") + "]")
	}
	return b.String()
}

var loaded struct {
	once  sync.Once
	cases []runner.Case
	err   error
}

// cases returns the embedded cases, loaded once.
func cases() ([]runner.Case, error) {
	loaded.once.Do(func() {
		loaded.cases, loaded.err = runner.LoadCases(conform.Files)
		if loaded.err != nil {
			loaded.err = fmt.Errorf("conformtest: embedded cases: %w", loaded.err)
		}
	})
	return loaded.cases, loaded.err
}

// Check runs every embedded case through h and returns nil when h
// conforms, else every violation joined with errors.Join; each is a
// *Violation whose message names the case, the field's JSON path and the
// requirement. Unsupported optional ops and skips are not violations; an
// unsupported required op is one violation naming the op.
func Check(h Harness) error {
	cs, err := cases()
	if err != nil {
		return err
	}
	rep, err := runner.Run(context.Background(), cs, runner.Options{
		Jobs:       1,
		NewSession: func(context.Context) (adapter.Session, error) { return newSession(h), nil },
	})
	if err != nil {
		return fmt.Errorf("conformtest: %w", err)
	}
	var errs []error
	missing := map[string]int{}
	for i := range rep.Cases {
		c := &rep.Cases[i]
		if c.Verdict == verdict.Unsupported && runner.Required(c.Op) {
			missing[c.Op]++
			continue
		}
		for _, v := range violations(c) {
			errs = append(errs, v)
		}
	}
	for _, op := range runner.RequiredOps {
		if n := missing[op]; n > 0 {
			errs = append(errs, &Violation{Case: op, Verdict: string(verdict.Unsupported),
				Message: fmt.Sprintf("the harness does not list the required op %s; its %d cases were not run", op, n)})
		}
	}
	return errors.Join(errs...)
}

// Run runs every embedded case through h as a subtest named by the case ID
// (t.Run("grep.result/gen-001", …)): a violation fails the subtest with
// t.Error, a case whose op h does not list or that h skips is skipped.
func Run(t *testing.T, h Harness) {
	t.Helper()
	cs, err := cases()
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(h)
	for _, c := range cs {
		t.Run(c.ID, func(t *testing.T) {
			r := runner.RunCase(context.Background(), s, c, 0)
			switch {
			case r.Verdict == verdict.Unsupported && runner.Required(c.Op):
				t.Fatalf("%s: the harness does not list the required op %s", c.ID, c.Op)
			case r.Verdict == verdict.Unsupported, r.Verdict == verdict.Skipped:
				t.Skip(r.Message)
			}
			for _, v := range violations(&r) {
				t.Error(v)
			}
		})
	}
}

// newSession wraps h in the adapter package's in-process session: an error
// return is an error answer, a panic a crash, output that is not a JSON
// object a protocol error.
func newSession(h Harness) adapter.Session {
	return adapter.InProcess(h, adapter.Implementation{Name: fmt.Sprintf("%T", h), Language: "go"})
}

// violations turns a failing result into its violations.
func violations(r *runner.CaseResult) []*Violation {
	if !r.Verdict.FailsRun() {
		return nil
	}
	if len(r.Diffs) == 0 {
		msg := r.Message
		if r.Stderr != "" {
			msg += "\n" + r.Stderr
		}
		return []*Violation{{Case: r.ID, Verdict: string(r.Verdict), Requirements: r.Requirements, Message: msg}}
	}
	var out []*Violation
	for _, d := range r.Diffs {
		v := &Violation{Case: r.ID, Verdict: string(r.Verdict), Field: d.Field, Path: d.Path, Message: d.Message, Want: d.Want, Got: d.Got}
		if len(d.Requirements) > 0 {
			v.Requirements = append([]string(nil), d.Requirements...)
		} else {
			v.Requirements = r.Requirements
		}
		if v.Path == "" {
			v.Path = "$"
		}
		out = append(out, v)
	}
	return out
}
