package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/dsh-conform/conform/internal/mutation"
)

// The kill rule of the reference's mutants (docs/mutation.md): the golden run, or the differential
// fuzzer's campaign (issue 22, item 6, "Fuzz strength").
var (
	killByName = flag.String("kill-by", "golden", "the kill rule: `golden` (conform run and the framing script) or fuzz (conform fuzz against the in-process reference)")
	fuzzCases  = flag.Int("fuzz-cases", 14000, "--kill-by fuzz: the campaign's cases over every op (14000: 2,000 for each of the 7 ops)")
	fuzzSeed   = flag.Uint64("fuzz-seed", 1, "--kill-by fuzz: the campaign's seed, the same for every mutant")
	killedIn   = flag.String("killed-in", "", "run only the mutants that were killed in an earlier --json `REPORT` (e.g. judge the golden-killed ones by the fuzzer)")
)

// killBy returns the Config.Judge of --kill-by: nil for the golden run.
func killBy(conform string, timeout time.Duration) (mutation.Judge, error) {
	switch *killByName {
	case "golden":
		return nil, nil
	case "fuzz":
		if *fuzzCases < 1 {
			return nil, fmt.Errorf("--fuzz-cases must be at least 1")
		}
		return mutation.FuzzJudge{Conform: conform, Cases: *fuzzCases, Seed: *fuzzSeed, Timeout: timeout}.Judge, nil
	}
	return nil, fmt.Errorf("--kill-by must be golden or fuzz, not %q", *killByName)
}

// referenceKind names the reference's kill rule in a report, so --resume
// continues a run of the same rule only (mutation.RunInfo.Kind).
func referenceKind() string {
	if *killByName == "fuzz" {
		return fmt.Sprintf("fuzz cases=%d seed=%d", *fuzzCases, *fuzzSeed)
	}
	return *killByName
}
