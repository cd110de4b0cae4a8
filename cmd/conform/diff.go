package main

import (
	"bytes"
	"os"

	"github.com/dsh-conform/conform/internal/report"
)

// diffCmd is `conform diff OLD.json NEW.json`: compare two --format json
// run reports case by case.
//
// Exit status: 0 nothing newly fails; 1 a case newly fails (a verdict that
// fails the run where the old report had none, or a new case that fails),
// or NEW is the report of a run that did not finish (issue 21);
// 2 a report cannot be read, is not a regular file, is over
// --max-report-bytes or is not a conform run report (version 1);
// 3 the output cannot be written.
type diffCmd struct {
	Old            string `arg:"" name:"old" placeholder:"OLD.json" help:"The earlier report (conform run --format json)."`
	New            string `arg:"" name:"new" placeholder:"NEW.json" help:"The later report."`
	Format         string `enum:"text,json" default:"text" help:"Output format: text or json."`
	MaxReportBytes int64  `name:"max-report-bytes" default:"8388608" placeholder:"N" help:"Refuse a report larger than N bytes (default ${default} = 8 MiB)."`
}

func (c *diffCmd) Run() error {
	const cmd = "diff"
	old, err := readRunReport(c.Old, c.MaxReportBytes)
	if err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	cur, err := readRunReport(c.New, c.MaxReportBytes)
	if err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	d := report.DiffRuns(c.Old, old, c.New, cur)
	var buf bytes.Buffer
	if c.Format == "json" {
		err = d.WriteJSON(&buf)
	} else {
		err = d.WriteText(&buf)
	}
	if err == nil {
		_, err = os.Stdout.Write(buf.Bytes())
	}
	if err != nil {
		return runFail(cmd, exitInfraFailed, "writing the diff: %v", err)
	}
	if d.Regressed() {
		return status{exitNonconform}
	}
	return nil
}
