package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"

	conformroot "github.com/dsh-conform/conform"

	"github.com/dsh-conform/conform/internal/matrix"
	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
)

// reportCmd is `conform report [--html OUT] [--markdown OUT] [--badge DIR]
// REPORT.json…`: the compliance matrix of one or more run reports; or
// `conform report --format FORMAT [--out [FORMAT=]FILE…] REPORT.json`: one
// run report converted to text, JSON, JUnit or Markdown; or
// `conform report --merge OUT.json SHARD.json…`: the shard reports of one
// run (conform run --shard K/N) joined into one.
//
// Exit status: 0 written; 2 a report cannot be read or no output was
// asked for; 3 an output cannot be written.
type reportCmd struct {
	Reports        []string `arg:"" name:"report" placeholder:"REPORT.json" help:"Run reports (conform run --format json), one column each."`
	HTML           string   `name:"html" placeholder:"OUT.html" help:"Write the self-contained HTML matrix page (- for stdout)."`
	Markdown       string   `placeholder:"OUT.md" help:"Write the matrix as Markdown, e.g. to $GITHUB_STEP_SUMMARY (- for stdout)."`
	Badge          string   `placeholder:"DIR" help:"Write a shields.io endpoint JSON per implementation into DIR."`
	Merge          string   `placeholder:"OUT.json" help:"Join the shard reports of one run (conform run --shard K/N) into OUT.json, the report of the unsharded run (- for stdout); alone, without --html, --markdown or --badge."`
	MaxReportBytes int64    `name:"max-report-bytes" default:"8388608" placeholder:"N" help:"Refuse a report larger than N bytes (default ${default} = 8 MiB)."`
	Format         string   `enum:",text,json,junit,markdown" default:"" placeholder:"FORMAT" help:"Convert one saved run report to FORMAT (text, json, junit or markdown) on stdout or --out: the artifacts of a run without running it again."`
	Out            []string `sep:"none" placeholder:"[FORMAT=]FILE" help:"With --format: write the converted report to FILE; FORMAT=FILE may be repeated, as for conform run."`
}

func (c *reportCmd) Run() error {
	const cmd = "report"
	if c.Format != "" || len(c.Out) > 0 {
		return c.convert()
	}
	switch {
	case c.Merge != "" && (c.HTML != "" || c.Markdown != "" || c.Badge != ""):
		return runFail(cmd, exitUsage, "--merge writes a run report only: give --html, --markdown and --badge in another call, on the merged report")
	case c.Merge == "" && c.HTML == "" && c.Markdown == "" && c.Badge == "":
		return runFail(cmd, exitUsage, "nothing to write: give --html, --markdown, --badge or --merge")
	}
	for _, out := range []string{c.HTML, c.Markdown, c.Merge} {
		for _, path := range c.Reports {
			if err := outIsInput(cmd, out, [2]string{"report", path}); err != nil {
				return err
			}
		}
	}
	in := make([]matrix.Input, 0, len(c.Reports))
	for _, path := range c.Reports {
		r, err := readRunReport(path, c.MaxReportBytes)
		if err != nil {
			return runFail(cmd, exitUsage, "%v", err)
		}
		in = append(in, matrix.Input{File: path, Report: r})
	}
	if c.Merge != "" {
		return c.merge(in)
	}
	m, err := matrix.Build(in)
	if err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	for _, out := range []struct {
		path  string
		write func(io.Writer, *matrix.Matrix) error
	}{{c.HTML, matrix.WriteHTML}, {c.Markdown, matrix.WriteMarkdown}} {
		if out.path == "" {
			continue
		}
		var buf bytes.Buffer
		if err := out.write(&buf, m); err != nil {
			return runFail(cmd, exitInfraFailed, "%s: %v", out.path, err)
		}
		if err := writeOut(out.path, buf.Bytes()); err != nil {
			return runFail(cmd, exitInfraFailed, "%v", err)
		}
	}
	if c.Badge != "" {
		if _, err := matrix.WriteBadges(c.Badge, m); err != nil {
			return runFail(cmd, exitInfraFailed, "--badge %s: %v", c.Badge, err)
		}
	}
	return nil
}

func (c *reportCmd) merge(in []matrix.Input) error {
	names, shards := make([]string, len(in)), make([]*runner.Report, len(in))
	for i, x := range in {
		names[i], shards[i] = x.File, x.Report
	}
	ids, err := mergeCaseSet(shards[0])
	if err != nil {
		return runFail("report", exitUsage, "--merge: %s: %v", names[0], err)
	}
	merged, err := runner.Merge(names, shards, ids)
	if err != nil {
		return runFail("report", exitUsage, "--merge: %v", err)
	}
	var buf bytes.Buffer
	if err := report.WriteRunJSON(&buf, merged); err != nil {
		return runFail("report", exitInfraFailed, "--merge: %v", err)
	}
	if err := writeOut(c.Merge, buf.Bytes()); err != nil {
		return runFail("report", exitInfraFailed, "--merge: %v", err)
	}
	return nil
}

// convert writes one saved run report in other formats (issue 21: one
// run, every artifact).
func (c *reportCmd) convert() error {
	const cmd = "report"
	switch {
	case c.Merge != "" || c.HTML != "" || c.Markdown != "" || c.Badge != "":
		return runFail(cmd, exitUsage, "--format and --out convert one report: give --html, --markdown, --badge and --merge in another call")
	case len(c.Reports) != 1:
		return runFail(cmd, exitUsage, "--format converts one report, got %d", len(c.Reports))
	}
	format := c.Format
	if format == "" {
		format = "text"
	}
	outs, err := parseOuts(format, c.Out)
	if err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	for _, o := range outs {
		if err := outIsInput(cmd, o.Path, [2]string{"report", c.Reports[0]}); err != nil {
			return err
		}
	}
	r, err := readRunReport(c.Reports[0], c.MaxReportBytes)
	if err != nil {
		return runFail(cmd, exitUsage, "%v", err)
	}
	for _, o := range outs {
		var buf bytes.Buffer
		if err := report.WriteRun(&buf, o.Format, r, report.RunText{MaxFailures: 25}); err != nil {
			return runFail(cmd, exitInfraFailed, "rendering the %s report: %v", o.Format, err)
		}
		if err := report.WriteFile(o.Path, buf.Bytes()); err != nil {
			return runFail(cmd, exitInfraFailed, "--out %s: %v", bounded(o.Path), err)
		}
	}
	return nil
}

// mergeCaseSet is the ids of the case set a shard ran: the embedded one or
// its --fixtures directory, which must still hash to the shard's caseSet.
func mergeCaseSet(r *runner.Report) (map[string]bool, error) {
	var fsys fs.FS = conformroot.Files
	where := "the embedded case set"
	if r.Fixtures != "" {
		fsys, where = os.DirFS(r.Fixtures), "--fixtures "+r.Fixtures
	}
	hash, err := runner.CaseSetHash(fsys)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", where, err)
	}
	if r.CaseSet != hash {
		return nil, fmt.Errorf("the shards ran case set %q, %s is %s: merge with the conform and fixtures that ran them", r.CaseSet, where, hash)
	}
	cases, err := runner.LoadCases(fsys)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", where, err)
	}
	ids := make(map[string]bool, len(cases))
	for _, c := range cases {
		ids[c.ID] = true
	}
	return ids, nil
}

func writeOut(path string, data []byte) error {
	if err := report.WriteFile(path, data); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}
