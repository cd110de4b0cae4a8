// Command conform checks agent harnesses against the DeepSeek Harness
// tool-result presentation contracts. Each subcommand lives in its own file.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/alecthomas/kong"
)

// Exit statuses shared by every subcommand.
const (
	exitOK          = 0
	exitNonconform  = 1
	exitUsage       = 2
	exitInfraFailed = 3
)

type cli struct {
	Run          runCmd          `cmd:"" help:"Run the conformance cases through an adapter (default: the embedded reference) and report; exit 1 when nonconformant."`
	Diff         diffCmd         `cmd:"" help:"Compare two run reports (--format json): newly failing, fixed, new and removed cases; exit 1 if a case newly fails."`
	Baseline     baselineCmd     `cmd:"" help:"Write baselines of known failures (baseline write)."`
	Generate     generateCmd     `cmd:"" help:"Regenerate fixtures/ and golden/ from the generators and the reference (--check: drift gate)."`
	Coverage     coverageCmd     `cmd:"" help:"Print requirement → covering cases or exclusion; exit 1 on a gap."`
	Requirements requirementsCmd `cmd:"" help:"Print the requirement catalogue."`
	Ops          opsCmd          `cmd:"" help:"List the ops of adapter protocol v1."`
	Adapter      adapterCmd      `cmd:"" help:"Serve the embedded reference as an adapter (protocol v1) on stdin/stdout."`
	CheckLog     checkLogCmd     `cmd:"" name:"check-log" help:"Check session logs (JSONL) offline against the session-log requirements (LOG-*)."`
	Fuzz         fuzzCmd         `cmd:"" help:"Differential fuzzing of an adapter against the reference, with shrinking; exit 1 on a mismatch."`
}

func main() {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("conform"),
		kong.Description("Conformance suite for the search-card and Code Mode result-card contracts."),
		kong.UsageOnError(),
		kong.Exit(func(code int) {
			if code != 0 {
				code = exitUsage
			}
			os.Exit(code)
		}),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conform:", err)
		os.Exit(exitInfraFailed)
	}
	ctx, err := parser.Parse(os.Args[1:])
	if err != nil {
		parser.FatalIfErrorf(err)
	}
	code, err := dispatch(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conform:", err)
	}
	os.Exit(code)
}

// status is what a subcommand's Run returns: an exit status and an error to
// print.
type status struct{ code int }

func (s status) Error() string { return fmt.Sprintf("exit status %d", s.code) }

func dispatch(ctx *kong.Context) (int, error) {
	err := ctx.Run()
	if err == nil {
		return exitOK, nil
	}
	var s status
	if errors.As(err, &s) { // kong wraps the error a command returns
		return s.code, nil
	}
	return exitInfraFailed, err
}
