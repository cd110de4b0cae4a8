package mutation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/dsh-conform/conform/reference/jsonjs"
)

// A Judge decides one mutant from its adapter binary: Killed or Survived,
// with a one-line detail. Config.Judge nil is the golden run (runConform)
// followed by the framing script.
type Judge func(ctx context.Context, bin string) (Status, string)

// FuzzJudge judges a mutant by the differential fuzzer instead of the
// golden cases (issue 22, item 6): `conform fuzz` compares the mutant's
// adapter with the unmutated reference that conform runs in process, so
// any finding kills it. It measures what the fuzzer would catch of a bug,
// as the golden run measures what the fixed cases catch.
type FuzzJudge struct {
	Conform string        // a conform binary built from the unmutated tree
	Cases   int           // the campaign's cases, over every op (2,000 per op: 14,000)
	Seed    uint64        // the campaign's seed: the same cases for every mutant
	Timeout time.Duration // limit of one campaign
}

// Judge runs the campaign against bin with one job and no shrinking (a
// finding's example does not matter here, only that there is one). Exit 1
// (a mismatch, crash or timeout of a case) and exit 3 (the adapter did not
// start or handshake) kill, like a failing golden run; the detail is the
// first failing case and its kind of failure, from the JSON report.
func (j FuzzJudge) Judge(ctx context.Context, bin string) (Status, string) {
	tctx, cancel := context.WithTimeout(ctx, j.Timeout)
	defer cancel()
	out, err := os.CreateTemp("", "conform-mutation-fuzz-*.json")
	if err != nil {
		return Killed, err.Error()
	}
	report := out.Name()
	out.Close()
	defer os.Remove(report)
	cmd := exec.CommandContext(tctx, j.Conform, "fuzz",
		"--cases", strconv.Itoa(j.Cases), "--seed", strconv.FormatUint(j.Seed, 10),
		"--jobs", "1", "--shrink-time", "0", "--timeout", "5s",
		"--format", "json", "--out", report, "--", bin)
	// As runConform: interrupt so that conform tears down its adapter.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if tctx.Err() != nil && ctx.Err() == nil {
		return Killed, fmt.Sprintf("conform fuzz over %v", j.Timeout)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return Survived, fmt.Sprintf("no finding in %d fuzz cases", j.Cases)
	case errors.As(err, &exit):
		if first := firstFailing(report); first != "" {
			return Killed, fmt.Sprintf("exit %d: %s", exit.ExitCode(), first)
		}
		return Killed, fmt.Sprintf("exit %d: %s", exit.ExitCode(), lastLine(stderr.Bytes()))
	default:
		return Killed, err.Error()
	}
}

// firstFailing names the first failing case of a fuzz JSON report ("case
// 12 run_code.result: run_code.result content CODE-KEYS-2"), or "".
func firstFailing(report string) string {
	b, err := os.ReadFile(report)
	if err != nil {
		return ""
	}
	v, err := jsonjs.Parse(b)
	if err != nil {
		return ""
	}
	first, ok := v.Get("firstFailing")
	if !ok || first.IsNull() {
		return ""
	}
	k, _ := first.Get("case")
	op, _ := first.Get("op")
	key, _ := first.Get("finding")
	kn, _ := k.Float()
	ops, _ := op.Str()
	keys, _ := key.Str()
	return fmt.Sprintf("case %d %s: %s", int(kn), ops, keys)
}

// StatusIn keeps the mutants whose status in an earlier JSON report is st,
// e.g. the golden-killed ones, to judge them again with the fuzzer. A
// partial report (RunInfo.Complete false) gives those judged so far.
func StatusIn(ms []Mutant, reportPath string, st Status) ([]Mutant, error) {
	rep, err := ReadReport(reportPath)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	for _, m := range ms {
		if r, ok := rep.Judged[m.ID()]; ok && r.Status == st {
			out = append(out, m)
		}
	}
	return out, nil
}
