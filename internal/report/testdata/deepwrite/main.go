// Command deepwrite measures report writing alone (issue 21): a run report
// whose one failing case has an answer N levels deep, written in every
// format to files in DIR. Run it under /usr/bin/time -v:
//
//	go run ./internal/report/testdata/deepwrite 10000000 DIR
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/dsh-conform/conform/internal/report"
	"github.com/dsh-conform/conform/internal/runner"
	"github.com/dsh-conform/conform/internal/verdict"
)

func main() {
	depth, err := strconv.Atoi(os.Args[1])
	if err != nil {
		panic(err)
	}
	dir := os.Args[2]
	deep := append(append(bytes.Repeat([]byte("["), depth), `"\ud800"`...), bytes.Repeat([]byte("]"), depth)...)
	c := runner.CaseResult{ID: "retain.items/deep", Op: "retain.items", Requirements: []string{"RET-ITEMS-1"}, Verdict: verdict.Fail,
		Broken: []string{"RET-ITEMS-1"}, Input: []byte(`{"items":[1]}`),
		Diffs: []runner.Diff{{Field: "items", Comparator: "json", Path: "$.items", Requirements: []string{"RET-ITEMS-1"},
			WantJSON: []byte(`[1]`), GotJSON: deep, Message: "differs"}}}
	r := &runner.Report{Format: runner.ReportFormat, Version: runner.ReportVersion, Protocol: 1, Complete: true, Selected: 1,
		Cases: []runner.CaseResult{c}, Totals: runner.Totals([]runner.CaseResult{c})}
	for _, f := range report.RunFormats {
		o, err := report.OpenOut(filepath.Join(dir, "r."+f))
		if err != nil {
			panic(err)
		}
		bw := bufio.NewWriterSize(o.Writer(), 64<<10) // as conform run writes
		if err := report.WriteRun(bw, f, r, report.RunText{}); err != nil {
			panic(err)
		}
		if err := bw.Flush(); err != nil {
			panic(err)
		}
		if err := o.Close(); err != nil {
			panic(err)
		}
		fmt.Printf("%s written\n", f)
	}
}
