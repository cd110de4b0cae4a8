package fuzz

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
)

// Golden is the reference's answer to an op input, computed on the fly: the
// same value fixture.Answer stores in golden/ for a saved case. An input the
// reference cannot decode (*reference.InputError) is an error: the
// generators never draw one, so it is a bug of conform's, not a finding.
func Golden(op string, text []byte) (runner.Want, error) {
	out, err := reference.Run(op, text)
	var inErr *reference.InputError
	switch {
	case errors.As(err, &inErr):
		return runner.Want{}, err
	case err != nil:
		msg := err.Error()
		return runner.Want{Error: &msg}, nil
	}
	v, err := jsonjs.Parse(out)
	if err != nil {
		return runner.Want{}, fmt.Errorf("the reference wrote invalid JSON for %s: %w", op, err)
	}
	return runner.Want{Output: &v}, nil
}

// judgeInput runs one input through a session and judges the answer exactly
// as `conform run` judges a fixture: runner.RunCase with the golden
// computed here (comparators of runner.Rules, runner.CheckProperties,
// faults as verdicts). reqs are the case's requirements; nil: what the
// input exercises, as a generated fixture cites them (generators.Cite).
func judgeInput(ctx context.Context, s adapter.Session, id, op string, reqs []string, in Input, timeout time.Duration) (runner.CaseResult, error) {
	want, err := Golden(op, in.Text)
	if err != nil {
		return runner.CaseResult{}, err
	}
	return judgeWant(ctx, s, id, op, reqs, in, want, timeout), nil
}

// judgeWant is judgeInput against a given answer (a deviation model's).
func judgeWant(ctx context.Context, s adapter.Session, id, op string, reqs []string, in Input, want runner.Want, timeout time.Duration) runner.CaseResult {
	if reqs == nil {
		reqs = generators.Cite(op, in.Value)
	}
	c := runner.Case{
		ID:           id,
		Op:           op,
		Requirements: reqs,
		Description:  "fuzz case",
		Input:        in.Text,
		InputValue:   in.Value,
		Want:         want,
	}
	return runner.RunCase(ctx, s, c, timeout)
}

// Key identifies a finding by its cause (report.FuzzKey).
type Key = report.FuzzKey

// KeyOf returns the finding key of a result, and false for a result that is
// not a finding (pass, skipped, unsupported).
func KeyOf(r runner.CaseResult) (Key, bool) {
	switch r.Verdict {
	case verdict.Fail:
		k := Key{Op: r.Op, Verdict: r.Verdict, Field: "(answer)"}
		if len(r.Diffs) > 0 && r.Diffs[0].Field != "" {
			k.Field = r.Diffs[0].Field
		}
		reqs := runner.Blamed(r.Diffs)
		sort.Strings(reqs)
		k.Requirements = strings.Join(reqs, " ")
		return k, true
	case verdict.Crash, verdict.Timeout, verdict.Error:
		return Key{Op: r.Op, Verdict: r.Verdict}, true
	}
	return Key{}, false
}
