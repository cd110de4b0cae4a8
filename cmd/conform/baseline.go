package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/dsh-conform/conform/internal/baseline"
	"github.com/dsh-conform/conform/internal/regfile"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
	"github.com/dsh-conform/conform/spec"
)

// baselineCmd groups the baseline subcommands.
type baselineCmd struct {
	Write baselineWriteCmd `cmd:"" help:"Write the current failures as a baseline YAML file (for --baseline)."`
}

// baselineWriteCmd is `conform baseline write [run flags] --out FILE` (run
// the cases, as conform run does) or `conform baseline write --from
// REPORT.json --out FILE` (take an earlier JSON report): write one baseline
// entry per failing case (fail, error, timeout, crash) and per expected
// failure (xfail, keeping its reason), {id, reason, requirement?}, in case
// order. Stale entries (xpass) are dropped.
//
// Exit status: 0 written (whatever failed); 2 usage error; 3 the adapter,
// the fixtures or the output failed, or the run was interrupted (no
// baseline is written from a partial run).
type baselineWriteCmd struct {
	Flags runFlags `embed:""`

	From           string `placeholder:"REPORT" help:"Take the failures from an earlier conform run --format json report instead of running the cases (no run flags then)."`
	MaxReportBytes int64  `name:"max-report-bytes" default:"8388608" placeholder:"N" help:"Refuse a --from report larger than N bytes (default ${default} = 8 MiB)."`
	Out            string `required:"" placeholder:"FILE" help:"The baseline file to write (- for stdout)."`
}

// Validate runs at parse time, so its errors are usage errors (exit 2).
func (c *baselineWriteCmd) Validate() error {
	if c.From != "" {
		f := c.Flags
		if len(f.Command) > 0 || f.Adapter != "" || f.Exec || f.Fixtures != "" || f.Jobs != 0 || f.Timeout != defaultCaseTimeout ||
			f.Run != "" || f.Op != "" || f.Requirement != "" || f.RerunFailed != "" || f.Baseline != "" {
			return fmt.Errorf("--from takes the failures from a report: the run flags (adapter, selection, --baseline) do not apply")
		}
		return nil
	}
	return c.Flags.validate()
}

func (c *baselineWriteCmd) Run() error {
	const cmd = "baseline write"
	if err := outIsInput(cmd, c.Out, [2]string{"--from", c.From}, [2]string{"--rerun-failed", c.Flags.RerunFailed}, [2]string{"--baseline", c.Flags.Baseline}); err != nil {
		return err
	}
	if err := report.CheckOut(c.Out); err != nil {
		return runFail(cmd, exitInfraFailed, "--out %s: %v", c.Out, err)
	}
	var (
		rep    *runner.Report
		source string
		note   string
	)
	if c.From != "" {
		var err error
		if rep, err = readRunReport(c.From, c.MaxReportBytes); err != nil {
			return runFail(cmd, exitUsage, "--from: %v", err)
		}
		if !rep.Complete { // as a run interrupted here writes none (issue 21)
			return runFail(cmd, exitUsage, "--from %s: the report of a run that did not finish (%s): no baseline is written from a partial run", c.From, bounded(rep.Stopped))
		}
		source = c.From
	} else {
		p, err := c.Flags.plan(cmd)
		if err != nil {
			return err
		}
		rep, err = c.Flags.execute(cmd, p)
		if err != nil {
			if rep != nil {
				fmt.Fprintf(os.Stderr, "conform: %s: the run did not finish; no baseline written\n", cmd)
			}
			return err
		}
		source = "a run of the embedded reference"
		if len(rep.Adapter) > 0 {
			source = "a run of " + report.QuoteArgv(rep.Adapter)
		}
		if len(p.selected) < len(p.all) {
			note = fmt.Sprintf("only %d of %d cases ran; the baseline lists the failures among them", len(p.selected), len(p.all))
			source += fmt.Sprintf(" (%d of %d cases)", len(p.selected), len(p.all))
		}
	}

	var buf bytes.Buffer
	n, err := report.WriteRunBaseline(&buf, rep, source)
	if err != nil {
		return runFail(cmd, exitInfraFailed, "rendering the baseline: %v", err)
	}
	// What we write must be what --baseline reads.
	name := c.Out
	if name == "-" {
		name = "<stdout>"
	}
	if b, err := baseline.Parse(name, buf.Bytes()); err != nil {
		return runFail(cmd, exitInfraFailed, "the baseline written does not parse back (a bug):\n%s", runIndent(err.Error()))
	} else if err := b.Validate(baseline.Known{Requirement: func(id string) bool { _, ok := spec.Lookup(id); return ok }}); err != nil {
		return runFail(cmd, exitInfraFailed, "the baseline written names unknown requirements:\n%s", runIndent(err.Error()))
	}
	if c.Out == "-" {
		_, err = os.Stdout.Write(buf.Bytes())
	} else {
		err = report.WriteFile(c.Out, buf.Bytes())
	}
	if err != nil {
		return runFail(cmd, exitInfraFailed, "writing the baseline: %v", err)
	}
	stale := rep.Totals[verdict.XPass]
	msg := fmt.Sprintf("wrote %d entries to %s", n, name)
	if n == 1 {
		msg = "wrote 1 entry to " + name
	}
	if stale > 0 {
		msg += fmt.Sprintf("; dropped %d stale entries (xpass)", stale)
	}
	fmt.Fprintf(os.Stderr, "conform: %s: %s\n", cmd, msg)
	if note != "" {
		fmt.Fprintf(os.Stderr, "conform: %s: note: %s\n", cmd, note)
	}
	return nil
}

// readRunReport reads and checks a --format json run report: a regular
// file of at most limit bytes. Errors name the file.
func readRunReport(path string, limit int64) (*runner.Report, error) {
	data, err := readReportFile(path, limit, "--max-report-bytes")
	if err != nil {
		return nil, err
	}
	return report.ReadRun(path, data)
}

// readReportFile reads a report through regfile; every error reads
// "path: why".
func readReportFile(path string, limit int64, hint string) ([]byte, error) {
	data, err := regfile.ReadFile(path, limit, hint)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = fmt.Errorf("%s: %v", path, pe.Err)
	}
	return data, err
}
