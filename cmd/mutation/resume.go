package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/dsh-conform/conform/internal/mutation"
)

// resumeFrom is --resume: a run killed or interrupted keeps its report,
// rewritten after each mutant (mutation.Recorder), and goes on from it.
var resumeFrom = flag.String("resume", "", "continue the run of an earlier --json `REPORT` of this tree and kind: its mutants are not judged again (--json defaults to REPORT)")

// record starts the report of a run of kind over ms and returns it with the
// mutants still to judge; with --resume, those are the ones its report
// lacks. A code >= 0 ends the command with that status.
func record(ms []mutation.Mutant, kind, jsonOut string, seed uint64, sample int) (*mutation.Recorder, []mutation.Mutant, int) {
	if *resumeFrom != "" && jsonOut == "" {
		jsonOut = *resumeFrom
	}
	info := mutation.RunInfo{Kind: kind, Seed: seed, Sample: sample}
	var err error
	if info.Tree, err = mutation.TreeKey(".", treeReports(jsonOut)...); err != nil {
		return nil, nil, fail(err)
	}
	if *resumeFrom == "" {
		rec, todo := mutation.NewRecorder(jsonOut, info, ms, nil)
		return rec, todo, -1
	}
	from, err := mutation.ReadReport(*resumeFrom)
	if err != nil {
		return nil, nil, fail(err)
	}
	if err := from.Resumable(kind, info.Tree); err != nil {
		fmt.Fprintln(os.Stderr, "mutation: --resume:", err)
		return nil, nil, 2
	}
	rec, todo := mutation.NewRecorder(jsonOut, info, ms, &from)
	kept := len(ms) - len(todo)
	fmt.Fprintf(os.Stderr, "mutation: --resume: %d of the %d mutants were judged in %s", kept, len(ms), *resumeFrom)
	if left := len(from.Judged) - kept; left > 0 {
		fmt.Fprintf(os.Stderr, " (%d more are not among this run's mutants and are left out)", left)
	}
	fmt.Fprintln(os.Stderr)
	return rec, todo, -1
}

// treeReports are the files the tree's key leaves out: this run's reports
// and the make targets' (Makefile), which a run beside it may rewrite.
func treeReports(jsonOut string) []string {
	return []string{jsonOut, *resumeFrom, "mutation.json", "mutation-judge.json"}
}

// progress reports one judged mutant and rewrites the partial report.
func progress(rec *mutation.Recorder, total int, r mutation.Result) {
	if err := rec.Add(r); err != nil {
		fmt.Fprintln(os.Stderr, "mutation: writing the report:", err)
	}
	fmt.Fprintf(os.Stderr, "[%d/%d] %s %s %s\n", rec.Len(), total, r.Status, r.Mutant.ID(), r.Detail)
}

// finish ends a run whose judging returned err: the text report and the
// last JSON report, complete unless the run was interrupted, which reports
// the mutants judged so far and exits 1. list is the run's equivalents file.
func finish(ctx context.Context, rec *mutation.Recorder, err error, list string, minScore float64) int {
	interrupted := err != nil && ctx.Err() != nil
	if err != nil && !interrupted {
		return fail(err)
	}
	s := rec.Summary()
	if interrupted {
		fmt.Fprintf(os.Stderr, "mutation: interrupted: the report covers the %d mutants judged (--resume continues it)\n", s.Mutants)
	}
	s.List = list
	if err := mutation.WriteText(os.Stdout, s, rec.Results()); err != nil {
		return fail(err)
	}
	if err := rec.Write(!interrupted); err != nil {
		return fail(err)
	}
	if interrupted {
		return 1
	}
	return gate(s, list, minScore)
}
