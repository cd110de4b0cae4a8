// Command conform checks agent harnesses against the DeepSeek Harness
// tool-result presentation contracts. Each subcommand lives in its own file.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	conformroot "github.com/dsh-conform/conform"
	"github.com/dsh-conform/conform/internal/runner"
)

// Exit statuses shared by every subcommand.
const (
	exitOK          = 0
	exitNonconform  = 1
	exitUsage       = 2
	exitInfraFailed = 3
)

type cli struct {
	Version versionFlag `help:"Print conform's version and the embedded case set's hash, and exit."`

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
	Report       reportCmd       `cmd:"" help:"The compliance matrix of run reports: a self-contained HTML page, Markdown, shields.io badges."`
}

func main() {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("conform"),
		kong.Description("Conformance suite for the search-card and Code Mode result-card contracts."),
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
		// Issue 12: the error and a one-line hint, not the whole help.
		fmt.Fprintln(os.Stderr, "conform: "+usageMessage(err))
		fmt.Fprintln(os.Stderr, "  (conform "+helpFor(err)+"--help shows the flags)")
		os.Exit(exitUsage)
	}
	code, err := dispatch(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "conform:", err)
	}
	os.Exit(code)
}

// usageMessage rewords kong's parse errors that mislead: a negative
// duration reads as a short flag to kong.
func usageMessage(err error) string {
	msg := err.Error()
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(a, "-") && len(a) > 1 && a[1] >= '0' && a[1] <= '9' {
			if _, derr := time.ParseDuration(a); derr == nil && strings.Contains(msg, a) || strings.Contains(msg, "short flag") {
				return fmt.Sprintf("%s: a negative value is not allowed here (durations and counts must be positive)", a)
			}
		}
	}
	return msg
}

// helpFor is the subcommand of a parse error's context, for the hint.
func helpFor(err error) string {
	var pe *kong.ParseError
	if errors.As(err, &pe) && pe.Context != nil {
		if cmd := pe.Context.Command(); cmd != "" {
			return strings.Fields(cmd)[0] + " "
		}
	}
	return ""
}

// version is conform's own version; a build from a checkout adds its
// VCS revision.
// versionLine is what --version prints: conform's version and the hash of
// the embedded case set, which every run report records too.
func versionLine() string {
	hash, err := runner.CaseSetHash(conformroot.Files)
	if err != nil {
		hash = "unknown (" + err.Error() + ")"
	}
	return "conform " + conformVersion() + ", case set " + hash
}

// versionFlag is --version. The case set's hash (a SHA-256 of every
// embedded file) is computed only when asked for, not on every start.
type versionFlag bool

func (versionFlag) BeforeApply(app *kong.Kong) error {
	fmt.Fprintln(app.Stdout, versionLine())
	app.Exit(0)
	return nil
}

// conformVersion is the version recorded in reports.
func conformVersion() string { return conformroot.Version }

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
