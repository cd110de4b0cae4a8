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
// A harness implements the ops of docs/ops.md: Run takes a context, an op
// name and the op's JSON input and returns the op's JSON output, or an
// error whose message is the library's own (the golden answer of an
// invalid configuration is such a message). Each case has a deadline (10 s,
// WithTimeout), watched as nettest.TestConn watches its subtests: the
// context is done at the deadline, a case still running then is a timeout,
// and a harness that ignores its context and never returns fails its case
// and stops the run, instead of hanging go test. Cases of an optional op (retain.items,
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
// with the golden error message. ctx is done when the case's deadline
// passes; the answer then no longer counts.
type Harness interface {
	Ops() []string
	Run(ctx context.Context, op string, input []byte) ([]byte, error)
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
// unsupported required op is one violation naming the op. A case over its
// deadline is a timeout violation; when the harness never returns from
// one, the cases after it are timeout violations too, not run.
func Check(h Harness, opts ...Option) error {
	o := newOptions(opts)
	cs, err := cases()
	if err != nil {
		return err
	}
	rep, err := runner.Run(context.Background(), cs, runner.Options{
		Jobs:       1,
		Timeout:    o.timeout,
		NewSession: func(context.Context) (adapter.Session, error) { return newWatched(h), nil },
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
// t.Error, a case whose op h does not list or that h skips is skipped. A
// case over its deadline fails with a timeout; after a case the harness
// never returns from, the remaining subtests fail at once.
func Run(t *testing.T, h Harness, opts ...Option) {
	t.Helper()
	o := newOptions(opts)
	cs, err := cases()
	if err != nil {
		t.Fatal(err)
	}
	s := newWatched(h)
	for _, c := range cs {
		t.Run(c.ID, func(t *testing.T) {
			r := runner.RunCase(t.Context(), s, c, o.timeout)
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
