package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/dsh-conform/conform/internal/mutation"
)

// ownTests is --own-tests: a quick pass for settling survivors, not the
// judge's verdict. Each mutant meets only its own package's tests (the first
// of its target's Tests), so the setup traces one package, not cmd/conform,
// and a survivor costs no selection of cmd/conform's specs: its survivors
// are a superset of the judge's.
var ownTests = flag.Bool("own-tests", false, "--judge: judge each mutant by its own package's tests only (a superset of the judge's survivors, to settle first; kind \"judge own-tests\")")

// judge is the judge's run (make mutation-judge): mutants of the code that
// decides verdicts, killed by conform's own go test (docs/mutation.md "The
// judge"). Same flags, report and listing discipline as the reference's run.
func judge(workers, sample int, seed uint64, jsonOut string, minScore float64, timeout time.Duration, list bool, match, survivorsOf string, schemata bool) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	all, err := mutation.JudgeMutants(ctx, ".", module)
	if err != nil {
		return fail(err)
	}
	ms, code := choose(all, match, survivorsOf, "", sample, seed, list)
	if code >= 0 {
		return code
	}
	kind := "judge"
	if *ownTests {
		kind = "judge own-tests" // a different kill rule: never resumed into, or read as, a judge run
	}
	rec, todo, code := record(ms, kind, jsonOut, seed, sample)
	if code >= 0 {
		return code
	}
	listed, err := mutation.LoadEquivalents(mutation.JudgeEquivalentsFile)
	if err != nil {
		return fail(err)
	}
	cache := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(dir, "conform-judge")
	}
	if len(todo) > 0 {
		judged := map[string]bool{} // woven all the same, so a resumed run finds its traces
		for _, r := range rec.Results() {
			judged[r.Mutant.ID()] = true
		}
		_, err = mutation.RunJudge(ctx, mutation.JudgeConfig{
			Root: ".", Module: module, Workers: workers, Timeout: timeout, Listed: listed,
			Schemata: schemata, CacheDir: cache, Tree: rec.Info.Tree, Judged: judged, OwnTests: *ownTests,
			Log:      func(s string) { fmt.Fprintln(os.Stderr, s) },
			Progress: func(_, _ int, r mutation.Result) { progress(rec, len(ms), r) },
		}, ms)
	}
	return finish(ctx, rec, err, mutation.JudgeEquivalentsFile, minScore)
}
