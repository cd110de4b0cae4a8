package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/dsh-conform/conform/internal/mutation"
)

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
	listed, err := mutation.LoadEquivalents(mutation.JudgeEquivalentsFile)
	if err != nil {
		return fail(err)
	}
	cache := ""
	if dir, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(dir, "conform-judge")
	}
	start := time.Now()
	rs, err := mutation.RunJudge(ctx, mutation.JudgeConfig{
		Root: ".", Module: module, Workers: workers, Timeout: timeout, Listed: listed,
		Schemata: schemata, CacheDir: cache, Log: func(s string) { fmt.Fprintln(os.Stderr, s) },
		Progress: func(done, total int, r mutation.Result) {
			fmt.Fprintf(os.Stderr, "[%d/%d] %s %s %s\n", done, total, r.Status, r.Mutant.ID(), r.Detail)
		},
	}, ms)
	interrupted := err != nil && ctx.Err() != nil && rs != nil
	if err != nil && !interrupted {
		return fail(err)
	}
	if interrupted { // report the mutants judged so far
		done := rs[:0]
		for _, r := range rs {
			if r.Status != "" {
				done = append(done, r)
			}
		}
		rs = done
		fmt.Fprintf(os.Stderr, "mutation: interrupted: the report covers the %d mutants judged\n", len(rs))
	}
	s := mutation.Summarize(rs, time.Since(start))
	s.List = mutation.JudgeEquivalentsFile
	if err := mutation.WriteText(os.Stdout, s, rs); err != nil {
		return fail(err)
	}
	if jsonOut != "" {
		if err := os.WriteFile(jsonOut, mutation.JSON(s, seed, sample, rs), 0o644); err != nil {
			return fail(err)
		}
	}
	if interrupted {
		return 1
	}
	return gate(s, mutation.JudgeEquivalentsFile, minScore)
}
