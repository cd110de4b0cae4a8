package fuzz

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/dsh-conform/conform/internal/adapter"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

// Grouping by cause (issue 23). A key (op, first differing field, blamed
// requirements) names where a difference shows, not what the harness did:
// one bug, e.g. grep's maxLineBytes read one byte short, shows as a cut
// line in the text, a different meta or spill text, or an error where
// maxLineBytes is 1, each kind with its own key. The kinds of failure are
// taken in first-case order, and each is
//
//   - diagnosed: when a deviation model (deviation.go) explains its first
//     case (the harness answers it as the reference answers the model's
//     variant), the model names its cause. Every kind the same cause
//     explains is one finding, without shrinking again; the first is
//     shrunk accepting any candidate that fails as a mismatch of the op
//     and that the cause still explains, so the example is the smallest
//     input of the bug, whatever its symptom;
//   - otherwise shrunk keeping its kind (sameKind: the same fault, or a
//     mismatch in the same field blaming at least one of the same
//     requirements); the shrunk input's key is its cause, and kinds that
//     shrink to the same key are one finding. A candidate that shows
//     another bug (another field, or only other requirements) is
//     rejected, so distinct bugs stay distinct.
//
// A finding's example is the smallest input of its group (shrunk or first
// cases), by bytes. All shrinking and diagnosis share one budget (Budget,
// each shrink at most half of what is left) and one memo.

// group is one finding: the kinds of failure found to share a cause.
type group struct {
	key     Key    // the example's key
	cause   string // the deviation model's cause; "" when none explains it
	members []*finding
	example Input
	result  runner.CaseResult
	from    *finding // the member whose case the example is, or was shrunk from
	info    ShrinkInfo
}

// offer makes in the example when it is smaller than the current one.
func (g *group) offer(in Input, res runner.CaseResult, from *finding) bool {
	if g.from != nil && len(in.Text) >= len(g.example.Text) {
		return false
	}
	g.example, g.result, g.from = in, res, from
	if k, ok := KeyOf(res); ok {
		g.key = k
	}
	return true
}

func (g *group) add(f *finding) {
	g.members = append(g.members, f)
	g.offer(f.input, f.result, f)
}

// group groups the kinds of failure by cause, diagnosing and shrinking
// through s within budget; disabled turns shrinking off.
func (c *campaign) group(ctx context.Context, s adapter.Session, disabled bool, budget *Budget) []*group {
	raws := make([]*finding, 0, len(c.findings))
	for _, f := range c.findings {
		raws = append(raws, f)
	}
	sort.Slice(raws, func(i, j int) bool { return raws[i].first.Case < raws[j].first.Case })
	maxShrink := c.opt.MaxShrink
	if maxShrink <= 0 {
		maxShrink = DefaultMaxShrink
	}
	memo := NewMemo()
	var groups []*group
	byKey := map[Key]*group{}
	byCause := map[string]*group{}
	shrunk := 0
	for _, f := range raws {
		if g := byKey[f.key]; g != nil {
			g.add(f)
			continue
		}
		cause := ""
		if !disabled && ctx.Err() == nil && f.key.Verdict == verdict.Fail {
			cause = c.explain(ctx, s, f.key.Op, f.first.Case, f.input, budget)
			if g := byCause[cause]; cause != "" && g != nil {
				byKey[f.key] = g
				g.add(f)
				continue
			}
		}
		g := &group{key: f.key, cause: cause}
		groups = append(groups, g)
		byKey[f.key] = g
		if cause != "" {
			byCause[cause] = g
		}
		g.add(f)
		switch {
		case disabled:
			g.info.Note = "shrinking disabled"
		case shrunk >= maxShrink:
			g.info.Note = fmt.Sprintf("not shrunk: only the first %d kinds of failure are", maxShrink)
		case ctx.Err() != nil:
			g.info.Note = "not shrunk: the run was cancelled"
		case !budget.Left():
			g.info.Note = "not shrunk: the shrink budget ran out"
		default:
			shrunk++
			sh, err := c.shrink(ctx, s, f, cause, budget, memo, len(groups))
			g.info = ShrinkInfo{Runs: sh.Runs, MemoHits: sh.MemoHits, DurationMS: ms(sh.Elapsed), Note: sh.Note, FirstDrawMatches: sh.FirstDrawMatches}
			if err != nil {
				g.info.Note = err.Error()
				break
			}
			if !sh.Reproduced {
				break
			}
			g.info.Shrunk = true
			shrunkKey, _ := KeyOf(sh.Result)
			if !g.offer(sh.Input, sh.Result, f) && g.info.Note == "" {
				// Issue 12: rapid minimizes its choices, not the bytes.
				g.info.Note = fmt.Sprintf("the shrunk input (%d bytes) is not smaller than the example kept (%d)", len(sh.Input.Text), len(g.example.Text))
			}
			if other := byKey[shrunkKey]; other != nil && other != g && cause == "" {
				// Shrunk to another kind's cause: one finding.
				groups = groups[:len(groups)-1]
				byKey[f.key] = other
				other.members = append(other.members, f)
				other.offer(g.example, g.result, f)
				other.info.Runs += g.info.Runs
				other.info.MemoHits += g.info.MemoHits
				other.info.DurationMS += g.info.DurationMS
			} else if _, taken := byKey[g.key]; !taken {
				byKey[g.key] = g
			}
		}
	}
	return groups
}

// explain returns the cause of the first deviation model that explains
// the harness's answer to in, or "". Each variant tried costs an exchange
// from budget.
func (c *campaign) explain(ctx context.Context, s adapter.Session, op string, k int, in Input, budget *Budget) string {
	for _, d := range deviants(op, in.Value) {
		if cause := c.tryVariant(ctx, s, op, k, in, d, budget); cause != "" {
			return cause
		}
	}
	return ""
}

// explains reports whether the variant named cause explains the harness's
// answer to in.
func (c *campaign) explains(ctx context.Context, s adapter.Session, op string, k int, in Input, cause string, budget *Budget) bool {
	for _, d := range deviants(op, in.Value) {
		if d.cause == cause {
			return c.tryVariant(ctx, s, op, k, in, d, budget) != ""
		}
	}
	return false
}

func (c *campaign) tryVariant(ctx context.Context, s adapter.Session, op string, k int, in Input, d deviant, budget *Budget) string {
	if !budget.Left() || ctx.Err() != nil {
		return ""
	}
	want, err := Golden(op, variantInput(d.value))
	if err != nil {
		return "" // the reference refuses the variant: no explanation
	}
	budget.spend()
	if r := judgeWant(ctx, s, caseID(op, k), op, nil, in, want, c.opt.Timeout); r.Verdict == verdict.Pass {
		return d.cause
	}
	return ""
}

// shrink shrinks finding f's first case through s: keeping its key, or,
// when a model explains it, keeping the cause.
func (c *campaign) shrink(ctx context.Context, s adapter.Session, f *finding, cause string, budget *Budget, memo *Memo, findings int) (Shrunk, error) {
	op := f.key.Op
	share := budget.Half()
	accept := func(k Key, _ Input) bool { return sameKind(f.key, k) }
	if cause != "" {
		explained := map[string]bool{}
		accept = func(k Key, in Input) bool {
			if k.Op != op || k.Verdict != verdict.Fail {
				return false
			}
			e, seen := explained[string(in.Text)]
			if !seen {
				e = c.explains(ctx, s, op, f.first.Case, in, cause, share)
				explained[string(in.Text)] = e
			}
			return e
		}
	}
	progress := func(int) {}
	if c.opt.Progress != nil {
		progress = func(int) {
			c.opt.Progress(Progress{Done: c.done, Failing: c.failing, Findings: findings, Elapsed: c.now().Sub(c.started), Phase: PhaseShrinking, Shrinking: f.key.String()})
		}
		progress(0)
	}
	return Shrink(ShrinkSpec{
		Gen:    c.gens[genKey{op, f.first.Variant}],
		Seed:   f.first.Seed,
		Key:    f.key,
		Input:  f.input,
		Accept: accept,
		Budget: share,
		Memo:   memo,
		OnRun:  progress,
		Run: func(in Input) (runner.CaseResult, error) {
			return judgeInput(ctx, s, caseID(op, f.first.Case), op, nil, in, c.opt.Timeout)
		},
	})
}

// sameKind reports whether a candidate's key k may stand for kind's: the
// same key; or a mismatch of the same op in the same field that blames at
// least one requirement kind's blames (a combination of this bug with
// another shrinks to this bug alone).
func sameKind(kind, k Key) bool {
	if k == kind {
		return true
	}
	if k.Op != kind.Op || k.Verdict != verdict.Fail || kind.Verdict != verdict.Fail || k.Field != kind.Field {
		return false
	}
	for _, r := range strings.Fields(k.Requirements) {
		if slices.Contains(strings.Fields(kind.Requirements), r) {
			return true
		}
	}
	return false
}
