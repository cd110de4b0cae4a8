package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/dsh-conform/conform/generators"
	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/reference"
	"github.com/dsh-conform/conform/reference/jsonjs"
	"github.com/dsh-conform/conform/spec"
)

// Minimization (issue 20, item 2): when no deviation model explains a
// failing case, conform shrinks the case's input through the adapter to
// the smallest input on which the harness still fails the same field, and
// blames what that input exercises (generators.Cite) within the part that
// differs. The budget (Options.ExplainTime) is one for the whole run,
// shared by the cases; it never changes a verdict, only narrows a diff's
// blame (what it drops is affected, not failed).

// Minimized is what minimizing a failing case's input found.
type Minimized struct {
	// Input is the smallest input found on which the harness still fails
	// Field; InputText is its exact text when it holds a lone surrogate
	// (see Diff.WantText).
	Input     json.RawMessage `json:"input,omitempty"` // absent where only inputText can hold it (report.StrictDepth)
	InputText string          `json:"inputText,omitempty"`
	// Field is the output field (a diff's Field) that still fails; for a
	// property, the same property still fails.
	Field string `json:"field"`
	// Runs is how many candidate inputs the harness answered.
	Runs int `json:"runs"`
	// Stopped says the budget ran out before no smaller input failed.
	Stopped bool `json:"stopped,omitempty"`
}

// Bounds of one minimization: the candidates one case may try, and the
// inputs worth minimizing (a walk over the value is recursive).
const (
	maxMinimizeRuns  = 5000
	maxMinimizeBytes = 64 << 10
	maxMinimizeDepth = 64
)

// NoteExplain is the kind of the report note saying the budget ran out.
const NoteExplain = "explain"

// shares hands out one round's time: the case taken now gets what is
// left divided among the cases not yet taken, times the sessions running
// at once, and never past the deadline.
type shares struct {
	mu       sync.Mutex
	deadline time.Time
	sessions int
	left     int // cases not yet taken, at least 1 while any is
}

// next is the end of the case taken at now.
func (s *shares) next(now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	share := s.deadline.Sub(now) * time.Duration(s.sessions) / time.Duration(s.left)
	s.left--
	if end := now.Add(share); end.Before(s.deadline) {
		return end
	}
	return s.deadline
}

// minimizeAll minimizes the failing cases no model explains, on the run's
// sessions in parallel, within budget; it returns a note when the budget
// ran out. results are changed in place, never their verdicts. Each case
// gets a fair share of what is left (the cases still to come get their
// part whatever the first ones cost); a case its share stopped goes on in
// the next round with what the quick ones left, until the budget is spent.
func minimizeAll(ctx context.Context, sessions []adapter.Session, cases []Case, results []CaseResult, budget, timeout time.Duration, language string, phase func(string)) []Note {
	var todo []int
	for i, r := range results {
		if (r.Verdict == verdict.Fail || r.Verdict == verdict.XFail) && len(r.Diagnosis) == 0 && len(r.Diffs) > 0 &&
			len(cases[i].Input) <= maxMinimizeBytes && shallow(cases[i].InputValue, maxMinimizeDepth) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	deadline := time.Now().Add(budget)
	state := make(map[int]*minimizer, len(todo))
	for _, i := range todo {
		state[i] = newMinimizer(ctx, cases[i], results[i].Diffs[0], timeout, language)
	}
	explaining := fmt.Sprintf("explaining %d cases", len(todo))
	if len(todo) == 1 {
		explaining = "explaining 1 case"
	}
	minimized := 0
	if phase != nil {
		phase(explaining)
	}
	for len(todo) > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
		var mu sync.Mutex
		var stopped []int
		share := &shares{deadline: deadline, sessions: len(sessions), left: len(todo)}
		next := make(chan int)
		var wg sync.WaitGroup
		for _, s := range sessions {
			wg.Go(func() {
				for i := range next {
					end := share.next(time.Now())
					m := state[i]
					finished := m.run(s, end)
					mu.Lock()
					if !finished {
						stopped = append(stopped, i)
					} else if phase != nil {
						minimized++
						phase(fmt.Sprintf("%s, %d minimized", explaining, minimized))
					}
					mu.Unlock()
				}
			})
		}
		for _, i := range todo {
			next <- i
		}
		close(next)
		wg.Wait()
		slices.Sort(stopped)
		todo = stopped
	}
	unfinished := 0
	for i, m := range state {
		m.record(&results[i])
		if !m.done {
			unfinished++
		}
	}
	if unfinished == 0 {
		return nil
	}
	return []Note{{Kind: NoteExplain, Message: fmt.Sprintf(
		"minimization stopped at budget (%s for the run): %d of %d failing cases no model explains were not minimized to the end",
		budget, unfinished, len(state))}}
}

// shallow reports whether v nests at most depth levels.
func shallow(v jsonjs.Value, depth int) bool {
	if depth < 0 {
		return false
	}
	if items, ok := v.Items(); ok {
		for _, it := range items {
			if !shallow(it, depth-1) {
				return false
			}
		}
	}
	if ms, ok := v.Members(); ok {
		for _, m := range ms {
			if !shallow(m.Value, depth-1) {
				return false
			}
		}
	}
	return true
}

// minimizer shrinks one case's input, over one or more rounds.
type minimizer struct {
	ctx     context.Context
	s       adapter.Session
	c       Case
	target  Diff
	schema  bool // the case's input passes the op's input schema: candidates must too
	timeout time.Duration
	lang    string // the harness's language, for the requirements that bind it
	runs    int
	cur     jsonjs.Value // the smallest failing input so far
	last    *answer      // the harness's answer to cur, until settle takes its blame (at once)
	// blame is, per field that differs on cur, what its comparison blames
	// (citing what cur exercises); set when cur shrank. The answer itself
	// is not kept between rounds: a harness may answer megabytes.
	blame map[string][]string
	pos   int  // where in the candidates the pass is
	done  bool // no smaller candidate fails
}

// answer is the harness's answer to a candidate, and the candidate as a
// case whose golden answer is the reference's.
type answer struct {
	k      Case
	output *jsonjs.Value
	errMsg *string
}

// newMinimizer starts minimizing c's input against the failing field of
// target (the case's first diff).
func newMinimizer(ctx context.Context, c Case, target Diff, timeout time.Duration, language string) *minimizer {
	return &minimizer{ctx: ctx, c: c, target: target, timeout: timeout, lang: language, cur: c.InputValue, schema: validInput(c.Op, c.InputValue)}
}

// run shrinks the input on session s until no smaller candidate fails the
// target field, or until end; it reports whether it got to the end. A
// candidate must be valid for the op: the reference answers it (no input
// error, and it throws exactly when it threw on the case) and it passes
// the op's input schema when the case's input does.
func (m *minimizer) run(s adapter.Session, end time.Time) bool {
	m.s = s
	defer m.settle()
shrink:
	for !m.done {
		// After a success the pass goes on where it was, not from the
		// root again: what failed to shrink before the success mostly
		// still does. It ends after one whole pass without a success.
		cands := candidates(m.cur)
		for n := range cands {
			if !time.Now().Before(end) || m.runs >= maxMinimizeRuns || m.ctx.Err() != nil {
				return m.runs >= maxMinimizeRuns // the run cap ends it for good
			}
			j := (m.pos + n) % len(cands)
			v := cands[j]()
			if a, ok := m.fails(v); ok {
				m.cur, m.last, m.pos = v, a, j
				m.settle() // the answer goes now, so that the next candidate's is not held beside it (issue 23)
				continue shrink
			}
		}
		m.done = true
	}
	return true
}

// settle replaces the answer to the smallest input by the blame of its
// fields: what the comparison of that answer with the reference's blames
// when the case cites what the input exercises (generators.Cite).
func (m *minimizer) settle() {
	if m.last == nil {
		return
	}
	k := m.last.k
	k.Requirements = generators.Cite(k.Op, k.InputValue)
	diffs := Compare(k, m.last.output, m.last.errMsg)
	inScope(k, diffs, m.lang)
	m.blame = map[string][]string{}
	for _, d := range diffs {
		m.blame[d.Field] = append(m.blame[d.Field], d.Requirements...)
	}
	m.last = nil
}

// record puts the smallest input found on r and narrows r's blame by it.
func (m *minimizer) record(r *CaseResult) {
	r.Minimized = &Minimized{Input: jsonjs.Marshal(m.cur), Field: m.target.Field, Runs: m.runs, Stopped: !m.done}
	if m.blame != nil {
		narrow(r, m.blame, m.lang)
	}
}

// fails runs a candidate through the reference and the harness and
// reports whether the harness still fails the target.
func (m *minimizer) fails(v jsonjs.Value) (*answer, bool) {
	text := jsonjs.Marshal(v)
	if m.schema && !validInput(m.c.Op, v) {
		return nil, false
	}
	out, err := reference.Run(m.c.Op, text)
	var inErr *reference.InputError
	if errors.As(err, &inErr) || (err != nil) != (m.c.Want.Error != nil) {
		return nil, false
	}
	k := Case{ID: m.c.ID, Op: m.c.Op, Requirements: m.c.Requirements, Input: text, InputValue: v, File: m.c.File}
	if err != nil {
		msg := err.Error()
		k.Want.Error = &msg
	} else {
		w, perr := jsonjs.Parse(out)
		if perr != nil {
			return nil, false
		}
		k.Want.Output = &w
	}
	ctx := m.ctx
	if t := m.timeout; t > 0 {
		if bound, ok := adapter.RunBound(m.s); ok {
			t = max(t, bound)
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	reply, rerr := m.s.Run(ctx, m.c.ID, m.c.Op, text)
	m.runs++
	if rerr != nil || reply.Skip != nil || reply.BadBytes != nil {
		return nil, false
	}
	a := &answer{k: k, errMsg: reply.Error}
	if reply.Error == nil {
		if reply.Output == nil && reply.Value == nil {
			return nil, false
		}
		o, perr := reply.OutputValue()
		if perr != nil {
			return nil, false
		}
		a.output = &o
	}
	diffs := Compare(k, a.output, a.errMsg)
	if a.output != nil && k.Want.Error == nil {
		diffs = append(diffs, CheckProperties(k.Op, v, *a.output)...)
	}
	for _, d := range diffs {
		if d.Field == m.target.Field && (d.Comparator == CmpProperty) == (m.target.Comparator == CmpProperty) &&
			(d.Comparator != CmpProperty || slices.Equal(d.Requirements, m.target.Requirements)) {
			return a, true
		}
	}
	return nil, false
}

// narrow blames, in each compared diff of r whose field still differs on
// the minimal input, what that input exercises (generators.Cite) within
// the part that differs there (byField, from settle); what the diff blamed
// besides becomes what it affects. It only ever drops requirements, and
// never where the outcome flipped: the deciding requirement already names
// the cause (outcome.go).
func narrow(r *CaseResult, byField map[string][]string, language string) {
	for _, d := range r.Diffs {
		if d.Comparator != CmpProperty && (d.Field == "" || d.Field == "isError") {
			return
		}
	}
	changed := false
	for i := range r.Diffs {
		d := &r.Diffs[i]
		mb, ok := byField[d.Field]
		if d.Comparator == CmpProperty || !ok {
			continue
		}
		var keep []string
		for _, id := range d.Requirements {
			if slices.Contains(mb, id) {
				keep = append(keep, id)
			}
		}
		if len(keep) == 0 || len(keep) == len(d.Requirements) {
			continue
		}
		affect(d, keep)
		changed = true
	}
	if changed {
		r.Broken = Blamed(r.Diffs)
		r.Affected = affected(r.Diffs, r.Broken, language)
	}
}

// validInput reports whether an input passes its op's input schema
// (spec/schemas/op-OP.input.json); an op without one accepts anything.
func validInput(op string, v jsonjs.Value) bool {
	name := "op-" + op + ".input"
	if _, err := spec.Schema(name); err != nil {
		return true
	}
	return spec.Validate(name, spec.Instance(v)) == nil
}

// candidates are the one-step simplifications of v, biggest first: for
// each node in breadth-first order, an array without its first or second
// half or without one element, an object without one member, a string
// empty, halved or without one of its first 16 characters, a number 0, 1,
// truncated or halved. Each is built only when tried.
func candidates(v jsonjs.Value) []func() jsonjs.Value {
	type node struct {
		v   jsonjs.Value
		set func(jsonjs.Value) jsonjs.Value // the root with this node replaced
	}
	var out []func() jsonjs.Value
	queue := []node{{v, func(x jsonjs.Value) jsonjs.Value { return x }}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, x := range simpler(n.v) {
			out = append(out, func() jsonjs.Value { return n.set(x()) })
		}
		if items, ok := n.v.Items(); ok {
			for i, it := range items {
				queue = append(queue, node{it, func(x jsonjs.Value) jsonjs.Value {
					c := slices.Clone(items)
					c[i] = x
					return n.set(jsonjs.ArrayValue(c...))
				}})
			}
		}
		if ms, ok := n.v.Members(); ok {
			for _, m := range ms {
				queue = append(queue, node{m.Value, func(x jsonjs.Value) jsonjs.Value { return n.set(n.v.With(m.Key, x)) }})
			}
		}
	}
	return out
}

// simpler are the one-step simplifications of one node, as in candidates.
func simpler(v jsonjs.Value) []func() jsonjs.Value {
	var out []func() jsonjs.Value
	switch v.Kind() {
	case jsonjs.Array:
		items, _ := v.Items()
		if n := len(items); n > 1 {
			out = append(out,
				func() jsonjs.Value { return jsonjs.ArrayValue(items[n/2:]...) },
				func() jsonjs.Value { return jsonjs.ArrayValue(items[:n/2]...) })
		}
		for i := range items {
			out = append(out, func() jsonjs.Value {
				return jsonjs.ArrayValue(slices.Concat(items[:i:i], items[i+1:])...)
			})
		}
	case jsonjs.Object:
		ms, _ := v.Members()
		for i := range ms {
			out = append(out, func() jsonjs.Value {
				return jsonjs.ObjectValue(slices.Concat(ms[:i:i], ms[i+1:])...)
			})
		}
	case jsonjs.String:
		s, _ := v.Str()
		if s == "" {
			break
		}
		out = append(out, func() jsonjs.Value { return jsonjs.StringValue("") })
		// Cuts fall on character boundaries (WTF-8: a lone surrogate is
		// one 3-byte character too).
		var starts []int
		for i := 0; i < len(s); i++ {
			if s[i]&0xc0 != 0x80 {
				starts = append(starts, i)
			}
		}
		if n := len(starts); n > 1 {
			h := starts[n/2]
			out = append(out,
				func() jsonjs.Value { return jsonjs.StringValue(s[h:]) },
				func() jsonjs.Value { return jsonjs.StringValue(s[:h]) })
		}
		for j := 0; j < len(starts) && j < 16 && len(starts) > 1; j++ {
			from, to := starts[j], len(s)
			if j+1 < len(starts) {
				to = starts[j+1]
			}
			out = append(out, func() jsonjs.Value { return jsonjs.StringValue(s[:from] + s[to:]) })
		}
	case jsonjs.Number:
		// Each is strictly simpler (an integer for a fraction, or smaller),
		// so that two failing numbers never alternate.
		f, _ := v.Float()
		var seen []float64
		for _, x := range []float64{0, 1, math.Trunc(f), math.Trunc(f / 2)} {
			isInt := func(y float64) bool { return y == math.Trunc(y) && !math.IsInf(y, 0) }
			if x != f && !slices.Contains(seen, x) && ((isInt(x) && !isInt(f)) || math.Abs(x) < math.Abs(f)) {
				seen = append(seen, x)
				out = append(out, func() jsonjs.Value { return jsonjs.NumberValue(x) })
			}
		}
	}
	return out
}
