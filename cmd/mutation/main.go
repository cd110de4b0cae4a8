// Command mutation is mutation testing of reference/ judged by the golden
// cases alone (docs/mutation.md); the machinery is internal/mutation.
//
//	go run ./cmd/mutation                              # every mutant (make mutation)
//	go run ./cmd/mutation --sample 40 --seed 1 --min-score 90   # CI sample
//	go run ./cmd/mutation --judge                      # the judge, by go test (make mutation-judge)
//	go run ./cmd/mutation --judge --resume mutation-judge.json  # continue a stopped run from its report
//	go run ./cmd/mutation --coverage                   # golden-coverage gate (make coverage-golden)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"time"

	"github.com/dsh-conform/conform/internal/mutation"
)

func main() {
	workers := flag.Int("workers", 2, "mutants built and run at once")
	sample := flag.Int("sample", 0, "run N mutants drawn with --seed (0: all)")
	seed := flag.Uint64("seed", 1, "seed of --sample")
	jsonOut := flag.String("json", "", "also write the JSON report to `FILE`")
	minScore := flag.Float64("min-score", 0, "exit 1 when the score is below `PERCENT`")
	timeout := flag.Duration("timeout", 30*time.Second, "limit of one mutant's conform run (a normal run takes well under a second)")
	list := flag.Bool("list", false, "list the mutants and exit")
	conform := flag.String("conform", "", "a prebuilt `conform` binary whose embedded goldens judge the mutants (default: built from this tree)")
	match := flag.String("match", "", "run only the mutants whose id matches `REGEX`")
	survivorsOf := flag.String("survivors-of", "", "run only the mutants that survived in an earlier --json `REPORT`")
	judgeRun := flag.Bool("judge", false, "instead of reference/: mutants of conform's own judge, killed by its go test ("+mutation.JudgeEquivalentsFile+")")
	perMutant := flag.Bool("per-mutant", false, "--judge: build each mutant's tests (the overlay path) instead of one schemata with a switch per mutant")
	cover := flag.Bool("coverage", false, "instead of mutants: the golden-coverage gate of reference/ against "+mutation.UncoveredFile)
	flag.Parse()
	if flag.NArg() > 0 || *workers < 1 || *sample < 0 {
		fmt.Fprintln(os.Stderr, "mutation: usage: mutation [--workers N] [--sample N --seed S] [--json FILE] [--resume FILE] [--min-score P] [--list]")
		os.Exit(2)
	}
	if *cover {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		code := coverage(ctx, *conform)
		stop()
		os.Exit(code)
	}
	if *judgeRun && (*killByName != "golden" || *killedIn != "") {
		fmt.Fprintln(os.Stderr, "mutation: --judge mutants are killed by go test; --kill-by and --killed-in are for reference/'s")
		os.Exit(2)
	}
	if *judgeRun {
		os.Exit(judge(*workers, *sample, *seed, *jsonOut, *minScore, *timeout, *list, *match, *survivorsOf, !*perMutant))
	}
	os.Exit(run(*workers, *sample, *seed, *jsonOut, *minScore, *timeout, *list, *conform, *match, *survivorsOf))
}

func run(workers, sample int, seed uint64, jsonOut string, minScore float64, timeout time.Duration, list bool, conform, match, survivorsOf string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	all, err := mutation.ReferenceMutants(".")
	if err != nil {
		return fail(err)
	}
	ms, code := choose(all, match, survivorsOf, *killedIn, sample, seed, list)
	if code >= 0 {
		return code
	}
	rec, todo, code := record(ms, referenceKind(), jsonOut, seed, sample)
	if code >= 0 {
		return code
	}
	listed, err := mutation.LoadEquivalents(mutation.EquivalentsFile)
	if err != nil {
		return fail(err)
	}
	conform, cleanup, err := conformBinary(ctx, conform)
	if err != nil {
		return fail(err)
	}
	defer cleanup()
	kill, err := killBy(conform, timeout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutation:", err)
		return 2
	}
	var unreached map[string]string
	if kill == nil && len(todo) > 0 {
		if unreached, err = notReached(ctx, conform, todo); err != nil {
			return fail(err)
		}
	}
	if len(todo) > 0 {
		_, err = mutation.Run(ctx, mutation.Config{
			Root: ".", Conform: conform, Workers: workers, Timeout: timeout, Listed: listed, Judge: kill, Uncovered: unreached,
			Progress: func(_, _ int, r mutation.Result) { progress(rec, len(ms), r) },
		}, todo)
	}
	return finish(ctx, rec, err, mutation.EquivalentsFile, minScore)
}

// conformBinary returns the absolute path of a prebuilt conform, or builds
// one from the unmutated tree (removed by cleanup).
func conformBinary(ctx context.Context, prebuilt string) (string, func(), error) {
	if prebuilt != "" {
		abs, err := filepath.Abs(prebuilt)
		return abs, func() {}, err
	}
	tmp, err := os.MkdirTemp("", "conform-mutation-bin-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	bin := filepath.Join(tmp, "conform")
	if err := mutation.BuildConform(ctx, ".", bin); err != nil {
		cleanup()
		return "", nil, err
	}
	return bin, cleanup, nil
}

func fail(err error) int {
	fmt.Fprintln(os.Stderr, "mutation:", err)
	return 3
}

// overlayDir is --overlay: settling a survivor by hand starts with
// go test -overlay FILE on the packages that should kill it.
var overlayDir = flag.String("overlay", "", "write each chosen mutant's go build -overlay file under `DIR`, print its path and id, and exit")

// choose narrows the mutants to --match, --survivors-of and --killed-in and
// draws the --sample; with --list it prints them, with --overlay it writes
// their overlays. A code >= 0 ends the command with that status.
func choose(all []mutation.Mutant, match, survivorsOf, killedIn string, sample int, seed uint64, list bool) ([]mutation.Mutant, int) {
	if match != "" {
		re, err := regexp.Compile(match)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mutation: --match:", err)
			return nil, 2
		}
		all = mutation.Match(all, re)
	}
	var err error
	if survivorsOf != "" {
		if all, err = mutation.SurvivorsOf(all, survivorsOf); err != nil {
			return nil, fail(err)
		}
	}
	if killedIn != "" {
		if all, err = mutation.StatusIn(all, killedIn, mutation.Killed); err != nil {
			return nil, fail(err)
		}
	}
	ms := mutation.Sample(all, sample, seed)
	if *overlayDir != "" {
		for i, m := range ms {
			path, err := mutation.WriteOverlay(".", filepath.Join(*overlayDir, fmt.Sprint(i)), m)
			if err != nil {
				return nil, fail(err)
			}
			if path, err = filepath.Abs(path); err != nil {
				return nil, fail(err)
			}
			fmt.Printf("%s\t%s\n", path, m.ID())
		}
		return nil, 0
	}
	if list {
		for _, m := range ms {
			fmt.Println(m.ID())
		}
		return nil, 0
	}
	return ms, -1
}

// gate is a finished run's exit status: 1 when a listing of list is stale
// (its mutant killed or identical) or the score is below minScore.
func gate(s mutation.Summary, list string, minScore float64) int {
	if s.Stale > 0 {
		fmt.Fprintf(os.Stderr, "mutation: %d listed mutants are killed or identical: %s is out of date\n", s.Stale, list)
		return 1
	}
	if s.Score() < minScore {
		fmt.Fprintf(os.Stderr, "mutation: score %.1f%% is below --min-score %.1f%%\n", s.Score(), minScore)
		return 1
	}
	return 0
}
